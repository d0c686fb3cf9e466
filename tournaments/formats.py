"""What a tournament's format seats at a table, and the rules a table's match is played under.

    FORMATS                                  every format: its players at a table and sides
    table_shape(format) -> Shape             the players at a table, partners or not
    table_rules(preset, options, format, players=None) -> Rules | FivesRules | ClubRules
                                             the rules of one table (``rules.RulesError``)
    match_settings(preset, options, format, players) -> (options, players)
                                             what a table's scoring match is created with
    check(preset, options, format, system)   ``SetupProblem`` when they do not go together
    players_per_entry(format) -> int         players registered in one entry

The formats and their tables:

| format           | entry          | at a table                      | sides of the match      |
|------------------|----------------|---------------------------------|-------------------------|
| ``pairs``        | a fixed pair   | two pairs, partners N–S/E–W     | ``NS``, ``EW``          |
| ``individual``   | one player     | four, partners drawn            | ``NS``, ``EW``          |
| ``teams``        | a club's pairs | a pair of each team             | ``NS``, ``EW``          |
| ``singles``      | one player     | two, head to head               | ``N``, ``E``            |
| ``free_for_all`` | one player     | three or four, each for himself | ``N``, ``E``, ``S``, ``W`` |

A table's places (``PairingEntry.side``) are named as the sides of its match, so a match's
``winner`` and ``totals`` name the places directly. The fives games (RULES.md sections 15–23)
play pairs with their knob ``pairs: true``, which the pair formats set themselves; the number of
players and the partnership come from the format, never from the overrides. Every other preset
is built with the number of players its format seats (sports domino and the international
rules only by two pairs; «Козёл» and «Морской козёл» also head to head).

Imports only ``rules``: the models' validation and every concern may use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import Rules, RulesError, make_rules
from rules.club import ClubRules, make_club_rules
from rules.fives import FIVES_PRESETS, FivesRules, make_fives_rules
from rules.games import CLUB, FIVES, at_table, judge_of

PAIR_FORMATS = ("pairs", "individual", "teams")
#: club games whose partnership is the knob ``pairs`` (``general`` is always in pairs)
_CLUB_PAIRS_KNOB = ("dvorovoe", "kozel_morskoy", "osel")


@dataclass(frozen=True)
class Shape:
    """The players at one table of a format (``sizes``: the table sizes it may use, the
    first the usual one) and whether partners share a side."""

    sizes: tuple[int, ...]
    partners: bool

    @property
    def players(self) -> int:
        return self.sizes[0]


FORMATS: dict[str, Shape] = {
    "pairs": Shape((4,), True),
    "individual": Shape((4,), True),
    "teams": Shape((4,), True),
    "singles": Shape((2,), False),
    "free_for_all": Shape((4, 3), False),
}

#: the presets each format may be played with (``check`` says why another one is refused)
#: the club games of seed 003 (RULES.md sections 24–31) go where their texts seat them: Осёл,
#: Морской (003) and Генерал pair against pair (Генерал only so), дворовое either way, Чечевэ and
#: Семёрка each for himself (never in pairs)
_PAIR_GAMES = ("sport", "kozel", "morskoy", "international", "fives", "muggins", "dvorovoe",
               "kozel_morskoy", "osel", "general")
ALLOWED: dict[str, tuple[str, ...]] = {
    "pairs": _PAIR_GAMES,
    "individual": _PAIR_GAMES,
    "teams": _PAIR_GAMES,
    "singles": ("kozel", "morskoy", "fives", "muggins", "dvorovoe", "kozel_morskoy", "osel",
                "chechevo", "semerka"),
    "free_for_all": ("fives", "muggins", "dvorovoe", "chechevo", "semerka"),
}

# «Телефон» (issue 27) is played in pairs as Козёл, head to head, and each for himself at 3–4
for _format in ALLOWED:
    ALLOWED[_format] += ("telefon",)

#: the formats in words, for the refusals below (the model's choices carry the page's labels)
NAMES: dict[str, tuple[str, str]] = {
    "pairs": ("fixed pairs", "постоянные пары"),
    "individual": ("individual (partners drawn each round)", "личный (партнёры по жребию)"),
    "teams": ("club teams", "команды клубов"),
    "singles": ("head to head", "один на один"),
    "free_for_all": ("each for himself", "каждый сам за себя"),
}

#: knobs the format decides: an override of them is refused, not silently replaced
FORMAT_KNOBS = ("players", "pairs")


class SetupProblem(ValueError):
    """A preset, overrides, format and system that do not go together: ``field`` is the setup
    field to show it at, ``code`` stable, the messages in Russian and English."""

    def __init__(self, field: str, code: str, en: str, ru: str) -> None:
        super().__init__(en)
        self.field, self.code, self.en, self.ru = field, code, en, ru

    def message(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


def table_shape(format_: str) -> Shape:
    return FORMATS.get(format_, FORMATS["pairs"])


def players_per_entry(format_: str) -> int:
    """Players registered in one entry: two for a pair (a team's pairs too), else one."""
    return 2 if format_ in ("pairs", "teams") else 1


def match_settings(preset: str, options: Mapping[str, Any] | None, format_: str,
                   seated: int | None = None) -> tuple[dict[str, Any], int | None]:
    """The overrides and number of players a table's match is created with; ``seated`` is the
    number of players at the table where each is his own side (a table of three).

    The pair formats of the older games keep the preset's own number of players (``None``,
    as their matches were always created), so their stored rules do not change."""
    shape = table_shape(format_)
    merged = dict(options or {})
    if shape.partners:
        if judge_of(preset) == FIVES or preset in _CLUB_PAIRS_KNOB:
            merged["pairs"] = True
            return merged, shape.players
        return merged, None
    if judge_of(preset) == FIVES and FIVES_PRESETS[preset].pairs:
        merged["pairs"] = False  # «Телефон» pairs four players by default; here each plays alone
    return merged, seated or shape.players


def table_rules(preset: str, options: Mapping[str, Any] | None, format_: str,
                players: int | None = None) -> Rules | FivesRules | ClubRules:
    """The rules one table of the format plays under (raises ``rules.RulesError``)."""
    merged, count = match_settings(preset, options, format_, players)
    judge = judge_of(preset)
    if judge == FIVES:
        return make_fives_rules(preset, merged, count)
    if judge == CLUB:
        return make_club_rules(preset, merged, count)
    return make_rules(preset, merged, count)


def check(preset: str, options: Mapping[str, Any] | None, format_: str, system: str) -> None:
    """Raise ``SetupProblem`` when the format cannot be played with the preset or system, or
    the overrides name a knob the format decides. The rules themselves are checked by
    ``table_rules`` (``rules.RulesError``) for every table size of the format."""
    if format_ not in FORMATS:
        return  # the model's choices refuse it
    if not at_table(preset):  # the registry (rules.games): unknown, or not at the table yet
        table_rules(preset, options, format_)  # the engine's own refusal of an unknown preset
        raise SetupProblem(
            "rules_preset", "not_at_table",
            f"«{preset}» cannot be recorded on the score sheet yet.",
            f"«{preset}» пока нельзя вести в протоколе.",
        )
    fixed = [name for name in FORMAT_KNOBS if name in (options or {})]
    if fixed:
        raise SetupProblem(
            "rules_options", "format_decides",
            f"The format decides the players at a table: remove «{fixed[0]}» from the "
            "rule overrides.",
            f"Число игроков за столом задаёт формат турнира: уберите «{fixed[0]}» из "
            "изменений правил.",
        )
    if preset not in ALLOWED[format_]:
        allowed = ", ".join(ALLOWED[format_])
        en, ru = NAMES[format_]
        raise SetupProblem(
            "format", "format_preset",
            f"The format «{en}» cannot be played with the rules «{preset}»; it can with: "
            f"{allowed}.",
            f"Формат «{ru}» нельзя играть по правилам «{preset}»; можно по: {allowed}.",
        )
    if system == "rotation":
        _check_rotation(preset, options, format_)
    if format_ == "free_for_all" and system != "swiss":
        raise SetupProblem(
            "system", "format_system",
            "Each for himself is paired by the Swiss system only (a round robin is for two "
            "sides at a table).",
            "«Каждый сам за себя» проводится только по швейцарской системе (круговая — для "
            "двух сторон за столом).",
        )
    for size in table_shape(format_).sizes:
        table_rules(preset, options, format_, size)


def _check_rotation(preset: str, options: Mapping[str, Any] | None, format_: str) -> None:
    """«На вылет» (``tournaments.rotation``) is «Генерал»'s, pair against pair, and a stint must
    end by lost deals or generals (the match's ``end``), not by time."""
    if preset != "general" or format_ != "pairs":
        raise SetupProblem(
            "system", "rotation_game",
            "The rotation «на вылет» is for «Генерал» played by fixed pairs.",
            "Игра «на вылет» — для «Генерала» постоянными парами.",
        )
    if (options or {}).get("end") not in ("losses", "generals"):
        raise SetupProblem(
            "system", "rotation_end",
            "In the rotation a team leaves the table when it loses: set «End of the match» to "
            "«by the number of lost deals» or «by the number of generals».",
            "На вылет команда уходит из-за стола, проиграв: задайте «Конец партии» — «по числу "
            "проигрышей» или «по числу генералов».",
        )


__all__ = ["ALLOWED", "FORMATS", "PAIR_FORMATS", "RulesError", "SetupProblem", "Shape",
           "check", "match_settings", "players_per_entry", "table_rules", "table_shape"]
