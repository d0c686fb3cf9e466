"""The rules in force for a fives game: presets ``fives`` and ``muggins`` (RULES.md section 16)
and seed 003's «Телефон», ``telefon`` (sections 25 and 32).

A registry of its own, beside ``rules.presets.PRESETS``: the web app builds its preset choices
from that one, and offers no fives games yet (there is no score sheet for a line of play). The
knob descriptions reuse ``rules.presets.Knob``; ``make_fives_rules`` refuses unknown knobs (every
knob of section 11 these games lack included), wrong types and values that make no sense together
(``bad_option``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import tiles as T
from ..errors import RulesError
from ..presets import MAX_BONUS, MAX_TARGET, Knob, Seating, check_knob

#: What one move can score at most (section 18): 10 for the lead, 20 on two ends, 35 with a
#: spinner (ends 6:6, 5:5, 4:4 and a plain 5).
MAX_MOVE_POINTS = 20
MAX_MOVE_POINTS_SPINNER = 35


@dataclass(frozen=True, slots=True)
class FivesRules(Seating):
    """Every knob of a fives match. Field docs are in ``FIVES_KNOBS``."""

    preset: str = "fives"
    players: int = 2
    pairs: bool = False
    hand_size: int = 7
    boneyard_keep: int = 0
    spinner: str = "none"
    spinner_count: str = "all_arms"
    bonus_round: str = "none"
    bonus_divisor: int = 1
    fish_scoring: str = "difference"
    domino_bonus: int | None = None
    fish_tie: str = "void"
    target: int = 100
    target_check: str = "move"
    first_lead: str = "any"
    next_lead: str = "winner"
    time_tie: str = "draw"
    #: ``bonus``: the winner takes a bonus (section 20); ``write_off``: the losers write their
    #: hands off their own totals, never below 0 (``telefon``, section 32)
    deal_end: str = "bonus"
    #: the most doubles one move may lay (section 32: «до четырёх дублей … за 1 ход»)
    max_doubles: int = 1
    #: the deal and match outputs of section 34 (``titles``, ``void``, ``losers``, ``write_off``)
    outputs_34: bool = False

    @property
    def boneyard_size(self) -> int:
        """Tiles left undealt (the boneyard, the kept tiles included)."""
        return T.TILE_COUNT - self.players * self.hand_size

    @property
    def drawable(self) -> int:
        """Tiles that can be drawn in one deal: the boneyard less ``boneyard_keep``."""
        return T.TILE_COUNT - self.players * self.hand_size - self.boneyard_keep

    @property
    def max_move_points(self) -> int:
        return MAX_MOVE_POINTS_SPINNER if self.spinner != "none" else MAX_MOVE_POINTS

    def to_dict(self) -> dict[str, Any]:
        """The preset and the knobs it takes (what a stored match replays as options): a
        preset's fixed rules (``telefon``'s «дом», its leads) are the preset's own."""
        out = {"preset": self.preset,
               **{name: getattr(self, name) for name in PRESET_KNOBS[self.preset]}}
        if out.get("pairs") and self.players < 4:
            # «Телефон»'s preset pairs four players; with fewer ``pairs`` means nothing, and
            # replayed as an option it would be refused (section 25: only with 4 players)
            out["pairs"] = False
        return out


_LEADS = ("any", "seat_N", "seat_E", "seat_S", "seat_W")
#: Fixed by a preset, never a knob: ``spinner: dom`` (the first double laid, or of the first
#: doubles laid together the first covered, section 32), ``first_lead: double_zero`` (the holder
#: of 0:0) and ``next_lead: last_move`` (who went out; after a fish, the seat of the last move).

FIVES_KNOBS: dict[str, Knob] = {
    "players": Knob(int, "Number of players (2–4)", "Число игроков (2–4)", low=2, high=4),
    "pairs": Knob(bool, "With 4 players, partners sit opposite (NS against EW)",
                  "Вчетвером — пара на пару (СЮ против ВЗ)"),
    "hand_size": Knob(int, "Tiles dealt to each player (default 7 for two, 5 for three or four)",
                      "Костей на руки каждому (по умолчанию 7 вдвоём, 5 втроём и вчетвером)",
                      low=1, high=14),
    "boneyard_keep": Knob(int, "Tiles that stay in the boneyard (never drawn)",
                          "Сколько костей в базаре не добирают", low=0, high=27),
    "spinner": Knob(str, "The first double is a spinner («крест»), built on from four sides",
                    "Первый дубль — «крест», к нему ставят с четырёх сторон",
                    choices=("none", "first_double")),
    "spinner_count": Knob(str, "Spinner arms with no tile yet: count its number, or nothing",
                          "Пустые концы креста: считаются по его числу или не считаются",
                          choices=("all_arms", "played_arms")),
    "bonus_round": Knob(str, "Rounding of the bonus to a multiple of 5",
                        "Округление призовых очков до кратного 5",
                        choices=("none", "nearest", "down", "up")),
    "bonus_divisor": Knob(int, "The rounded bonus is divided by this (1 or 5)",
                          "Округлённые призовые делятся на это число (1 или 5)", low=1, high=5),
    "fish_scoring": Knob(str, "Fish: the losers' pips less the winner's, or in full",
                         "«Рыба»: очки проигравших минус очки победителя или полностью",
                         choices=("difference", "same")),
    "domino_bonus": Knob(int, "A fixed bonus for going out (null: the opponents' pips)",
                         "Постоянный приз за выход (null — очки соперников)", low=0,
                         high=MAX_BONUS, nullable=True),
    "fish_tie": Knob(str, "Fish with equal lowest values: void, or its bonus carried (eggs)",
                     "«Рыба» при равенстве: не считается или приз переносится («яйца»)",
                     choices=("void", "eggs")),
    "target": Knob(int, "Target total that wins the match", "Сумма очков для победы в партии",
                   low=1, high=MAX_TARGET),
    "target_check": Knob(str, "The target is checked after every move, or once a deal is scored",
                         "Цель проверяется после каждого хода или после подсчёта раздачи",
                         choices=("move", "deal")),
    "first_lead": Knob(str, "Who leads the first deal", "Кто заходит в первой раздаче",
                       choices=_LEADS),
    "next_lead": Knob(str, "Who leads the next deals: the winner, or in turn",
                      "Кто заходит дальше: выигравший или по кругу", choices=("winner", "rotate")),
    "time_tie": Knob(str, "Time is up with equal totals: a draw, or play on until it breaks",
                     "Время вышло при равном счёте: ничья или доигрывание",
                     choices=("draw", "extra_deal")),
    "deal_end": Knob(str, "End of a deal: the losers write their hands off, or the winner takes "
                          "a bonus", "Конец раздачи: проигравшие списывают очки с руки или "
                          "выигравший получает приз", choices=("write_off", "bonus")),
}

_FIVES = FivesRules()

FIVES_PRESETS: dict[str, FivesRules] = {
    # seed 001, the Polish museum rules: two ends, no rounding, the target checked at every move
    "fives": _FIVES,
    # seed 004, «Пятёрка» / Muggins: the first double is a cross, the bonus rounded and ÷ 5
    "muggins": dataclasses.replace(
        _FIVES, preset="muggins", spinner="first_double", bonus_round="nearest",
        bonus_divisor=5, target_check="deal",
    ),
    # seed 003's «Телефон»: the «дом», up to four doubles a move, the losers write off (sec. 32)
    "telefon": dataclasses.replace(
        _FIVES, preset="telefon", pairs=True, spinner="dom", spinner_count="played_arms",
        bonus_round="down", target=225, target_check="deal", first_lead="double_zero",
        next_lead="last_move", deal_end="write_off", max_doubles=4, outputs_34=True,
    ),
}

#: The knobs each preset takes (section 16; section 25 for ``telefon``): any other is
#: ``bad_option``.
PRESET_KNOBS: dict[str, tuple[str, ...]] = {
    "fives": tuple(k for k in FIVES_KNOBS if k != "deal_end"),
    "muggins": tuple(k for k in FIVES_KNOBS if k != "deal_end"),
    "telefon": ("players", "pairs", "target", "time_tie", "deal_end", "bonus_round",
                "spinner_count", "target_check"),
}


def is_fives_preset(preset: Any) -> bool:
    return isinstance(preset, str) and preset in FIVES_PRESETS


def make_fives_rules(preset: object = "fives", options: Mapping[str, Any] | None = None,
                     players: object = None) -> FivesRules:
    """The preset with ``options`` applied, cross-checked. Raises ``RulesError('bad_option')``.

    ``preset`` is a preset's name and ``players`` a whole number (or None), but any value is
    taken and refused with ``bad_option``: the contract passes them as the JSON had them, and a
    build compiled with mypyc checks an argument's annotated type at the call."""
    if not isinstance(preset, str) or preset not in FIVES_PRESETS:
        known = ", ".join(FIVES_PRESETS)
        raise _bad_option("preset", f"unknown fives preset {preset!r}; known: {known}",
                          f"нет набора правил «{preset}»; есть: {known}")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise _bad_option("options", "options must be an object of knob: value",
                          "«options» — объект «настройка: значение»")
    changes: dict[str, Any] = {name: _checked(name, value, preset)
                               for name, value in options.items()}
    if players is not None:
        changes["players"] = _checked("players", players, preset)
    # Seed 004 and 003's «Маггинс» deal 7 each to two players, 5 each to three or four; an
    # explicit hand_size applies to any number of players. «Телефон» deals 7 to each (32).
    if preset == "telefon":
        if changes.get("pairs") and changes.get("players", 2) < 4:
            raise _bad_option("pairs", "pairs: true needs 4 players",
                              "«pairs: true» — только вчетвером")
    elif "hand_size" not in changes:
        changes["hand_size"] = 7 if changes.get("players", FIVES_PRESETS[preset].players) == 2 \
            else 5
    rules = dataclasses.replace(FIVES_PRESETS[preset], **changes)
    _cross_check(rules)
    return rules


def _bad_option(option: str, en: str, ru: str) -> RulesError:
    return RulesError("bad_option", en, ru, option=option)


def _checked(name: str, value: Any, preset: str) -> Any:
    knob = FIVES_KNOBS.get(name)
    if not isinstance(name, str) or knob is None or name not in PRESET_KNOBS[preset]:
        game = "«Телефон»" if preset == "telefon" else "«пятёрка»"
        raise _bad_option(str(name), f"unknown option {name!r} for {preset}",
                          f"неизвестная настройка «{name}» для игры {game}")
    value = check_knob(name, knob, value)
    if name == "bonus_divisor" and value not in (1, 5):
        raise _bad_option(name, f"bonus_divisor must be 1 or 5 (got {value})",
                          f"«bonus_divisor» — 1 или 5 (указано {value})")
    return value


def _cross_check(rules: FivesRules) -> None:
    if rules.bonus_round == "none" and rules.bonus_divisor == 5:
        raise _bad_option("bonus_divisor", "a bonus divided by 5 must be rounded (bonus_round)",
                          "призовые делятся на 5, только если они округляются (bonus_round)")
    if rules.players * rules.hand_size > T.TILE_COUNT:
        raise _bad_option("hand_size",
                          f"{rules.players} hands of {rules.hand_size} need more than 28 tiles",
                          f"{rules.players} руки по {rules.hand_size} — больше 28 костей")
    if rules.boneyard_keep > rules.boneyard_size:
        raise _bad_option("boneyard_keep", "boneyard_keep is larger than the boneyard",
                          "«boneyard_keep» больше самого базара")
    if rules.first_lead.startswith("seat_") and rules.first_lead[5:] not in rules.seats:
        raise _bad_option("first_lead", f"first_lead {rules.first_lead} names a seat not in play",
                          f"«first_lead» {rules.first_lead}: такого места нет в игре")


def fives_catalogue() -> dict[str, Any]:
    """The fives presets and their knobs (``python -m rules presets --fives``); ``options`` lists
    the knobs a preset takes."""
    return {
        "default": "fives",
        "presets": {name: {**rules.to_dict(), "players_allowed": [2, 4],
                           "options": list(PRESET_KNOBS[name])}
                    for name, rules in FIVES_PRESETS.items()},
        "knobs": {name: knob.describe() for name, knob in FIVES_KNOBS.items()},
    }
