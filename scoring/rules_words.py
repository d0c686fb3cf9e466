"""The rules of a game in words, in the page's language: what a page shows instead of the
engine's identifiers («Спортивное домино; Раздач в партии: 12», not ``sport {'deals': 12}``).

    GAME_NAMES                      every game of the registry (``rules.games``) by its name
    game_name(preset)               one game's name («Спортивное домино»)
    CHOICES                         each choice of a knob in words
    knob_label(knob)                a knob's label, and what an empty value means
    value_words(knob, value)        one value of a knob in words
    changed_knobs(preset, options)  «label: value» for each knob that differs from the preset's
    rules_words(preset, options)    the name, and the changed knobs after it

The engine (``rules``) names games and choices by identifiers and stays free of Django; it
carries each knob's label in Russian and English. The translated words live here, once: the
tournament setup form (``tournaments.registration.rules_form``), the tournament pages, the score
sheet, its print page and PDF, and the audit log all ask this module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from rules.games import games

#: every game by its registry name; the games the score sheet records first, in the order the
#: setup offers them (``tournaments.registration.rules_form.table_presets``)
GAME_NAMES: dict[str, Any] = {
    "sport": gettext_lazy("Sports domino"), "kozel": gettext_lazy("Kozel"),
    "morskoy": gettext_lazy("Morskoy kozel"), "international": gettext_lazy("International"),
    "muggins": gettext_lazy("Muggins (fives)"), "fives": gettext_lazy("Fives"),
    "telefon": gettext_lazy("Telefon"), "dvorovoe": gettext_lazy("Courtyard domino"),
    "kozel_morskoy": gettext_lazy("Morskoy (the loser records)"),
    "osel": gettext_lazy("Osel (cross)"), "chechevo": gettext_lazy("Chechevo"),
    "semerka": gettext_lazy("Semerka"), "general": gettext_lazy("General (kozel)"),
}  # fmt: skip

#: each choice of a knob in words
CHOICES: dict[str, Any] = {
    "winner_takes_losers": gettext_lazy("the winners write the losers' pips"),
    "winner_takes_all": gettext_lazy("the winners write everyone's pips"),
    "losers_record_own": gettext_lazy("each loser his own («козёл»)"),
    "same": gettext_lazy("in full, as usual"),
    "difference": gettext_lazy("the difference"),
    "eggs": gettext_lazy("carried to the next deal («яйца»)"),
    "void": gettext_lazy("does not count"),
    "opening": gettext_lazy("only to open the record"),
    "always": gettext_lazy("always"),
    "discard": gettext_lazy("is lost"),
    "hang": gettext_lazy("hangs until the next deal"),
    "deals": gettext_lazy("after a fixed number of deals"),
    "target_wins": gettext_lazy("first to the target wins"),
    "target_loses": gettext_lazy("first to the target loses («козёл»)"),
    "draw": gettext_lazy("a draw"),
    "extra_deal": gettext_lazy("play on until it breaks"),
    "seat_N": gettext_lazy("North"), "seat_E": gettext_lazy("East"),
    "seat_S": gettext_lazy("South"), "seat_W": gettext_lazy("West"),
    "ladder": gettext_lazy("by the ladder of doubles"),
    "any": gettext_lazy("anyone"),
    "rotate": gettext_lazy("in turn"),
    "winner": gettext_lazy("the winner"),
    "none": gettext_lazy("none"),
    "first_double": gettext_lazy("the first double («крест»)"),
    "all_arms": gettext_lazy("every arm counts"),
    "played_arms": gettext_lazy("only arms with a tile"),
    "nearest": gettext_lazy("to the nearest"),
    "down": gettext_lazy("down"),
    "up": gettext_lazy("up"),
    "move": gettext_lazy("after every move"),
    "deal": gettext_lazy("once the deal is scored"),
    "write_off": gettext_lazy("the losers write off their hands"),
    "bonus": gettext_lazy("the winner takes the rivals' pips"),
    "weekday": gettext_lazy("by the day of the week"),
    "continue": gettext_lazy("the match goes on"),
    "ends_match": gettext_lazy("the match ends"),
    "any_hand": gettext_lazy("in any hand"),
    "lone": gettext_lazy("only when alone in the hand"),
    "either": gettext_lazy("going out with 0:0 or 6:6"),
    "both": gettext_lazy("going out with 0:0 and 6:6 together"),
    "golyi": gettext_lazy("«голый»: with 0:0; «генерал»: 0:0 and 6:6"),
    "time": gettext_lazy("by time"),
    "generals": gettext_lazy("by the number of generals"),
    "losses": gettext_lazy("by the number of lost deals"),
}  # fmt: skip

#: the knobs a table's size decides: the seats of a sheet show them, a format sets them
TABLE_KNOBS = ("players", "pairs")
NULL_NOTE = re.compile(r"\s*\(null\s*[:—-]\s*([^)]*)\)")
ENGINE_NOTE = re.compile(r"\s*\((?:end|конец): [^)]*\)")


def game_name(preset: Any) -> str:
    """The game's name in the page's language; an unknown name as it is."""
    name = GAME_NAMES.get(preset) if isinstance(preset, str) else None
    return str(name) if name is not None else str(preset)


def knob_label(knob: Mapping[str, Any]) -> tuple[str, str]:
    """The knob's label in the page's language, and what an empty value means (if it may be
    empty), both without the identifiers the engine's labels carry."""
    text = knob["en" if (get_language() or "ru").startswith("en") else "ru"]
    empty = NULL_NOTE.search(text)
    text = ENGINE_NOTE.sub("", NULL_NOTE.sub("", text))
    return text, (empty[1] if empty else "")


def value_words(knob: Mapping[str, Any], value: Any) -> str:
    if value is None:
        return knob_label(knob)[1] or "—"
    if knob["type"] == "bool" or isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(CHOICES.get(value, value)) if isinstance(value, str) else str(value)


def changed_knobs(preset: Any, options: Mapping[str, Any] | None) -> list[str]:
    """«Раздач в партии: 12» for each knob of ``options`` whose value is not the preset's (the
    table's size left out: the format or the seats say it); a knob the game does not have is
    named as it is stored."""
    game = games().get(preset) if isinstance(preset, str) else None
    out = []
    for name, value in (options or {}).items():
        if name in TABLE_KNOBS or (game is not None and game.defaults.get(name, ...) == value):
            continue
        knob = game.knobs.get(name) if game is not None else None
        if knob is None:
            out.append(f"{name}: {value}")
            continue
        described = knob.describe()
        out.append(f"{knob_label(described)[0]}: {value_words(described, value)}")
    return out


def rules_words(preset: Any, options: Mapping[str, Any] | None = None) -> str:
    """«Спортивное домино (Раздач в партии: 12)»: the game, and what differs from its preset."""
    changed = changed_knobs(preset, options)
    name = game_name(preset)
    return f"{name} ({'; '.join(changed)})" if changed else name
