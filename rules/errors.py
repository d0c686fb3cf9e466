"""Problems the engine finds in a record, each with a stable code and a message in two languages.

Codes are part of the contract (RULES.md section 12) and never change; messages are for people and
may be reworded. A ``Problem`` names the seat, tile or side it concerns where that helps.
"""

from __future__ import annotations

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
        "Seat {seat} holds {count} tiles, more than the {limit} possible",
        "У места {seat} {count} костей, больше возможных {limit}",
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
        "Seat {seat}: the tiles make {actual} pips, but {pips} is written",
        "Место {seat}: по костям {actual} очков, а записано {pips}",
    ),
    "pips_out_of_range": (
        "Seat {seat}: {pips} pips is impossible (0 to {limit})",
        "Место {seat}: {pips} очков невозможно (от 0 до {limit})",
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
        "A redeal needs a hand with {doubles} doubles or {suit} tiles of one suit; none has",
        "Пересдача возможна, только если у кого-то {doubles} дублей или {suit} костей одной "
        "масти; таких рук нет",
    ),
    "declared_mismatch": (
        "Declared {declared}, but the rules record {expected}",
        "Объявлено {declared}, а по правилам записывается {expected}",
    ),
    "too_many_deals": (
        "A match holds at most {limit} deals under these rules",
        "По этим правилам в партии не больше {limit} раздач",
    ),
    "deal_after_end": (
        "The match is already over ({end}); no more deals can be recorded",
        "Партия уже окончена ({end}); новые раздачи не записываются",
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
        try:
            return template.format(**params)
        except (KeyError, IndexError):  # a message must never hide the code behind a crash
            return f"{self.code}: {params}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message("en")}
        out["message_ru"] = self.message("ru")
        out.update(self.extra)
        return out


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
