"""The rules in force for the end-of-deal club games of seed 003 (RULES.md sections 24–25).

Presets ``dvorovoe``, ``kozel_morskoy``, ``osel``, ``chechevo``, ``semerka`` and ``general``:
each takes only the knobs section 25 lists for it (any other knob is ``bad_option``), with its
defaults and ranges, and ``make_club_rules`` refuses the combinations that make no sense.
The knob descriptions reuse ``rules.presets.Knob`` and its checker.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import tiles as T
from ..errors import RulesError
from ..presets import MAX_BONUS, MAX_MIN_RECORD, MAX_TARGET, Knob, Seating, check_knob

#: deal entries a club match may hold (as the classic games' ``MAX_TARGET_ENTRIES``)
MAX_ENTRIES = 300


@dataclass(frozen=True, slots=True)
class ClubRules(Seating):
    """Every knob of a club match; a preset ignores the knobs it does not take."""

    preset: str = "dvorovoe"
    players: int = 2
    pairs: bool = False
    hand_size: int = 7
    boneyard_keep: int = 0
    target: int = 200
    time_tie: str = "draw"
    redeal_doubles: int | None = None
    redeal_suit: int | None = None
    fish_tie: str = "void"
    next_lead: str = "ladder"
    bonus_zero: int | None = 25
    min_record: int = 0
    min_record_scope: str = "opening"
    below_min: str = "discard"
    bonus_on_fish: bool = False
    first_lead: str = "ladder"
    weekday: int | None = None
    vneocherednoy: str = "continue"
    held_doubles: str = "any_hand"
    sticks: int = 3
    ladder_from: int = 1
    general_rule: str = "either"
    end: str = "target"

    @property
    def boneyard_size(self) -> int:
        return T.TILE_COUNT - self.players * self.hand_size

    @property
    def has_boneyard(self) -> bool:
        return self.boneyard_size > 0

    @property
    def fewer_is_better(self) -> bool:
        """A side with fewer points (sticks, generals) is ahead: every game but ``dvorovoe``,
        where the winner records (section 30)."""
        return self.preset != "dvorovoe"

    @property
    def layout(self) -> str:
        return "cross" if self.preset in ("osel", "chechevo") else "line"

    @property
    def max_last_doubles(self) -> int:
        return {"kozel_morskoy": 2, "general": 2, "osel": 4, "chechevo": 4}.get(self.preset, 1)

    @property
    def redeal_limits(self) -> tuple[int, int]:
        """Doubles and tiles of one suit that allow a redeal (null: the whole hand)."""
        return (self.redeal_doubles or self.hand_size, self.redeal_suit or self.hand_size)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in CLUB_PRESETS[self.preset][1]} | {
            "preset": self.preset}


CLUB_KNOBS: dict[str, Knob] = {
    "players": Knob(int, "Number of players", "Число игроков", low=2, high=4),
    "pairs": Knob(bool, "With 4 players, partners sit opposite (NS against EW)",
                  "Вчетвером — пара на пару (СЮ против ВЗ)"),
    "hand_size": Knob(int, "Tiles dealt to each player", "Костей на руки каждому", low=1,
                      high=14),
    "boneyard_keep": Knob(int, "Tiles that stay in the boneyard (never drawn)",
                          "Сколько костей в базаре не добирают", low=0, high=27),
    "target": Knob(int, "Target total (generals or lost deals in «Генерал»)",
                   "Сумма партии (в «Генерале» — генералов или проигрышей)", low=1,
                   high=MAX_TARGET),
    "time_tie": Knob(str, "Time is up with equal totals: a draw, or play on",
                     "Время вышло при равном счёте: ничья или доигрывание",
                     choices=("draw", "extra_deal")),
    "redeal_doubles": Knob(int, "Doubles in one hand that allow a redeal (null: the whole hand)",
                           "Сколько дублей дают пересдачу (null — вся рука)", low=1, high=7,
                           nullable=True),
    "redeal_suit": Knob(int, "Tiles of one suit that allow a redeal (null: the whole hand)",
                        "Сколько костей одной масти дают пересдачу (null — вся рука)", low=1,
                        high=7, nullable=True),
    "fish_tie": Knob(str, "Fish with equal values: void, or eggs carried over",
                     "«Рыба» при равенстве: не считается или «яйца»", choices=("void", "eggs")),
    "next_lead": Knob(str, "Who leads the next deals: the ladder, the winner, in turn",
                      "Кто заходит дальше: по дублям, выигравший, по кругу",
                      choices=("ladder", "winner", "rotate")),
    "bonus_zero": Knob(int, "Value of a lone 0:0 in a domino (null: its pips)",
                       "Сколько стоит один 0:0 на руках (null — по очкам)", low=0,
                       high=MAX_BONUS, nullable=True),
    "min_record": Knob(int, "Smallest amount that is written (0: none)",
                       "Минимум для записи (0 — нет)", low=0, high=MAX_MIN_RECORD),
    "min_record_scope": Knob(str, "Minimum only to open the record, or always",
                             "Минимум только для начала записи или всегда",
                             choices=("opening", "always")),
    "below_min": Knob(str, "Below the minimum: hangs for the next deal, or is lost",
                      "Меньше минимума: «висит» или сгорает", choices=("hang", "discard")),
    "bonus_on_fish": Knob(bool, "Lone 0:0 / 6:6 values apply in a fish too",
                          "Особая стоимость 0:0 и 6:6 и при «рыбе»"),
    "first_lead": Knob(str, "Opening double: the ladder 1:1…6:6, or the day of the week",
                       "Заходной дубль: по старшинству с 1:1 или по дню недели",
                       choices=("ladder", "weekday")),
    "weekday": Knob(int, "Day of the week of the opening double, Monday 1 … Sunday 7 "
                    "(null: the ladder)", "День недели заходного дубля, пн 1 … вс 7 "
                    "(null — по старшинству)", low=1, high=7, nullable=True),
    "vneocherednoy": Knob(str, "«Внеочередной козёл»: play on, or the match ends",
                          "«Внеочередной козёл»: игра продолжается или партия окончена",
                          choices=("continue", "ends_match")),
    "held_doubles": Knob(str, "0:0 (25) and 6:6 (50) count in any hand, or only alone",
                         "0:0 (25) и 6:6 (50) считаются в любой руке или только одни",
                         choices=("any_hand", "lone")),
    "sticks": Knob(int, "Sticks that put a player out", "Сколько «палок» выводят из игры",
                   low=1, high=10),
    "ladder_from": Knob(int, "The first deal is led from 1:1, or from 2:2 (a new match)",
                        "Первый заход с 1:1 или с 2:2 (новая партия)", low=1, high=2),
    "general_rule": Knob(str, "A general: out on 0:0 or 6:6, on both, or «голый» rules",
                         "«Генерал»: выход на 0:0 или 6:6, на оба, или правило «голого»",
                         choices=("either", "both", "golyi")),
    "end": Knob(str, "End of the match: by time, by generals, by lost deals",
                "Конец партии: по времени, по генералам, по проигрышам",
                choices=("time", "generals", "losses")),
}

_COMMON = {"players", "target", "time_tie", "redeal_doubles", "redeal_suit"}
_B = ClubRules()

#: preset -> (its rules, the knobs it takes, the players it allows)
CLUB_PRESETS: dict[str, tuple[ClubRules, frozenset[str], tuple[int, int]]] = {
    "dvorovoe": (_B, frozenset(_COMMON | {"pairs", "hand_size", "fish_tie", "next_lead",
                                          "bonus_zero"}), (2, 4)),
    "kozel_morskoy": (dataclasses.replace(
        _B, preset="kozel_morskoy", players=4, pairs=True, boneyard_keep=1, target=125,
        redeal_doubles=5, redeal_suit=6, fish_tie="eggs", next_lead="winner", min_record=25),
        frozenset(_COMMON | {"pairs", "boneyard_keep", "min_record", "min_record_scope",
                             "bonus_on_fish", "first_lead", "weekday", "vneocherednoy"}), (2, 4)),
    "osel": (dataclasses.replace(
        _B, preset="osel", players=4, pairs=True, boneyard_keep=1, target=101, redeal_doubles=5,
        redeal_suit=6, fish_tie="eggs", next_lead="winner", min_record=13, below_min="hang"),
        frozenset(_COMMON | {"pairs", "boneyard_keep", "min_record", "min_record_scope",
                             "below_min"}), (2, 4)),
    "chechevo": (dataclasses.replace(
        _B, preset="chechevo", players=3, target=101, redeal_doubles=5, redeal_suit=6,
        fish_tie="eggs", next_lead="winner", bonus_zero=None),
        frozenset(_COMMON | {"hand_size", "held_doubles"}), (2, 4)),
    "semerka": (dataclasses.replace(
        _B, preset="semerka", players=3, target=0, next_lead="winner", bonus_zero=None),
        frozenset((_COMMON - {"target"}) | {"hand_size", "sticks", "ladder_from"}), (2, 4)),
    "general": (dataclasses.replace(
        _B, preset="general", players=4, pairs=True, target=2, redeal_doubles=5, redeal_suit=6,
        next_lead="winner", bonus_zero=None, end="time"),
        frozenset(_COMMON | {"general_rule", "end"}), (4, 4)),
}


def is_club_preset(preset: object) -> bool:
    return isinstance(preset, str) and preset in CLUB_PRESETS


def _bad(option: str, en: str, ru: str) -> RulesError:
    return RulesError("bad_option", en, ru, option=option)


def _default_hand(preset: str, players: int) -> int:
    if preset == "dvorovoe":
        return 7 if players == 2 else 5
    if preset in ("chechevo", "semerka"):
        return 6 if players == 4 else 7
    return 7


def make_club_rules(preset: str, options: Mapping[str, Any] | None = None,
                    players: object = None) -> ClubRules:
    """The preset with ``options`` applied, cross-checked; raises ``RulesError('bad_option')``."""
    base, takes, (low, high) = CLUB_PRESETS[preset]
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise _bad("options", "options must be an object of knob: value",
                   "«options» — объект «настройка: значение»")
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in takes:
            raise _bad(name, f"unknown option {name!r} for {preset}",
                       f"в «{preset}» нет настройки «{name}»")
        changes[name] = check_knob(name, CLUB_KNOBS[name], value)
    if players is not None:
        changes["players"] = check_knob("players", CLUB_KNOBS["players"], players)
    count = changes.get("players", base.players)
    if not low <= count <= high:
        allowed = str(low) if low == high else f"{low}–{high}"
        raise _bad("players", f"{preset} is played by {allowed} players (got {count})",
                   f"в «{preset}» играют {allowed} (указано {count})")
    changes.setdefault("hand_size", _default_hand(preset, count))
    if preset in ("chechevo", "semerka"):
        changes["pairs"] = False
    elif preset == "general":
        changes["pairs"] = True
    elif "pairs" not in options and count < 4:
        changes["pairs"] = False
    if "boneyard_keep" not in options:  # the default keeps 1 only where there is a boneyard
        boneyard = T.TILE_COUNT - count * changes["hand_size"]
        changes["boneyard_keep"] = max(0, min(base.boneyard_keep, boneyard))
    rules = dataclasses.replace(base, **changes)
    _cross_check(rules, options)
    return rules


def _cross_check(rules: ClubRules, options: Mapping[str, Any]) -> None:
    if options.get("pairs") is True and rules.players < 4:
        raise _bad("pairs", "pairs need 4 players", "пара на пару — только вчетвером")
    if rules.players * rules.hand_size > T.TILE_COUNT:
        raise _bad("hand_size", f"{rules.players} hands of {rules.hand_size} need more than 28 "
                   "tiles", f"{rules.players} руки по {rules.hand_size} — больше 28 костей")
    if rules.boneyard_keep > rules.boneyard_size:
        raise _bad("boneyard_keep", "boneyard_keep is larger than the boneyard",
                   "«boneyard_keep» больше самого базара")
    if rules.first_lead == "weekday" and rules.weekday is None:
        raise _bad("weekday", "first_lead weekday needs weekday (1–7)",
                   "для захода по дню недели нужен «weekday» (1–7)")
    if rules.first_lead == "ladder" and rules.weekday is not None:
        raise _bad("weekday", "weekday is given only with first_lead weekday",
                   "«weekday» задаётся только с «first_lead: weekday»")
