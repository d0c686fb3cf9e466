"""The rules of a tournament as typed fields of the setup form: a preset by its name, and
every knob of that preset with its label, allowed range and choices in words.

The knob table is the engine's (``rules.catalogue()`` and ``rules.fives.fives_catalogue()``:
type, bounds, choices, a Russian and an English label); the words for each game, knob and
choice are ``scoring.rules_words`` (every page that shows rules shows the same words), those for
each tie-break are kept here, translated by Django, because the engine names choices by
identifiers (``winner_takes_losers``). The form stores what the setup always stored: the preset
and the knobs whose value differs from the preset's (``rules_options``).

A knob field is named ``<engine>_<knob>`` (``classic_target``, ``fives_target``,
``clubgame_target`` for the club games of seed 003 — not ``club_``, the prefix of the setup's
club-avoidance fields): the engines share knob names with different choices and bounds, and a
page shows the fields of the chosen preset's engine only (of a club game, its own few). The
knobs the format decides (players at a table, partners) are not fields.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import catalogue
from rules.club import CLUB_KNOBS, CLUB_PRESETS
from rules.fives import fives_catalogue
from rules.games import CLUB, FIVES, at_table, judge_of
from scoring.rules_words import CHOICES, GAME_NAMES, knob_label
from tournaments.formats import FORMAT_KNOBS

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

ENGINES = ("classic", "fives", "clubgame")


def engine_of(preset: str) -> str:
    judge = judge_of(preset)
    return "fives" if judge == FIVES else "clubgame" if judge == CLUB else "classic"


def _club_catalogue() -> dict[str, Any]:
    """The club games of seed 003 (``rules.club``) in the shape of the other catalogues: each
    preset with the knobs it takes only (section 25)."""
    presets_ = {}
    for name, (rules, takes, _players) in CLUB_PRESETS.items():
        presets_[name] = {k: getattr(rules, k) for k in takes}
    return {"default": "dvorovoe", "presets": presets_,
            "knobs": {name: knob.describe() for name, knob in CLUB_KNOBS.items()}}


def takes(preset: str) -> frozenset[str]:
    """The knobs ``preset`` takes (the club games each take their own few)."""
    return frozenset(presets().get(preset, {}))


def table_presets() -> list[str]:
    """The presets a tournament may pick: the registry's games the score sheet records
    (``rules.games.at_table``), in the order of ``scoring.rules_words.GAME_NAMES``."""
    return [name for name in GAME_NAMES if at_table(name)]


@cache
def _catalogues() -> dict[str, dict[str, Any]]:
    return {"classic": catalogue(), "fives": fives_catalogue(), "clubgame": _club_catalogue()}


def knob_table(engine: str) -> dict[str, dict[str, Any]]:
    """The engine's knobs an organiser may set: not those the format decides, nor those only a
    game not yet at the table takes (telefon's ``deal_end``)."""
    knobs = _catalogues()[engine]["knobs"]
    values = presets()
    offered = [p for p in table_presets() if engine_of(p) == engine]
    return {name: k for name, k in knobs.items() if name not in FORMAT_KNOBS
            and any(name in values[p] for p in offered)}


def presets() -> dict[str, dict[str, Any]]:
    """Every preset of both engines with its knobs' values."""
    return {name: values for data in _catalogues().values()
            for name, values in data["presets"].items()}  # fmt: skip


def field_name(engine: str, knob: str) -> str:
    return f"{engine}_{knob}"


def knob_field(knob: dict[str, Any]) -> forms.Field:
    label, empty = knob_label(knob)
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
        if name not in base:  # a knob of the engine this preset does not take (telefon's)
            continue
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
