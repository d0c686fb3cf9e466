"""The rules of a tournament as typed fields of the setup form: a preset by its name, and
every knob of that preset with its label, allowed range and choices in words.

The knob table is the engine's (``rules.catalogue()`` and ``rules.fives.fives_catalogue()``:
type, bounds, choices, a Russian and an English label); the words for each choice and for each
tie-break are kept here, translated by Django, because the engine names choices by identifiers
(``winner_takes_losers``). The form stores what the setup always stored: the preset and the
knobs whose value differs from the preset's (``rules_options``).

A knob field is named ``<engine>_<knob>`` (``classic_target``, ``fives_target``): the two
engines share knob names with different choices and bounds, and a page shows the fields of the
chosen preset's engine only. The knobs the format decides (players at a table, partners) are
not fields.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules import catalogue
from rules.fives import fives_catalogue
from rules.games import FIVES, at_table, judge_of
from tournaments.formats import FORMAT_KNOBS

#: the presets in words, in the order of the choice
PRESET_NAMES = {
    "sport": _("Sports domino"), "kozel": _("Kozel"), "morskoy": _("Morskoy kozel"),
    "international": _("International"), "muggins": _("Muggins (fives)"), "fives": _("Fives"),
}  # fmt: skip

#: each choice of a knob in words
CHOICES: dict[str, Any] = {
    "winner_takes_losers": _("the winners write the losers' pips"),
    "winner_takes_all": _("the winners write everyone's pips"),
    "losers_record_own": _("each loser writes his own pips («козёл»)"),
    "same": _("in full, as usual"),
    "difference": _("the difference"),
    "eggs": _("carried to the next deal («яйца»)"),
    "void": _("does not count"),
    "opening": _("only to open the record"),
    "always": _("always"),
    "discard": _("is lost"),
    "hang": _("hangs until the next deal"),
    "deals": _("after a fixed number of deals"),
    "target_wins": _("first to the target wins"),
    "target_loses": _("first to the target loses («козёл»)"),
    "draw": _("a draw"),
    "extra_deal": _("play on until it breaks"),
    "seat_N": _("North"), "seat_E": _("East"), "seat_S": _("South"), "seat_W": _("West"),
    "ladder": _("by the ladder of doubles"),
    "any": _("anyone"),
    "rotate": _("in turn"),
    "winner": _("the winner"),
    "none": _("none"),
    "first_double": _("the first double («крест»)"),
    "all_arms": _("every arm counts"),
    "played_arms": _("only arms with a tile"),
    "nearest": _("to the nearest"),
    "down": _("down"),
    "up": _("up"),
    "move": _("after every move"),
    "deal": _("once the deal is scored"),
    "write_off": _("the losers write their hands off («Телефон»)"),
    "bonus": _("the winner takes the opponents' hands"),
}

#: each tie-break's one-line explanation (its name is ``TIE_BREAKS``)
TIE_BREAK_HELP: dict[str, Any] = {
    "match_points": _("Points for wins, draws and losses of the match."),
    "wins": _("Matches won."),
    "difference": _("Points written for, less points written against."),
    "points": _("Points written in every match."),
    "efectividad": _("The share of the target reached in each match, added up."),
    "buchholz": _("The opponents' match points added up: who met the stronger field."),
    "buchholz_cut1": _("Buchholz without the weakest opponent."),
    "median_buchholz": _("Buchholz without the strongest and the weakest opponent."),
    "sonneborn_berger": _("The match points of the opponents beaten, and half of those drawn."),
    "progressive": _("The match points after each round added up: who led earlier."),
    "head_to_head": _("The matches between the tied entries only."),
    "lot": _("Drawn by lot: the last resort."),
}

ENGINES = ("classic", "fives")
NULL_NOTE = re.compile(r"\s*\(null\s*[:—-]\s*([^)]*)\)")
ENGINE_NOTE = re.compile(r"\s*\((?:end|конец): [^)]*\)")


def engine_of(preset: str) -> str:
    return "fives" if judge_of(preset) == FIVES else "classic"


def table_presets() -> list[str]:
    """The presets a tournament may pick: the registry's games the score sheet records
    (``rules.games.at_table``), in the order of ``PRESET_NAMES``."""
    return [name for name in PRESET_NAMES if at_table(name)]


@cache
def _catalogues() -> dict[str, dict[str, Any]]:
    return {"classic": catalogue(), "fives": fives_catalogue()}


def knob_table(engine: str) -> dict[str, dict[str, Any]]:
    """The engine's knobs an organiser may set (not those the format decides)."""
    knobs = _catalogues()[engine]["knobs"]
    return {name: k for name, k in knobs.items() if name not in FORMAT_KNOBS}


def presets() -> dict[str, dict[str, Any]]:
    """Every preset of both engines with its knobs' values."""
    return {name: values for data in _catalogues().values()
            for name, values in data["presets"].items()}  # fmt: skip


def field_name(engine: str, knob: str) -> str:
    return f"{engine}_{knob}"


def _label(knob: dict[str, Any]) -> tuple[str, str]:
    """The knob's label in the page's language, and what an empty field means (if it may be
    empty), both without the identifiers the engine's labels carry."""
    text = knob["en" if (get_language() or "ru").startswith("en") else "ru"]
    empty = NULL_NOTE.search(text)
    text = ENGINE_NOTE.sub("", NULL_NOTE.sub("", text))
    return text, (empty[1] if empty else "")


def knob_field(knob: dict[str, Any]) -> forms.Field:
    label, empty = _label(knob)
    if knob["type"] == "bool":
        return forms.BooleanField(label=label, required=False)
    if knob["type"] == "int":
        note = _("From %(min)s to %(max)s.") % {"min": knob["min"], "max": knob["max"]}
        if knob.get("nullable"):
            note = f"{note} " + (_("Empty: %(meaning)s.") % {"meaning": empty})
        return forms.IntegerField(label=label, required=False, min_value=knob["min"],
                                  max_value=knob["max"], help_text=note)  # fmt: skip
    return forms.ChoiceField(label=label, required=False,
                             choices=[(c, CHOICES.get(c, c)) for c in knob["choices"]])


def add_knob_fields(form: forms.Form) -> None:
    for engine in ENGINES:
        for name, knob in knob_table(engine).items():
            field = knob_field(knob)
            field.widget.attrs.update({"data-knob": name, "data-engine": engine})
            form.fields[field_name(engine, name)] = field


def initial_values(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The knob fields as the preset with the overrides sets them (both engines: the other
    engine's fields keep their own default preset, for a switch of preset in the page)."""
    values = presets()
    initial: dict[str, Any] = {}
    for engine in ENGINES:
        base = preset if engine_of(preset) == engine else _catalogues()[engine].get(
            "default", next(iter(_catalogues()[engine]["presets"])))
        chosen = {**values[base], **(options if base == preset else {})}
        for name in knob_table(engine):
            initial[field_name(engine, name)] = chosen.get(name)
    return initial


def overrides(preset: str, data: dict[str, Any]) -> dict[str, Any]:
    """The knobs of ``preset``'s engine whose typed value differs from the preset's: the
    ``rules_options`` the setup stores. An empty number keeps the preset's value, unless the
    knob may be empty (then empty is its meaning, «по очкам»)."""
    engine = engine_of(preset)
    base = presets()[preset]
    changed: dict[str, Any] = {}
    for name, knob in knob_table(engine).items():
        value = data.get(field_name(engine, name))
        if knob["type"] == "int" and value is None and not knob.get("nullable"):
            continue
        if knob["type"] == "str" and value in (None, ""):
            continue
        if value != base.get(name):
            changed[name] = value
    return changed


def posted(preset: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The knob fields of ``preset``'s engine as the page sends them (a ticked box "on", an
    unticked one left out, an empty number ""): what a browser posts, for tests and scripts."""
    engine = engine_of(preset)
    values = {**presets()[preset], **(options or {})}
    data: dict[str, Any] = {}
    for name, knob in knob_table(engine).items():
        value = values.get(name)
        if knob["type"] == "bool":
            if value:
                data[field_name(engine, name)] = "on"
        else:
            data[field_name(engine, name)] = "" if value is None else str(value)
    return data
