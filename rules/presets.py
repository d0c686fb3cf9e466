"""The rules in force for a match: four presets and every knob that can override them.

``Rules`` is immutable. ``make_rules(preset, options, players)`` is the only way the apps build one:
it refuses unknown knobs, wrong types and values that make no sense together (``bad_option``), so a
tournament can never be set up with rules the engine cannot judge.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import RulesError

SEATS: tuple[str, ...] = ("N", "E", "S", "W")

# Upper bounds of the numeric knobs: generous against what real events play (the seed texts and
# RULES.md name 8–12 deals, targets of 101–500, lone doubles of 25/50/75, minimums of 13 and
# 25), and small enough that a protocol, its print page and its PDF stay a few pages long.
MAX_DEALS = 100
MAX_TARGET = 1000
MAX_BONUS = 200
MAX_MIN_RECORD = 100
#: deal entries (redeals included) a match to a target may hold: simulated matches to 1,000
#: take at most about 125; a match not over by then is not a match anyone plays
MAX_TARGET_ENTRIES = 300

Scoring = Literal["winner_takes_losers", "winner_takes_all", "losers_record_own"]


class Seating:
    """Who sits and who scores, for the rules of every game (``Rules``, the fives games'
    ``FivesRules``): the seats in play, whether N–S and E–W are partners, the scoring sides."""

    __slots__ = ()
    players: int
    pairs: bool

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS[: self.players]

    @property
    def partnership(self) -> bool:
        return self.pairs and self.players == 4

    @property
    def sides(self) -> tuple[str, ...]:
        # ``partnership`` and ``seats`` spelt out: the judges ask this once a deal
        return ("NS", "EW") if self.pairs and self.players == 4 else SEATS[: self.players]


@dataclass(frozen=True, slots=True)
class Rules(Seating):
    """Every knob of a match. Field docs are in ``KNOBS``."""

    preset: str = "sport"
    players: int = 4
    pairs: bool = True
    hand_size: int = 7
    draw: bool = False
    boneyard_keep: int = 0
    scoring: str = "winner_takes_losers"
    fish_scoring: str = "same"
    fish_tie: str = "eggs"
    bonus_zero: int | None = 25
    bonus_six: int | None = 50
    bonus_both: int | None = 75
    bonus_on_fish: bool = False
    min_record: int = 0
    min_record_scope: str = "opening"
    below_min: str = "discard"
    end: str = "deals"
    deals: int = 8
    target: int = 101
    time_tie: str = "draw"
    first_lead: str = "seat_N"
    next_lead: str = "rotate"
    redeal_doubles: int = 5
    redeal_suit: int = 6
    one_scorer: bool = False
    instant_doubles: bool = False
    na_sto: bool = False
    two_doubles: bool = False

    # Derived facts: the seats and sides come from ``Seating``.
    @property
    def has_boneyard(self) -> bool:
        return self.players * self.hand_size < 28

    @property
    def deal_limit(self) -> int:
        """The most deal entries (redeals included) one match may hold: twice the counted deals
        under ``end: deals`` (a redeal per deal is already far more than real play gives),
        ``MAX_TARGET_ENTRIES`` for a match to a target. The engine refuses a deal beyond it
        (``too_many_deals``), so a protocol, its pages and its storage stay bounded."""
        return 2 * self.deals if self.end == "deals" else MAX_TARGET_ENTRIES

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class Knob:
    kind: type
    en: str
    ru: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    nullable: bool = False

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind.__name__, "en": self.en, "ru": self.ru}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.low is not None:
            out["min"] = self.low
        if self.high is not None:
            out["max"] = self.high
        if self.nullable:
            out["nullable"] = True
        return out


_LEADS = ("seat_N", "seat_E", "seat_S", "seat_W", "ladder", "any")

KNOBS: dict[str, Knob] = {
    "players": Knob(int, "Number of players (2–4)", "Число игроков (2–4)", low=2, high=4),
    "pairs": Knob(bool, "With 4 players, partners sit opposite (NS against EW)",
                  "Вчетвером — пара на пару (СЮ против ВЗ)"),
    "hand_size": Knob(int, "Tiles dealt to each player", "Костей на руки каждому", low=1, high=14),
    "draw": Knob(bool, "Players draw from the boneyard (2–3 players)",
                 "Добор из базара (2–3 игрока)"),
    "boneyard_keep": Knob(int, "Tiles that stay in the boneyard (never drawn)",
                          "Сколько костей в базаре не добирают", low=0, high=27),
    "scoring": Knob(str, "Who records what after a deal", "Кто и что записывает после раздачи",
                    choices=("winner_takes_losers", "winner_takes_all", "losers_record_own")),
    "fish_scoring": Knob(str, "Fish: score as usual, or the winner takes the difference",
                         "«Рыба»: как обычно или победитель пишет разницу",
                         choices=("same", "difference")),
    "fish_tie": Knob(str, "Fish with equal values: eggs carried over, or void",
                     "«Рыба» при равенстве: «яйца» переносятся или не считается",
                     choices=("eggs", "void")),
    "bonus_zero": Knob(int, "Value of a hand holding only 0:0 (null: its pips)",
                       "Сколько стоит один 0:0 на руках (null — по очкам)", low=0,
                       high=MAX_BONUS, nullable=True),
    "bonus_six": Knob(int, "Value of a hand holding only 6:6 (null: its pips)",
                      "Сколько стоит один 6:6 на руках (null — по очкам)", low=0,
                      high=MAX_BONUS, nullable=True),
    "bonus_both": Knob(int, "Value of a hand holding only 0:0 and 6:6 (null: its pips)",
                       "Сколько стоят только 0:0 и 6:6 на руках (null — по очкам)",
                       low=0, high=MAX_BONUS, nullable=True),
    "bonus_on_fish": Knob(bool, "Lone-double values apply in a fish too",
                          "Особая стоимость дублей и при «рыбе»"),
    "min_record": Knob(int, "Smallest amount that is written (0: none)",
                       "Минимум для записи (0 — нет)", low=0, high=MAX_MIN_RECORD),
    "min_record_scope": Knob(str, "Minimum applies only to open the record, or always",
                             "Минимум только для начала записи или всегда",
                             choices=("opening", "always")),
    "below_min": Knob(str, "An amount below the minimum is lost, or hangs for the next deal",
                      "Меньше минимума: сгорает или «висит» до следующей раздачи",
                      choices=("discard", "hang")),
    "end": Knob(str, "End of the match: fixed deals, first to the target wins, or loses",
                "Конец партии: число раздач, до цели (выигрыш) или до цели (проигрыш, «козёл»)",
                choices=("deals", "target_wins", "target_loses")),
    "deals": Knob(int, "Counted deals in a match (end: deals)", "Раздач в партии", low=1,
                  high=MAX_DEALS),
    "target": Knob(int, "Target total (end: target_*)", "Сумма очков для конца партии", low=1,
                   high=MAX_TARGET),
    "time_tie": Knob(str, "Time is up with equal totals: a draw, or play on until it breaks",
                     "Время вышло при равном счёте: ничья или доигрывание",
                     choices=("draw", "extra_deal")),
    "first_lead": Knob(str, "Who leads the first deal", "Кто заходит в первой раздаче",
                       choices=_LEADS),
    "next_lead": Knob(str, "Who leads the next deals: in turn, or the winner",
                      "Кто заходит дальше: по кругу или выигравший", choices=("rotate", "winner")),
    "redeal_doubles": Knob(int, "Doubles in one hand that allow a redeal",
                           "Сколько дублей на руках дают пересдачу", low=1, high=7),
    "redeal_suit": Knob(int, "Tiles of one suit in one hand that allow a redeal",
                        "Сколько костей одной масти дают пересдачу", low=1, high=7),
    "one_scorer": Knob(bool, "Only one side holds points: a side that records zeroes the others",
                       "Очки только у одного: записавший обнуляет остальных"),
    "instant_doubles": Knob(bool, "Going out on 0:0 or 6:6 wins the match at once",
                            "Выход на 0:0 или 6:6 — сразу победа в партии"),
    "na_sto": Knob(bool, "«На сто»: a side with points may lead 6:6; out first wins the match, "
                         "else its points drop to 0",
                   "«На сто»: имеющий запись заходит с 6:6; вышел первым — победа, иначе "
                   "очки сгорают"),
    "two_doubles": Knob(bool, "Two doubles may be played in one move, one at each end",
                        "Можно выставить два дубля за ход, по одному с каждого конца"),
}

_BASE = Rules()

PRESETS: dict[str, Rules] = {
    "sport": _BASE,
    "kozel": dataclasses.replace(
        _BASE, preset="kozel", draw=True, scoring="losers_record_own",
        bonus_six=None, bonus_both=None, min_record=13, min_record_scope="opening",
        below_min="hang", end="target_loses", target=101, first_lead="ladder",
        next_lead="winner",
    ),
    "morskoy": dataclasses.replace(
        _BASE, preset="morskoy", draw=True, min_record=25, min_record_scope="always",
        below_min="discard", end="target_wins", target=125, first_lead="ladder",
        next_lead="winner", one_scorer=True, instant_doubles=True, na_sto=True, two_doubles=True,
    ),
    "international": dataclasses.replace(
        _BASE, preset="international", scoring="winner_takes_all", fish_tie="void",
        bonus_zero=None, bonus_six=None, bonus_both=None, end="target_wins", target=200,
        first_lead="any", next_lead="rotate",
    ),
}

#: Players each preset allows (sports and international domino are pair games of four).
PLAYER_RANGE: dict[str, tuple[int, int]] = {
    "sport": (4, 4), "kozel": (2, 4), "morskoy": (2, 4), "international": (4, 4),
}


def make_rules(
    preset: object = "sport", options: Mapping[str, Any] | None = None, players: object = None
) -> Rules:
    """The preset with ``options`` applied, cross-checked. Raises ``RulesError('bad_option')``.

    ``preset`` is a preset's name and ``players`` a whole number (or None), but any value is
    taken and refused with ``bad_option``: the contract passes them as the JSON had them, and a
    build compiled with mypyc checks an argument's annotated type at the call."""
    if not isinstance(preset, str) or preset not in PRESETS:
        # The registry (rules.games) lists every game in its refusal; it imports this module,
        # so it is looked up by name here rather than imported back.
        importlib.import_module("rules.games").find_game(preset)
        # a game of another judge (the club games): no score sheet yet
        raise _bad_option("preset", f"{preset!r} cannot be recorded on the score sheet yet",
                          f"«{preset}» пока нельзя вести в протоколе")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise _bad_option("options", "options must be an object of knob: value",
                          "«options» — объект «настройка: значение»")
    changes: dict[str, Any] = {}
    for name, value in options.items():
        changes[name] = _checked(name, value)
    if players is not None:
        changes["players"] = _checked("players", players)
    rules = dataclasses.replace(PRESETS[preset], **changes)
    _cross_check(rules)
    return rules


def _bad_option(option: str, en: str, ru: str) -> RulesError:
    return RulesError("bad_option", en, ru, option=option)


def _checked(name: str, value: Any) -> Any:
    knob = KNOBS.get(name)
    if knob is None:
        raise _bad_option(name, f"unknown option {name!r}", f"неизвестная настройка «{name}»")
    return check_knob(name, knob, value)


def check_knob(name: str, knob: Knob, value: Any) -> Any:
    """``value`` for the knob ``name`` when its kind, bounds and choices allow it; raises
    ``RulesError('bad_option')`` naming the knob otherwise. Every game's presets use it."""
    if value is None and knob.nullable:
        return None
    if knob.kind is bool:
        if not isinstance(value, bool):
            raise _bad_option(name, f"{name} must be true or false",
                              f"«{name}» — true или false")
        return value
    if knob.kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _bad_option(name, f"{name} must be a whole number",
                              f"«{name}» — целое число")
        if knob.low is not None and value < knob.low:
            raise _bad_option(name, f"{name} must be at least {knob.low} (got {value})",
                              f"«{name}» не меньше {knob.low} (указано {value})")
        if knob.high is not None and value > knob.high:
            raise _bad_option(name, f"{name} must be at most {knob.high} (got {value})",
                              f"«{name}» не больше {knob.high} (указано {value})")
        return value
    if not isinstance(value, str) or value not in knob.choices:
        choices = ", ".join(knob.choices)
        raise _bad_option(name, f"{name} must be one of {choices}",
                          f"«{name}» — одно из: {choices}")
    return value


def _cross_check(rules: Rules) -> None:
    low, high = PLAYER_RANGE[rules.preset]
    if not low <= rules.players <= high:
        allowed = str(low) if low == high else f"{low}–{high}"
        raise _bad_option("players",
                          f"{rules.preset} is played by {allowed} players (got {rules.players})",
                          f"в «{rules.preset}» играют {allowed} (указано {rules.players})")
    if rules.preset == "sport" and rules.deals % 4:
        raise _bad_option("deals",
                          f"deals must be a positive multiple of 4 in sports domino "
                          f"(got {rules.deals})",
                          f"в спортивном домино число раздач кратно 4 (указано {rules.deals})")
    if rules.players * rules.hand_size > 28:
        raise _bad_option("hand_size",
                          f"{rules.players} hands of {rules.hand_size} need more than 28 tiles",
                          f"{rules.players} руки по {rules.hand_size} — больше 28 костей")
    if rules.first_lead.startswith("seat_") and rules.first_lead[5:] not in rules.seats:
        raise _bad_option("first_lead",
                          f"first_lead {rules.first_lead} names a seat not in play",
                          f"«first_lead» {rules.first_lead}: такого места нет в игре")
    if rules.boneyard_keep > 28 - rules.players * rules.hand_size:
        raise _bad_option("boneyard_keep", "boneyard_keep is larger than the boneyard",
                          "«boneyard_keep» больше самого базара")


def catalogue() -> dict[str, Any]:
    """Every preset and knob, as the UI and ``python -m rules presets`` show them."""
    return {
        "default": "sport",
        "presets": {
            name: {**rules.to_dict(), "players_allowed": list(PLAYER_RANGE[name])}
            for name, rules in PRESETS.items()
        },
        "knobs": {name: knob.describe() for name, knob in KNOBS.items()},
    }
