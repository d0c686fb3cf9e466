"""Problems the engine finds in a record, each with a stable code and a message in two languages.

Codes are part of the contract (RULES.md section 12) and never change; messages are for people and
may be reworded. A ``Problem`` names the seat, tile or side it concerns where that helps.

A count in a message agrees with its noun by the language's plural rule: ``{count|tile|tiles}``
in English, ``{count|кость|кости|костей}`` in Russian (one, few, many) is the word for the number
``count`` (written where ``{count}`` stands): «1 очко», «3 очка», «12 очков».
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# code -> (English, Russian); placeholders are filled from the problem's ``params``.
MESSAGES: dict[str, tuple[str, str]] = {
    "bad_input": ("The input cannot be read: {detail}", "Запись не читается: {detail_ru}"),
    "bad_option": ("Bad rules option: {detail}", "Неверная настройка правил: {detail_ru}"),
    "bad_deal": ("The deal record is malformed: {detail}", "Запись раздачи неверна: {detail_ru}"),
    "bad_tile": (
        "Seat {seat}: cannot read tile «{tile}» (tiles are a:b with 0–6 pips)",
        "Место {seat}: не читается кость «{tile}» (кость пишется a:b, от 0 до 6 очков)",
    ),
    "duplicate_tile": (
        "Tile {tile} is listed twice ({seat}){detail}",
        "Кость {tile} записана дважды ({seat}){detail_ru}",
    ),
    "hand_too_large": (
        "Seat {seat} holds {count} {count|tile|tiles}, more than the {limit} possible",
        "У места {seat} {count} {count|кость|кости|костей}, больше возможных {limit}",
    ),
    "missing_hand": (
        "Seat {seat} has neither tiles nor a pip count",
        "Для места {seat} не записаны ни кости, ни очки",
    ),
    "finisher_has_tiles": (
        "Seat {seat} went out but still holds tiles",
        "Место {seat} вышло (домино), но у него остались кости",
    ),
    "two_empty_hands": (
        "Seat {seat} has an empty hand too: the deal would have ended earlier",
        "У места {seat} тоже пустая рука: раздача закончилась бы раньше",
    ),
    "not_a_line": (
        "The tiles on the table cannot form one line ({detail})",
        "Кости на столе не складываются в одну цепь ({detail_ru})",
    ),
    "not_blocked": (
        "A fish is declared but the line is not blocked: {detail}",
        "Объявлена «рыба», но игра не закрыта: {detail_ru}",
    ),
    "pips_mismatch": (
        "Seat {seat}: the tiles make {actual} {actual|pip|pips}, but {pips} is written",
        "Место {seat}: по костям {actual} {actual|очко|очка|очков}, а записано {pips}",
    ),
    "pips_out_of_range": (
        "Seat {seat}: {pips} {pips|pip|pips} is impossible (0 to {limit})",
        "Место {seat}: {pips} {pips|очко|очка|очков} невозможно (от 0 до {limit})",
    ),
    "wrong_leader": (
        "Seat {seat} led, but the lead belongs to {expected_seat}",
        "Заходило место {seat}, а заход был за {expected_seat}",
    ),
    "bad_lead_tile": (
        "Lead tile {tile}: {detail}",
        "Заходная кость {tile}: {detail_ru}",
    ),
    "bad_last_tiles": (
        "Finishing tiles {tile}: {detail}",
        "Последний ход {tile}: {detail_ru}",
    ),
    "not_a_redeal": (
        "A redeal needs a hand with {doubles} {doubles|double|doubles} or {suit} "
        "{suit|tile|tiles} of one suit; none has",
        "Пересдача возможна, только если у кого-то {doubles} {doubles|дубль|дубля|дублей} или "
        "{suit} {suit|кость|кости|костей} одной масти; таких рук нет",
    ),
    "declared_mismatch": (
        "Declared {declared}, but the rules record {expected}",
        "Объявлено {declared}, а по правилам записывается {expected}",
    ),
    "too_many_deals": (
        "A match holds at most {limit} {limit|deal|deals} under these rules",
        "По этим правилам в партии не больше {limit} {limit|раздачи|раздач|раздач}",
    ),
    "deal_after_end": (
        "The match is already over ({detail}); no more deals can be recorded",
        "Партия уже окончена ({detail_ru}); новые раздачи не записываются",
    ),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a deal (or the whole input) is refused."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    #: extra keys for the contract's error object (``seat``, ``tile``, ``expected`` …)
    extra: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        en, ru = MESSAGES[self.code]
        template = ru if lang == "ru" else en
        params = {k: _show(v) for k, v in self.params.items()}
        params.setdefault("detail_ru", params.get("detail", ""))
        if self.code == "deal_after_end" and "detail" not in self.params:
            params["detail"], params["detail_ru"] = END_WORDS.get(
                str(self.params.get("end")), (params.get("end", ""),) * 2)
        try:
            template = _PLURAL.sub(lambda m: plural_word(self.params.get(m[1]), m[2], lang),
                                   template)
            return template.format(**params)
        except (KeyError, IndexError, ValueError):  # never hide the code behind a crash
            return f"{self.code}: {params}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message("en")}
        out["message_ru"] = self.message("ru")
        out.update(self.extra)
        return out


def declared_problem(declared: Mapping[str, int], expected: Mapping[str, int]) -> Problem:
    """``declared_mismatch``: the message names the sides whose amounts differ (a side left out
    of ``declared`` is 0); the error carries both whole amounts."""
    sides = [s for s in {**expected, **declared} if declared.get(s, 0) != expected.get(s, 0)]
    return Problem("declared_mismatch",
                   {"declared": {s: declared.get(s, 0) for s in sides},
                    "expected": {s: expected.get(s, 0) for s in sides}},
                   {"expected": dict(expected), "declared": dict(declared)})


#: how a match ended (``MatchState.end``), for a message: English, Russian
END_WORDS: dict[str, tuple[str, str]] = {
    "deals": ("every deal has been played", "сыграны все раздачи"),
    "target": ("a side reached the target", "набрана сумма партии"),
    "instant": ("it was won at once", "победа досрочно"),
    "time": ("time ran out", "вышло время"),
}

#: ``{name|one|…}`` in a message: the word for the number ``params[name]``
_PLURAL = re.compile(r"\{(\w+)\|([^{}]*)\}")


def plural_word(number: Any, forms: str, lang: str) -> str:
    """The word of ``forms`` (``one|other`` in English, ``one|few|many`` in Russian) that goes
    with ``number``; the last form when it is not a whole number."""
    words = forms.split("|")
    if not isinstance(number, int) or isinstance(number, bool):
        return words[-1]
    n = abs(number)
    if lang == "ru" and len(words) == 3:
        if n % 10 == 1 and n % 100 != 11:
            return words[0]
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return words[1]
        return words[2]
    return words[0] if n == 1 else words[-1]


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "0"
    return str(value)


class RulesError(ValueError):
    """The input as a whole cannot be judged (``bad_input`` or ``bad_option``)."""

    def __init__(self, code: str, detail: str, detail_ru: str | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.problem = Problem(code, {"detail": detail, "detail_ru": detail_ru or detail}, extra)

    @property
    def code(self) -> str:
        return self.problem.code
