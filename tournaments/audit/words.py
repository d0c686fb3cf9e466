"""The audit log in words: each logged change as lines «what: before → after», with players,
entries, clubs, users and tables by their names, choices by their labels, dates in the page's
format and the rules in words (``scoring.rules_words``).

    describe(entries) -> list[list[Change]]   the changes of each entry, names read once a page

The log keeps plain JSON (``accounts.audit``): ids, identifiers and ISO dates, so that it
outlives what it names. Its page reads the names here, one query per kind of row named, for
the whole page; a row deleted since is named by its number («№ 12»).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import AuditEntry
from accounts.people import person
from scoring.rules_words import changed_knobs, game_name
from tournaments.models import (
    TIE_BREAKS,
    Club,
    Entry,
    Pairing,
    Player,
    Round,
    Sanction,
    Substitute,
    Tournament,
)

#: the model whose fields an action's before and after hold, by the action's longest prefix
MODELS: dict[str, type[models.Model]] = {
    "tournament": Tournament, "entry": Entry, "entry.substitute": Substitute, "round": Round,
    "pairing": Pairing, "sanction": Sanction, "player": Player, "club": Club,
}  # fmt: skip

#: keys that are not a field of the action's model: (label, kind of value)
EXTRA: dict[str, tuple[Any, str]] = {
    "round": (gettext_lazy("Round"), "plain"),
    "absent": (gettext_lazy("Absent"), "bool"),
    "reason": (gettext_lazy("Reason"), "plain"),
    "active": (gettext_lazy("In force"), "bool"),
    "override_reason": (gettext_lazy("Why out of order"), "plain"),
    "previous_round": (gettext_lazy("Previous round"), "plain"),
    "previous_status": (gettext_lazy("Status of the previous round"), "round_status"),
    "locked_tables": (gettext_lazy("Locked tables"), "plain"),
    "ends_at": (gettext_lazy("The clock ends at"), "datetime"),
}  # fmt: skip

#: keys logged on both sides to say which row changed (the table locked, the round of an
#: absence): shown even when unchanged, unlike the rest of a snapshot
WHICH = frozenset({"table", "round"})

#: the keys of the imports' entries, whose numbers count rows (not a field of any model)
IMPORTS: dict[str, dict[str, tuple[Any, str]]] = {
    "entry.import": {
        "lines": (gettext_lazy("Lines read"), "plain"),
        "entries": (gettext_lazy("Entries added"), "plain"),
        "players": (gettext_lazy("New players"), "plain"),
        "clubs": (gettext_lazy("New clubs"), "plain"),
        "teams": (gettext_lazy("New teams"), "plain"),
        "linked": (gettext_lazy("Players already on the site, linked"), "players"),
        "differences": (gettext_lazy("Lines that differ from the site"), "plain"),
    },
    "tournament.import": {
        "name": (gettext_lazy("Name"), "plain"),
        "notes": (gettext_lazy("Notes"), "plain"),
        "sha256": ("SHA-256", "plain"),
        "exported_at": (gettext_lazy("Exported"), "datetime"),
        "organisers_in_archive": (gettext_lazy("Organisers in the archive"), "plain"),
        "usernames_in_archive": (gettext_lazy("Names in the archive"), "plain"),
    },
}  # fmt: skip


@dataclass(frozen=True)
class Change:
    """One field of a change: its label, and its value before and after in words ("" when the
    entry has no such side: a creation has no before, a deletion no after; nor a field that
    did not change, logged to say which row changed)."""

    label: str
    before: str
    after: str


class _Names:
    """The names of the rows a page of the log refers to: asked for first, read once."""

    def __init__(self) -> None:
        self.wanted: dict[type[models.Model], set[int]] = defaultdict(set)
        self.found: dict[type[models.Model], dict[int, str]] = {}

    def want(self, model: type[models.Model], value: Any) -> None:
        for pk in value if isinstance(value, list) else [value]:
            if isinstance(pk, int) and not isinstance(pk, bool):
                self.wanted[model].add(pk)

    def read(self) -> None:
        readers: dict[type[models.Model], Callable[[Any], str]] = {
            Player: lambda p: p.full_name, Club: lambda c: c.name, Entry: lambda e: e.name,
            Pairing: _table, Tournament: lambda t: t.name, Round: _round,
            get_user_model(): person,
        }  # fmt: skip
        for model, ids in self.wanted.items():
            name: Callable[[Any], str] = readers.get(model, str)
            self.found[model] = {row.pk: name(row)
                                 for row in model._default_manager.filter(pk__in=ids)}  # fmt: skip

    def of(self, model: type[models.Model], pk: Any) -> str:
        return self.found.get(model, {}).get(pk) or _("№ %(id)s") % {"id": pk}


def _table(pairing: Pairing) -> str:
    if pairing.table is None:
        return _("bye")
    return _("table %(number)s") % {"number": pairing.table}


def _round(round_: Round) -> str:
    return _("round %(number)s") % {"number": round_.number}


def _model_of(action: str) -> type[models.Model] | None:
    best = max((p for p in MODELS if action == p or action.startswith(p + ".")), key=len,
               default=None)  # fmt: skip
    return MODELS[best] if best else None


def _kind(model: type[models.Model] | None, action: str, key: str) -> tuple[str, Any]:
    """(label, kind) of one key of an entry of ``action``; a kind is a word, or a related
    model whose rows the values name, or a field with choices."""
    if key in IMPORTS.get(action, {}):
        label, kind = IMPORTS[action][key]
        return str(label), Player if kind == "players" else kind
    field = None
    if model is not None:
        try:
            field = model._meta.get_field(key)
        except FieldDoesNotExist:
            field = None
    if field is None or not hasattr(field, "verbose_name"):
        label, kind = EXTRA.get(key, (key, "plain"))
        return str(label), kind
    label = capfirst(str(field.verbose_name))
    if field.is_relation and field.related_model is not None:
        return label, field.related_model
    if key in ("rules_preset", "rules_options", "tie_breaks"):
        return label, key
    if getattr(field, "choices", None):
        return label, field
    if isinstance(field, models.BooleanField):
        return label, "bool"
    if isinstance(field, models.DateTimeField):
        return label, "datetime"
    if isinstance(field, models.DateField):
        return label, "date"
    return label, "plain"


def _when(value: Any, kind: str) -> str:
    if kind == "date":
        day = parse_date(str(value))
        return date_format(day, "SHORT_DATE_FORMAT") if day else str(value)
    moment = parse_datetime(str(value))
    if moment is None:
        return str(value)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return date_format(moment, "SHORT_DATETIME_FORMAT")


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items()) or "—"
    return str(value)


def _words(kind: Any, value: Any, names: _Names, preset: str) -> str:
    if value is None or value == "" or (value == [] and kind != "tie_breaks"):
        return "—"
    if isinstance(kind, type):
        if isinstance(value, list):
            return ", ".join(names.of(kind, pk) for pk in value)
        return names.of(kind, value)
    if isinstance(kind, models.Field):
        return str(dict(kind.flatchoices).get(value, value))
    if kind == "round_status":
        return str(dict(Round.Status.choices).get(value, value))
    if kind == "bool":
        return _("yes") if value else _("no")
    if kind in ("date", "datetime"):
        return _when(value, kind)
    if kind == "rules_preset":
        return game_name(value)
    if kind == "rules_options":
        return "; ".join(changed_knobs(preset, value)) or _("as the rules preset has them")
    if kind == "tie_breaks":
        shown = [str(TIE_BREAKS.get(name, name)) for name in value]
        return ", ".join(shown) or _("the rules preset's order")
    return _plain(value)


def _swap(value: Any) -> str:
    """A place of a swap: «table 2, NS»."""
    if not isinstance(value, Mapping):
        return _plain(value)
    table = value.get("table")
    where = _("bye") if table is None else _("table %(number)s") % {"number": table}
    return f"{where}, {value.get('side')}" if value.get("side") else where


def _changes(entry: AuditEntry, names: _Names, presets: Mapping[int, str]) -> list[Change]:
    before, after = entry.before or {}, entry.after or {}
    keys = list(dict.fromkeys([*before, *after]))
    if entry.action == "round.swap":  # {entry id: {table, side}}
        return [Change(names.of(Entry, int(k)) if k.isdigit() else k,
                       _swap(before[k]) if k in before else "",
                       _swap(after[k]) if k in after else "")
                for k in keys]  # fmt: skip
    if entry.action == "player.merge":
        return _merge_words(before, after)
    if entry.action == "player.unmerge":
        number = _("no. %(kept)s") % {"kept": entry.object_id}
        return [Change(_("restored record"), "", f"{entry.object_repr} ({number})")]
    model = _model_of(entry.action)
    preset = after.get("rules_preset") or before.get("rules_preset") or presets.get(
        entry.tournament_id or 0, "sport")
    out = []
    for key in sorted(keys, key=lambda k: _position(model, entry.action, k)):
        label, kind = _kind(model, entry.action, key)
        # a side without the key says nothing of it (a round's number is logged once paired)
        was = _words(kind, before[key], names, preset) if key in before else ""
        now = _words(kind, after[key], names, preset) if key in after else ""
        if was == now and key not in WHICH:  # a snapshot's field that did not change
            continue
        out.append(Change(label, "" if was == now else was, now))
    return out


def _merge_words(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    """A merge: which record went into which, and how many rows moved with it."""
    dropped = before.get("dropped") or {}
    name = f"{dropped.get('last_name', '')} {dropped.get('first_name', '')}".strip()
    moved = sum(len(ids) for ids in (after.get("moved") or {}).values())
    number = _("no. %(kept)s") % {"kept": dropped.get("id")}
    return [Change(_("merged record"), f"{name} ({number})",
                   _("no. %(kept)s") % {"kept": after.get("kept")}),
            Change(_("rows moved"), "", str(moved))]  # fmt: skip


def _position(model: type[models.Model] | None, action: str, key: str) -> tuple[int, str]:
    """The order a change lists its keys in: the model's fields', then the tables' above (the
    database keeps a JSON object's keys in an order of its own)."""
    imports = list(IMPORTS.get(action, {}))
    if key in imports:
        return imports.index(key), key
    fields = [f.name for f in model._meta.get_fields()] if model is not None else []
    if key in fields:
        return len(imports) + fields.index(key), key
    extra = list(EXTRA)
    return len(imports) + len(fields) + (extra.index(key) if key in extra else len(extra)), key


def _want(entries: Iterable[AuditEntry], names: _Names) -> None:
    for entry in entries:
        if entry.action == "round.swap":
            for key in {**(entry.before or {}), **(entry.after or {})}:
                if key.isdigit():
                    names.want(Entry, int(key))
            continue
        model = _model_of(entry.action)
        for side in (entry.before or {}, entry.after or {}):
            for key, value in side.items():
                kind = _kind(model, entry.action, key)[1]
                if isinstance(kind, type):
                    names.want(kind, value)


def describe(entries: Iterable[AuditEntry]) -> list[list[Change]]:
    """The changes of each of ``entries`` in words, in their order."""
    rows = list(entries)
    names = _Names()
    _want(rows, names)
    names.read()
    ids = {e.tournament_id for e in rows if e.tournament_id}
    presets = dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "rules_preset"))
    return [_changes(entry, names, presets) for entry in rows]
