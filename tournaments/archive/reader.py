"""Reading and checking an archive before anything is written.

    load_file(content) -> Any         the JSON of an uploaded file, or a refusal
    read_archive(data) -> plan        every section checked: shape, references, meaning

The import judges every match's deals again with the rules engine (``archive.protocols``): every
deal must be legal and the match's totals, end, winner, unclaimed eggs and next leader must be
the engine's fold of them, else the archive is refused naming the match. A match without deals
has no result: it may only be a draft or in play with an empty score. A finished round must have
every table confirmed or forfeited. The standings section is checked for its shape only: the
importer retakes the snapshots. Usernames are collected (``Plan.usernames``), never resolved.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from rest_framework import serializers

from config.inputs import BadJSON, load_json
from rules import RulesError
from scoring.games import AnyJudge
from tournaments import formats
from tournaments.archive.checks import check_counts, check_rows
from tournaments.archive.format import (
    BOOL,
    CHOICES,
    DATE,
    DATETIME,
    DATETIME_NULL,
    FORMAT,
    INT,
    INT_NULL,
    MAX_ERRORS,
    OPTIONAL,
    OPTIONAL_SECTIONS,
    SECTIONS,
    SPECS,
    STR,
    USER,
    UUID,
    VERSION,
    ref,
    upgrade_settings,
)
from tournaments.archive.protocols import (
    check_finished_rounds,
    check_protocol,
    match_name,
    rules_message,
)
from tournaments.errors import ErrorItem, TournamentError, error
from tournaments.models import (
    Tournament,
)


class _Reader:
    """Checks an archive and turns its values into Python ones; collects every problem."""

    def __init__(self, data: Any) -> None:
        self.errors: list[ErrorItem] = []
        self.ids: dict[str, set[Any]] = {}
        self.usernames: set[str] = set()
        self.data = data

    def problem(self, code: str, message: Any, field: str | None = None) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(error(code, message, field))

    def stop_if_bad(self) -> None:
        if self.errors:
            raise TournamentError(self.errors)

    def header(self) -> None:
        data = self.data
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise TournamentError.one(
                "not_archive", _("This is not a tournament archive."), "format"
            )
        if data.get("version") != VERSION:
            raise TournamentError.one(
                "bad_version",
                _("Unknown archive version %(version)s; this site reads version %(known)s.")
                % {"version": data.get("version"), "known": VERSION},
                "version",
            )
        if not isinstance(data.get("tournament"), Mapping):
            self.problem("missing_key", _("The archive has no tournament settings."),
                         "tournament")  # fmt: skip
        for section in SECTIONS:
            if not isinstance(data.get(section), list):
                self.problem("missing_key", _("The archive has no list “%(name)s”.")
                             % {"name": section}, section)  # fmt: skip
        check_counts(self, data)
        self.stop_if_bad()
        for section in SECTIONS:
            seen: set[Any] = set()
            for i, item in enumerate(data[section]):
                where = f"{section}[{i}]"
                if not isinstance(item, Mapping) or "id" not in item:
                    self.problem("missing_key", _("A row without an id."), f"{where}.id")
                elif not isinstance(item["id"], int | str) or isinstance(item["id"], bool):
                    self.problem("bad_value", _("An id must be a number or a text."),
                                 f"{where}.id")  # fmt: skip
                elif item["id"] in seen:
                    self.problem("duplicate_id", _("The id %(id)s is used twice.")
                                 % {"id": item["id"]}, f"{where}.id")  # fmt: skip
                else:
                    seen.add(item["id"])
            self.ids[section] = seen
        self.stop_if_bad()

    def row(self, item: Mapping[str, Any], spec_name: str, where: str) -> dict[str, Any]:
        """The row's fields, checked and converted (references stay archive ids)."""
        out: dict[str, Any] = {}
        if not isinstance(item, Mapping):
            self.problem("bad_value", _("A row must be an object."), where)
            return out
        for name, kind in SPECS[spec_name].items():
            field = f"{where}.{name}"
            if name not in item and (spec_name, name) in OPTIONAL:
                out[name] = OPTIONAL[(spec_name, name)]
                continue
            if name not in item:
                self.problem("missing_key", _("The key “%(name)s” is missing.") % {"name": name},
                             field)  # fmt: skip
                continue
            value = item[name]
            out[name] = self.value(value, kind, field)
            choices = CHOICES.get((spec_name, name))
            if choices is not None and value not in choices:
                self.problem("bad_value", _("Unknown value “%(value)s”.") % {"value": value},
                             field)  # fmt: skip
        return out

    def value(self, value: Any, kind: str, field: str) -> Any:  # noqa: C901 - one case per kind
        bad = False
        if kind == STR:
            bad = not isinstance(value, str)
        elif kind in (INT, INT_NULL):
            bad = not (isinstance(value, int) and not isinstance(value, bool)) and not (
                value is None and kind == INT_NULL
            )
        elif kind == BOOL:
            bad = not isinstance(value, bool)
        elif kind == DATE and value is not None:
            try:  # a well-formed impossible date (2026-02-30, year 0) raises
                parsed = parse_date(value) if isinstance(value, str) else None
            except ValueError:
                parsed = None
            if isinstance(value, str) and parsed is None:
                # the API's own words for a date it refuses
                self.problem("bad_value", serializers.DateField().error_messages["invalid"]
                             .format(format="YYYY-MM-DD"), field)  # fmt: skip
                return None
            bad, value = parsed is None, parsed
        elif kind in (DATETIME, DATETIME_NULL) and (value is not None or kind == DATETIME):
            try:
                parsed = parse_datetime(value) if isinstance(value, str) else None
            except ValueError:
                parsed = None
            bad, value = parsed is None, parsed
            if parsed is not None and timezone.is_naive(parsed):
                value = timezone.make_aware(parsed, dt.UTC)
        elif kind == USER and value is not None:
            bad = not isinstance(value, str) or not value
            if not bad:
                self.usernames.add(value)
        elif kind == UUID and value is not None:
            try:
                value = uuid.UUID(str(value))
            except ValueError:
                bad = True
        elif kind.startswith("ref:") and (value is not None or kind.endswith("!")):
            section = kind[4:].rstrip("!")
            if isinstance(value, bool) or value not in self.ids[section]:
                self.problem("dangling_reference",
                             _("“%(id)s” is not an id of the list “%(section)s”.")
                             % {"id": value, "section": section}, field)  # fmt: skip
        if bad:
            self.problem("bad_value", _("This value has the wrong type or form."), field)
        return value

    def ref_list(self, value: Any, section: str, field: str) -> list[Any]:
        if not isinstance(value, list):
            self.problem("missing_key", _("A list is expected here."), field)
            return []
        return [self.value(v, ref(section), f"{field}[{i}]") for i, v in enumerate(value)]


class Plan:
    """The checked archive: converted rows per section, ready to write."""

    def __init__(self) -> None:
        self.tournament: dict[str, Any] = {}
        self.organisers: list[str] = []
        self.chief_referees: list[str] = []
        self.rows: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
        self.entry_players: list[tuple[Any, Any]] = []
        #: a stage's seeds (entry archive ids, best first) by the stage's archive id
        self.stage_seeds: dict[Any, list[Any]] = {}
        #: its groups (lists of entry archive ids), by the stage's archive id
        self.stage_members: dict[Any, list[list[Any]]] = {}
        self.category_entries: dict[Any, list[Any]] = {}
        self.places: list[tuple[Any, dict[str, Any]]] = []
        self.deals: list[tuple[Any, dict[str, Any]]] = []
        self.history: list[tuple[Any, dict[str, Any]]] = []
        self.usernames: set[str] = set()
        self.exported_at: dt.datetime | None = None
        #: the exported tournament the archive says it is ("" for none; ``review``)
        self.source = ""
        self.seasons: list[dict[str, Any]] = []


def _seasons(reader: _Reader, value: Any) -> list[dict[str, Any]]:
    """The seasons the tournament counted in: name, scope, scale (points per place), best N."""
    refusal = _("Seasons must be a list of objects with a name, a scope and a scale.")
    if not isinstance(value, list):
        reader.problem("bad_value", refusal, "tournament.seasons")
        return []
    seasons = []
    for i, item in enumerate(value):
        where = f"tournament.seasons[{i}]"
        ok = (isinstance(item, Mapping) and isinstance(item.get("name"), str)
              and 0 < len(item["name"]) <= 200 and item.get("scope") in ("players", "pairs")
              and isinstance(item.get("scale"), list) and 0 < len(item["scale"]) <= 200
              and all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 10_000
                      for p in item["scale"])
              and (item.get("best_of") is None or (isinstance(item["best_of"], int)
                                                    and 1 <= item["best_of"] <= 100)))  # fmt: skip
        if not ok:
            reader.problem("bad_value", refusal, where)
            continue
        seasons.append({k: item.get(k) for k in ("name", "scope", "scale", "best_of")})
    return seasons


def read_archive(data: Any) -> Plan:
    """Check ``data`` completely (nothing is written); raise ``TournamentError`` with every
    problem found (up to ``MAX_ERRORS``)."""
    if isinstance(data, Mapping):
        data = {**{name: [] for name in OPTIONAL_SECTIONS}, **data}
    reader = _Reader(data)
    reader.header()
    plan = Plan()
    if "exported_at" not in data:
        reader.problem("missing_key", _("The key “%(name)s” is missing.") % {"name": "exported_at"},
                       "exported_at")  # fmt: skip
    else:
        plan.exported_at = reader.value(data["exported_at"], DATETIME, "exported_at")
    source = data.get("source", "")  # absent before issue 25
    if not isinstance(source, str) or len(source) > 100:
        reader.problem("bad_value", _("This value has the wrong type or form."), "source")
    else:
        plan.source = source
    settings = data["tournament"]
    if isinstance(settings, Mapping):  # an archive from before the club avoidance modes
        settings = upgrade_settings(dict(settings))
    plan.tournament = reader.row(settings, "tournament", "tournament")
    refusals = {
        "organisers": _("Organisers must be a list of usernames."),
        "chief_referees": _("Chief referees must be a list of usernames."),
    }
    for key, refusal in refusals.items():  # archives before chief referees lack them
        names = settings.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            reader.problem("bad_value", refusal, f"tournament.{key}")
        else:
            setattr(plan, key, names)
            reader.usernames.update(names)
    plan.seasons = _seasons(reader, settings.get("seasons", []))  # absent before issue 16
    for section in SECTIONS:
        rows = plan.rows[section] = []
        for i, item in enumerate(data[section]):
            where = f"{section}[{i}]"
            fields = reader.row(item, section, where)
            rows.append((item["id"], fields))
            if section == "stages":
                plan.stage_seeds[item["id"]] = reader.ref_list(item.get("seeds"), "entries",
                                                               f"{where}.seeds")  # fmt: skip
                members = item.get("members", [])  # absent: no groups
                plan.stage_members[item["id"]] = [
                    reader.ref_list(group, "entries", f"{where}.members[{j}]")
                    for j, group in enumerate(members if isinstance(members, list) else [None])
                ]  # fmt: skip
            elif section == "categories":  # the entries the organiser chose
                plan.category_entries[item["id"]] = reader.ref_list(
                    item.get("entries", []), "entries", f"{where}.entries")  # fmt: skip
            elif section == "entries":
                players = reader.ref_list(item.get("players"), "players", f"{where}.players")
                plan.entry_players += [(item["id"], p) for p in players]
            elif section == "pairings":
                places = item.get("places")
                if not isinstance(places, list):
                    reader.problem("missing_key", _("A list is expected here."), f"{where}.places")
                    places = []
                for j, place in enumerate(places):
                    plan.places.append(
                        (item["id"], reader.row(place, "places", f"{where}.places[{j}]"))
                    )
            elif section == "matches":
                for name in ("deals", "history"):
                    if not isinstance(item.get(name), list):
                        reader.problem("missing_key", _("A list is expected here."),
                                       f"{where}.{name}")  # fmt: skip
                deals = [reader.row(d, "deals", f"{where}.deals[{j}]")
                         for j, d in enumerate(item.get("deals") or [])]  # fmt: skip
                plan.deals += [(item["id"], d) for d in deals]
                plan.history += [
                    (item["id"], reader.row(h, "history", f"{where}.history[{j}]"))
                    for j, h in enumerate(item.get("history") or [])
                ]
    reader.stop_if_bad()
    check_rows(reader, plan)
    reader.stop_if_bad()
    _check_meaning(reader, plan, data)
    reader.stop_if_bad()
    plan.usernames = reader.usernames
    return plan


def _check_meaning(reader: _Reader, plan: Plan, data: Mapping[str, Any]) -> None:
    """Rules, protocols and the links a row's type cannot say."""
    t = plan.tournament
    try:
        formats.table_rules(t["rules_preset"], t["rules_options"], str(t.get("format")))
    except RulesError as err:
        reader.problem("bad_rules", rules_message(err), "tournament.rules_options")
    else:
        try:
            # field bounds too, as the API's serializer and the setup form check them
            Tournament(**t).full_clean(validate_unique=False, validate_constraints=False)
        except ValidationError as err:
            for field, messages in err.message_dict.items():
                for message in messages:
                    reader.problem("bad_value", message, f"tournament.{field}")
    used: dict[Any, int] = {}
    for i, (_pid, fields) in enumerate(plan.rows["pairings"]):
        match = fields.get("match")
        if match is not None:
            if match in used:
                reader.problem("bad_value", _("Two tables share one match."),
                               f"pairings[{i}].match")  # fmt: skip
            used[match] = i
    deals_of: dict[Any, list[dict[str, Any]]] = {}
    for match_id, deal in plan.deals:
        deals_of.setdefault(match_id, []).append(deal)
    judges: dict[str, AnyJudge] = {}
    verdicts: dict[Any, list[dict[str, Any]]] = {}
    for i, (match_id, fields) in enumerate(plan.rows["matches"]):
        where = f"matches[{i}]"
        item = data["matches"][i]
        if match_id not in used:
            reader.problem("dangling_reference", _("Match %(match)s is not played at any table.")
                           % {"match": match_name(item)}, f"{where}.id")  # fmt: skip
        verdicts[match_id] = check_protocol(reader, item, fields, deals_of.get(match_id, []),
                                            where, judges)  # fmt: skip
    check_finished_rounds(reader, plan)
    position: dict[Any, int] = {}
    for match_id, deal in plan.deals:
        n = position[match_id] = position.get(match_id, 0) + 1
        found = verdicts.get(match_id) or []
        if n <= len(found):
            deal["verdict"] = found[n - 1]


def load_file(content: bytes | str) -> Any:
    """Parse uploaded archive text; a file that is not JSON is refused with ``not_archive``."""
    try:
        return load_json(content)
    except BadJSON as err:
        if err.code != "bad_json":  # too deep, or text the database cannot store
            raise TournamentError.one(err.code, err.message, "file") from err
        raise TournamentError.one(
            "not_archive",
            _("The file is not JSON: %(detail)s") % {"detail": err.__cause__},
            "file",
        ) from err
