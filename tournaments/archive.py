"""A whole tournament as one JSON document, and its import: all of it, or nothing.

    export_tournament(tournament) -> dict          the archive (``json.dumps``-able)
    import_tournament(data, user) -> Tournament    a new tournament, exactly as archived

The document (``docs/archive.md`` describes every key)::

    {"format": "domino-tournament-archive", "version": 1, "exported_at": "…",
     "tournament": {every setting, "status", "created_at", "organisers": [usernames]},
     "clubs": […], "players": […], "entries": [… "players": [ids]], "absences": […],
     "rounds": […], "pairings": [… "places": [{"entry", "side", "position"}]],
     "matches": [… "deals": […], "history": […]], "sanctions": […], "standings": […]}

Rows carry archive-local ids (the source installation's primary keys) and refer to each other by
them; users are named by username. Decisions:

- The import judges every match's deals again with the rules engine: every deal must be legal
  and the match's totals, end, winner, unclaimed eggs and next leader must be the engine's fold
  of them, else the archive is refused naming the match. Deal verdicts are the engine's. A match
  without deals (a result entered without a protocol) has nothing to fold: only its shape is
  checked.
- ``Match.confirm_pin`` (a password hash) is never exported; imported matches have no PIN.
- Users are never created: a username is linked to the existing user of that name, else the
  field is left empty and the import reports it (``Tournament.archive_notes``). The importing
  user becomes an organiser of the new tournament.
- Players with a federation ID reuse the existing player with that ID (unchanged), others are
  created; clubs are matched by name (created when unknown).
- The name is kept even when another tournament has it (names are not unique).
- A round caught in ``pairing`` (a job of the source installation) is imported as ``new``.
- Text and JSON kept verbatim (round notes, pairing flags, history snapshots) may name ids of the
  source installation.

Refusals raise ``TournamentError`` (400) with codes: ``not_archive``, ``bad_version``,
``missing_key``, ``bad_value``, ``duplicate_id``, ``dangling_reference``, ``bad_rules``,
``illegal_deal``, ``totals_mismatch``, ``invalid_archive``; ``NotAllowed`` (403) when the user may
not create tournaments. Nothing is written unless everything is accepted.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts import audit
from rules import Judge, RulesError, make_rules
from scoring.models import Deal, Match, MatchVersion
from tournaments.errors import ErrorItem, NotAllowed, TournamentError, error
from tournaments.models import (
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    Round,
    Sanction,
    Standing,
    Tournament,
)
from tournaments.services import User, can_create_tournament

FORMAT = "domino-tournament-archive"
VERSION = 1
MAX_ERRORS = 20

# Kinds of field: how a value is written to the archive and checked when read back.
STR, INT, INT_NULL, BOOL, JSON = "str", "int", "int?", "bool", "json"
DATE, DATETIME, DATETIME_NULL, USER, UUID = "date", "datetime", "datetime?", "user", "uuid"


def ref(section: str, required: bool = False) -> str:
    """A reference to a row of ``section`` by its archive id (or null unless ``required``)."""
    return f"ref:{section}" + ("!" if required else "")


SEATS = ("seat_n", "seat_e", "seat_s", "seat_w")
#: the deals-won cache of a match (newer installations): derived from the deals like the totals
HAS_DEALS_WON = any(f.name == "deals_won" for f in Match._meta.concrete_fields)

SPECS: dict[str, dict[str, str]] = {
    "tournament": {
        "name": STR, "start_date": DATE, "end_date": DATE, "venue": STR, "rules_preset": STR,
        "rules_options": JSON, "format": STR, "system": STR, "rounds": INT, "status": STR,
        "public": BOOL, "points_win": INT, "points_draw": INT, "points_loss": INT,
        "tie_breaks": JSON, "bye_result": STR, "avoid_same_club_until": INT,
        "first_round": STR, "yellow_card_points": INT, "red_card_points": INT,
        "created_at": DATETIME,
    },
    "clubs": {"name": STR, "city": STR},
    "players": {
        "last_name": STR, "first_name": STR, "club": ref("clubs"), "rating": INT_NULL,
        "federation_id": STR,
    },
    "entries": {
        "name": STR, "club": ref("clubs"), "seed": INT_NULL, "status": STR, "joins_round": INT,
        "team": ref("entries"),
    },
    "absences": {"entry": ref("entries", True), "round_number": INT, "reason": STR},
    "rounds": {
        "number": INT, "status": STR, "task_id": STR, "error": STR, "progress": INT,
        "step": STR, "notes": JSON, "requested_by": USER, "created_at": DATETIME,
        "pairing_started_at": DATETIME_NULL, "paired_at": DATETIME_NULL,
        "published_at": DATETIME_NULL, "finished_at": DATETIME_NULL,
    },
    "pairings": {
        "round": ref("rounds", True), "table": INT_NULL, **dict.fromkeys(SEATS, ref("players")),
        "referee": USER, "flags": JSON, "locked": BOOL, "match": ref("matches"),
    },
    "places": {"entry": ref("entries", True), "side": STR, "position": INT},
    "matches": {
        "label": STR, "table": STR, **dict.fromkeys(SEATS, ref("players")),
        "rules_preset": STR, "rules_options": JSON, "rules": JSON, "referee": USER,
        "status": STR, "version": INT, "totals": JSON, "finished": BOOL, "end": STR,
        "winner": STR, "unclaimed_eggs": INT, "next_leader": STR, "pin_failures": INT,
        "pin_set_by": USER, "created_by": USER, "created_at": DATETIME, "updated_at": DATETIME,
        "submitted_by": USER, "submitted_at": DATETIME_NULL, "confirmed_by": USER,
        "confirmed_with_pin": BOOL, "confirmed_at": DATETIME_NULL,
    },
    "deals": {
        "n": INT, "record": JSON, "verdict": JSON, "client_id": UUID, "match_version": INT,
        "created_by": USER, "created_at": DATETIME,
    },
    "history": {
        "version": INT, "action": STR, "user": USER, "at": DATETIME, "reason": STR,
        "before": JSON, "after": JSON, "protocol": JSON, "confirmed": BOOL,
    },
    "sanctions": {
        "entry": ref("entries", True), "player": ref("players"), "round_number": INT, "kind": STR,
        "match_points": INT, "game_points": INT, "pairing": ref("pairings"), "reason": STR,
        "created_by": USER, "created_at": DATETIME, "revoked_at": DATETIME_NULL,
        "revoked_by": USER, "revoke_reason": STR,
    },
    "standings": {
        "round": ref("rounds", True), "entry": ref("entries", True), "scope": STR, "rank": INT,
        "match_points": INT, "metrics": JSON,
    },
}  # fmt: skip

#: the top-level lists, in the order they are read (a reference points to an earlier list,
#: or to its own for entries' teams, or from pairings to matches)
SECTIONS = ("clubs", "players", "entries", "absences", "rounds", "matches", "pairings",
            "sanctions", "standings")  # fmt: skip

CHOICES: dict[tuple[str, str], Iterable[str]] = {
    ("tournament", "format"): Tournament.Format.values,
    ("tournament", "system"): Tournament.System.values,
    ("tournament", "status"): Tournament.Status.values,
    ("tournament", "bye_result"): Tournament.ByeResult.values,
    ("tournament", "first_round"): Tournament.FirstRound.values,
    ("entries", "status"): Entry.Status.values,
    ("rounds", "status"): Round.Status.values,
    ("places", "side"): PairingEntry.Side.values,
    ("matches", "status"): Match.Status.values,
    ("history", "action"): MatchVersion.Action.values,
    ("sanctions", "kind"): Sanction.Kind.values,
    ("standings", "scope"): Standing.Scope.values,
}


def _column(name: str, kind: str) -> str:
    return f"{name}_id" if kind == USER or kind.startswith("ref:") else name


# --- export -------------------------------------------------------------------------------------


def _values(queryset: QuerySet[Any], section: str, *extra: str) -> list[dict[str, Any]]:
    columns = [_column(name, kind) for name, kind in SPECS[section].items()]
    return list(queryset.values("id", *columns, *extra))


def _render(row: Mapping[str, Any], section: str, usernames: Mapping[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row["id"]} if "id" in row else {}
    for name, kind in SPECS[section].items():
        value = row[_column(name, kind)]
        if value is not None:
            if kind in (DATE, DATETIME, DATETIME_NULL):
                value = value.isoformat()
            elif kind == USER:
                value = usernames.get(value)
            elif kind == UUID:
                value = str(value)
        out[name] = value
    return out


def _first_seen(ids: Iterable[int | None]) -> list[int]:
    return list(dict.fromkeys(i for i in ids if i is not None))


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """Everything of ``tournament`` as a JSON-ready dict (a fixed number of queries).

    Who may export is the caller's decision (the pages and the API: the tournament's managers).
    Lists are in an order that does not depend on primary keys the import assigns anew (players
    and clubs in the order they are first referred to), so an export of an import equals the
    original up to the ids.
    """
    t = tournament
    settings = _values(Tournament.objects.filter(pk=t.pk), "tournament")[0]
    organisers = sorted(t.organisers.values_list("username", flat=True))
    entries = _values(Entry.objects.filter(tournament=t).order_by("pk"), "entries")
    members = list(
        Entry.players.through.objects.filter(entry__tournament=t)
        .order_by("pk")
        .values_list("entry_id", "player_id")
    )
    absences = _values(EntryAbsence.objects.filter(entry__tournament=t).order_by("pk"), "absences")
    rounds = _values(Round.objects.filter(tournament=t).order_by("number"), "rounds")
    round_order = {r["id"]: r["number"] for r in rounds}
    pairings = sorted(
        _values(Pairing.objects.filter(round__tournament=t), "pairings"),
        key=lambda p: (round_order[p["round_id"]], p["table"] is None, p["table"] or 0, p["id"]),
    )
    places = list(
        PairingEntry.objects.filter(round__tournament=t)
        .order_by("side", "position", "pk")
        .values("pairing_id", "entry_id", "side", "position")
    )
    match_order = {p["match_id"]: i for i, p in enumerate(pairings) if p["match_id"]}
    derived = ("deals_won",) if HAS_DEALS_WON else ()
    matches = sorted(
        _values(Match.objects.filter(pairing__round__tournament=t), "matches", *derived),
        key=lambda m: match_order[m["id"]],
    )
    deals = _values(
        Deal.objects.filter(match__pairing__round__tournament=t).order_by("match_id", "n"),
        "deals",
        "match_id",
    )
    history = _values(
        MatchVersion.objects.filter(match__pairing__round__tournament=t).order_by(
            "match_id", "version"
        ),
        "history",
        "match_id",
    )
    sanctions = _values(Sanction.objects.filter(tournament=t).order_by("pk"), "sanctions")
    standings = sorted(
        _values(Standing.objects.filter(round__tournament=t), "standings"),
        key=lambda s: (round_order[s["round_id"]], s["scope"], s["rank"]),
    )

    # players and clubs in the order they are first referred to
    player_ids = _first_seen(
        [pid for _e, pid in members]
        + [p[f"{s}_id"] for p in pairings for s in SEATS]
        + [m[f"{s}_id"] for m in matches for s in SEATS]
        + [s["player_id"] for s in sanctions]
    )
    by_pk = {p["id"]: p for p in _values(Player.objects.filter(pk__in=player_ids), "players")}
    players = [by_pk[pk] for pk in player_ids]
    club_ids = _first_seen([p["club_id"] for p in players] + [e["club_id"] for e in entries])
    clubs_by_pk = {c["id"]: c for c in _values(Club.objects.filter(pk__in=club_ids), "clubs")}
    clubs = [clubs_by_pk[pk] for pk in club_ids]

    user_ids: set[int] = set()
    for section, rows in (
        ("rounds", rounds),
        ("pairings", pairings),
        ("matches", matches),
        ("deals", deals),
        ("history", history),
        ("sanctions", sanctions),
    ):
        for name, kind in SPECS[section].items():
            if kind == USER:
                user_ids.update(row[f"{name}_id"] for row in rows if row[f"{name}_id"])
    usernames = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))

    def render(section: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [_render(row, section, usernames) for row in rows]

    entry_players: dict[int, list[int]] = {}
    for entry_id, player_id in members:
        entry_players.setdefault(entry_id, []).append(player_id)
    pairing_places: dict[int, list[dict[str, Any]]] = {}
    for place in places:
        pairing_places.setdefault(place["pairing_id"], []).append(
            {"entry": place["entry_id"], "side": place["side"], "position": place["position"]}
        )
    match_deals: dict[int, list[dict[str, Any]]] = {}
    for row in deals:
        del row["id"]
        match_deals.setdefault(row["match_id"], []).append(_render(row, "deals", usernames))
    match_history: dict[int, list[dict[str, Any]]] = {}
    for row in history:
        del row["id"]
        match_history.setdefault(row["match_id"], []).append(_render(row, "history", usernames))

    tournament_out = _render(settings, "tournament", usernames)
    tournament_out.pop("id")
    tournament_out["organisers"] = organisers
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament_out,
        "clubs": render("clubs", clubs),
        "players": render("players", players),
        "entries": [e | {"players": entry_players.get(e["id"], [])}
                    for e in render("entries", entries)],
        "absences": render("absences", absences),
        "rounds": render("rounds", rounds),
        "pairings": [p | {"places": pairing_places.get(p["id"], [])}
                     for p in render("pairings", pairings)],
        "matches": [m | {name: row[name] for name in derived}
                    | {"deals": match_deals.get(m["id"], []),
                       "history": match_history.get(m["id"], [])}
                    for m, row in zip(render("matches", matches), matches, strict=True)],
        "sanctions": render("sanctions", sanctions),
        "standings": render("standings", standings),
    }  # fmt: skip


def dumps(data: Mapping[str, Any]) -> str:
    """The archive as JSON text (UTF-8, keys in the archive's order)."""
    return json.dumps(data, ensure_ascii=False, indent=1)


# --- reading and checking -----------------------------------------------------------------------


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
            parsed = parse_date(value) if isinstance(value, str) else None
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


def _rules_message(err: RulesError) -> str:
    return err.problem.message(_language())


def _match_name(item: Mapping[str, Any]) -> str:
    label = item.get("label") or f"#{item.get('id')}"
    return f"«{label}»" + (f" ({_('table')} {item['table']})" if item.get("table") else "")


def _check_protocol(reader: _Reader, item: Mapping[str, Any], fields: Mapping[str, Any],
                    deals: list[dict[str, Any]], where: str,
                    judges: dict[str, Judge]) -> list[dict[str, Any]]:  # fmt: skip
    """Judge the match's deals again; return the engine's verdicts (one per deal)."""
    stored = dict(fields["rules"]) if isinstance(fields.get("rules"), Mapping) else None
    if stored is None:
        reader.problem("bad_value", _("The rules of a match must be an object."), f"{where}.rules")
        return []
    key = json.dumps([fields.get("rules_preset"), stored], sort_keys=True, default=str)
    judge = judges.get(key)
    if judge is None:
        try:
            preset = stored.pop("preset", fields.get("rules_preset"))
            judge = judges[key] = Judge(make_rules(preset, stored))
        except RulesError as err:
            reader.problem("bad_rules", _("Match %(match)s: %(problem)s")
                           % {"match": _match_name(item), "problem": _rules_message(err)},
                           f"{where}.rules")  # fmt: skip
            return []
    numbers = [d.get("n") for d in deals]
    if numbers != list(range(1, len(deals) + 1)):
        reader.problem("bad_value", _("Match %(match)s: deals must be numbered 1, 2, 3 … in order.")
                       % {"match": _match_name(item)}, f"{where}.deals")  # fmt: skip
        return []
    totals = fields.get("totals")
    if not deals:
        sides = set(judge.sides)
        good = (isinstance(totals, Mapping) and set(totals) <= sides
                and all(isinstance(v, int) and not isinstance(v, bool) for v in totals.values())
                and fields.get("winner") in (*sides, "draw", ""))  # fmt: skip
        won = item.get("deals_won", {})
        good = good and isinstance(won, Mapping) and set(won) <= sides
        if not good:
            reader.problem("bad_value", _("Match %(match)s: its result is not one of the rules' "
                                          "sides.") % {"match": _match_name(item)},
                           f"{where}.totals")  # fmt: skip
        fields["deals_won"] = won
        return []
    state = judge.start()
    verdicts = []
    won: dict[str, int] = {}
    for i, deal in enumerate(deals):
        verdict = judge.judge(state, deal.get("record"))
        if not verdict.ok:
            problem = verdict.errors[0]
            reader.problem("illegal_deal", _("Match %(match)s, deal %(n)s: %(problem)s")
                           % {"match": _match_name(item), "n": i + 1,
                              "problem": problem.message(_language())},
                           f"{where}.deals[{i}].record")  # fmt: skip
            return []
        verdicts.append(verdict.to_dict())
        if verdict.winner:
            won[verdict.winner] = won.get(verdict.winner, 0) + 1
    fields["deals_won"] = won
    fold = {
        "totals": dict(state.totals), "finished": state.finished, "end": state.end or "",
        "winner": state.winner or "", "unclaimed_eggs": state.eggs,
        "next_leader": state.leader or "",
    }  # fmt: skip
    if "deals_won" in item:
        fold["deals_won"] = won
    differing = [name for name, value in fold.items() if item.get(name) != value]
    if differing:
        reader.problem("totals_mismatch",
                       _("Match %(match)s: %(fields)s differ from the engine's count of its deals.")
                       % {"match": _match_name(item), "fields": ", ".join(differing)},
                       f"{where}.{differing[0]}")  # fmt: skip
    return verdicts


def _language() -> str:
    return "en" if (get_language() or "ru").startswith("en") else "ru"


# --- import -------------------------------------------------------------------------------------


class _Plan:
    """The checked archive: converted rows per section, ready to write."""

    def __init__(self) -> None:
        self.tournament: dict[str, Any] = {}
        self.organisers: list[str] = []
        self.rows: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
        self.entry_players: list[tuple[Any, Any]] = []
        self.places: list[tuple[Any, dict[str, Any]]] = []
        self.deals: list[tuple[Any, dict[str, Any]]] = []
        self.history: list[tuple[Any, dict[str, Any]]] = []
        self.usernames: set[str] = set()


def read_archive(data: Any) -> _Plan:
    """Check ``data`` completely (nothing is written); raise ``TournamentError`` with every
    problem found (up to ``MAX_ERRORS``)."""
    reader = _Reader(data)
    reader.header()
    plan = _Plan()
    settings = data["tournament"]
    plan.tournament = reader.row(settings, "tournament", "tournament")
    organisers = settings.get("organisers", [])
    if not isinstance(organisers, list) or not all(isinstance(n, str) for n in organisers):
        reader.problem("bad_value", _("Organisers must be a list of usernames."),
                       "tournament.organisers")  # fmt: skip
    else:
        plan.organisers = organisers
        reader.usernames.update(organisers)
    for section in SECTIONS:
        rows = plan.rows[section] = []
        for i, item in enumerate(data[section]):
            where = f"{section}[{i}]"
            fields = reader.row(item, section, where)
            rows.append((item["id"], fields))
            if section == "entries":
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
    _check_meaning(reader, plan, data)
    reader.stop_if_bad()
    plan.usernames = reader.usernames
    return plan


def _check_meaning(reader: _Reader, plan: _Plan, data: Mapping[str, Any]) -> None:
    """Rules, protocols and the links a row's type cannot say."""
    t = plan.tournament
    try:
        make_rules(t["rules_preset"], t["rules_options"])
    except RulesError as err:
        reader.problem("bad_rules", _rules_message(err), "tournament.rules_options")
    else:
        try:
            Tournament(**t).clean()
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
    judges: dict[str, Judge] = {}
    verdicts: dict[Any, list[dict[str, Any]]] = {}
    for i, (match_id, fields) in enumerate(plan.rows["matches"]):
        where = f"matches[{i}]"
        item = data["matches"][i]
        if match_id not in used:
            reader.problem("dangling_reference", _("Match %(match)s is not played at any table.")
                           % {"match": _match_name(item)}, f"{where}.id")  # fmt: skip
        verdicts[match_id] = _check_protocol(reader, item, fields, deals_of.get(match_id, []),
                                             where, judges)  # fmt: skip
    position: dict[Any, int] = {}
    for match_id, deal in plan.deals:
        n = position[match_id] = position.get(match_id, 0) + 1
        found = verdicts.get(match_id) or []
        if n <= len(found):
            deal["verdict"] = found[n - 1]


def _users(names: Iterable[str]) -> dict[str, Any]:
    return {u.username: u for u in get_user_model().objects.filter(username__in=set(names))}


def import_tournament(data: Any, user: User) -> Tournament:
    """A new tournament from an archive (``export_tournament``'s dict), in one transaction.

    The returned tournament carries ``archive_notes``: what could not be restored exactly
    (usernames unknown here, a round that was being paired).
    """
    if not can_create_tournament(user):
        raise NotAllowed.one("not_organiser", _("Only organisers create tournaments."))
    plan = read_archive(data)
    try:
        with transaction.atomic():
            tournament = _write(plan, user)
            audit.record(user, "tournament.import", tournament, tournament_id=tournament.pk,
                         after={"name": tournament.name, "notes": tournament.archive_notes})
            return tournament
    except (IntegrityError, DatabaseError, ValueError, TypeError) as err:
        raise TournamentError.one(
            "invalid_archive",
            _("The archive breaks a rule of the database: %(detail)s")
            % {"detail": str(err).splitlines()[0] if str(err) else type(err).__name__},
        ) from err


def _bulk(model: type[Model], objects: list[Any], stamps: dict[str, list[Any]]) -> list[Any]:
    """Insert ``objects`` and then restore the automatic timestamps ``stamps`` (field: values in
    the objects' order), which an insert would set to now."""
    created = model._default_manager.bulk_create(objects, batch_size=1000)  # type: ignore[attr-defined]
    if created and stamps:
        for name, values in stamps.items():
            for obj, value in zip(created, values, strict=True):
                setattr(obj, name, value)
        model._default_manager.bulk_update(created, list(stamps), batch_size=500)  # type: ignore[attr-defined]
    return created


def _write(plan: _Plan, importer: User) -> Tournament:  # noqa: C901 - one step per table
    notes: list[str] = []
    users = _users(plan.usernames)
    missing: dict[str, list[str]] = {}

    def user_id(name: str | None, where: str) -> int | None:
        if name is None:
            return None
        found = users.get(name)
        if found is None:
            missing.setdefault(name, []).append(where)
            return None
        return int(found.pk)

    def fields_of(section: str, fields: Mapping[str, Any], where: str,
                  maps: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:  # fmt: skip
        out: dict[str, Any] = {}
        for name, kind in SPECS[section].items():
            value = fields[name]
            if kind == USER:
                out[f"{name}_id"] = user_id(value, f"{where} {name}")
            elif kind.startswith("ref:"):
                out[f"{name}_id"] = None if value is None else maps[kind[4:].rstrip("!")](value)
            else:
                out[name] = value
        return out

    new: dict[str, dict[Any, int]] = {s: {} for s in SECTIONS}
    maps = {s: new[s].__getitem__ for s in SECTIONS}

    # clubs by name, players by federation ID
    clubs = plan.rows["clubs"]
    existing = {c.name: c.pk for c in Club.objects.filter(name__in=[f["name"] for _i, f in clubs])}
    to_create = [f for _i, f in clubs if f["name"] not in existing]
    for club in Club.objects.bulk_create(
        [Club(**f) for f in {f["name"]: f for f in to_create}.values()]
    ):
        existing[club.name] = club.pk
    for archive_id, f in clubs:
        new["clubs"][archive_id] = existing[f["name"]]
    players = plan.rows["players"]
    federation = {
        p.federation_id: p.pk
        for p in Player.objects.filter(
            federation_id__in=[f["federation_id"] for _i, f in players if f["federation_id"]]
        )
    }
    fresh = [(i, f) for i, f in players if not (f["federation_id"] and f["federation_id"] in
                                                  federation)]  # fmt: skip
    created_players = Player.objects.bulk_create(
        [Player(**fields_of("players", f, "player", maps)) for _i, f in fresh], batch_size=1000
    )
    for (archive_id, _f), player in zip(fresh, created_players, strict=True):
        new["players"][archive_id] = player.pk
    for archive_id, f in players:
        if archive_id not in new["players"]:
            new["players"][archive_id] = federation[f["federation_id"]]

    # the tournament
    settings = dict(plan.tournament)
    created_at = settings.pop("created_at")
    tournament = Tournament.objects.create(**settings)
    Tournament.objects.filter(pk=tournament.pk).update(created_at=created_at)
    tournament.created_at = created_at
    organisers = {users[n].pk for n in plan.organisers if n in users} | {importer.pk}
    for name in plan.organisers:
        if name not in users:
            missing.setdefault(name, []).append("organiser")
    tournament.organisers.add(*organisers)

    # entries (teams linked afterwards), their players and absences
    entries = plan.rows["entries"]
    created_entries = _bulk(Entry, [
        Entry(tournament=tournament, **fields_of("entries", f | {"team": None}, "entry", maps))
        for _i, f in entries
    ], {})  # fmt: skip
    for (archive_id, _f), entry in zip(entries, created_entries, strict=True):
        new["entries"][archive_id] = entry.pk
    teamed = []
    for (_i, f), entry in zip(entries, created_entries, strict=True):
        if f["team"] is not None:
            entry.team_id = new["entries"][f["team"]]
            teamed.append(entry)
    Entry.objects.bulk_update(teamed, ["team"], batch_size=500)
    Entry.players.through.objects.bulk_create(
        [Entry.players.through(entry_id=new["entries"][e], player_id=new["players"][p])
         for e, p in plan.entry_players], batch_size=1000,
    )  # fmt: skip
    _bulk(EntryAbsence, [EntryAbsence(**fields_of("absences", f, "absence", maps))
                         for _i, f in plan.rows["absences"]], {})  # fmt: skip

    # rounds
    rounds = plan.rows["rounds"]
    objects = []
    for _archive_id, f in rounds:
        values = fields_of("rounds", f, f"round {f['number']}", maps)
        if values["status"] == Round.Status.PAIRING:
            notes.append(_("Round %(n)s was being paired when it was exported; it is imported "
                           "as new.") % {"n": f["number"]})  # fmt: skip
            values.update(status=Round.Status.NEW, task_id="", progress=0, step="")
        objects.append(Round(tournament=tournament, **values))
    created_rounds = _bulk(Round, objects, {"created_at": [f["created_at"] for _i, f in rounds]})
    round_of: dict[Any, Round] = {}
    for (archive_id, _f), round_ in zip(rounds, created_rounds, strict=True):
        new["rounds"][archive_id] = round_.pk
        round_of[archive_id] = round_

    # matches, their deals and history
    matches = plan.rows["matches"]
    created_matches = _bulk(Match, [
        Match(confirm_pin="", **fields_of("matches", f, f"match {f['label']}", maps),
              **({"deals_won": f.get("deals_won", {})} if HAS_DEALS_WON else {}))
        for _i, f in matches
    ], {"created_at": [f["created_at"] for _i, f in matches],
        "updated_at": [f["updated_at"] for _i, f in matches]})  # fmt: skip
    for (archive_id, _f), match in zip(matches, created_matches, strict=True):
        new["matches"][archive_id] = match.pk
    _bulk(Deal, [Deal(match_id=new["matches"][m], **fields_of("deals", f, "deal", maps))
                 for m, f in plan.deals],
          {"created_at": [f["created_at"] for _m, f in plan.deals]})  # fmt: skip
    _bulk(MatchVersion,
          [MatchVersion(match_id=new["matches"][m], **fields_of("history", f, "history", maps))
           for m, f in plan.history],
          {"at": [f["at"] for _m, f in plan.history]})  # fmt: skip

    # pairings and places
    pairings = plan.rows["pairings"]
    created_pairings = _bulk(Pairing, [Pairing(**fields_of("pairings", f, "table", maps))
                                       for _i, f in pairings], {})  # fmt: skip
    round_by_pairing: dict[Any, int] = {}
    for (archive_id, f), pairing in zip(pairings, created_pairings, strict=True):
        new["pairings"][archive_id] = pairing.pk
        round_by_pairing[archive_id] = new["rounds"][f["round"]]
    _bulk(PairingEntry, [
        PairingEntry(pairing_id=new["pairings"][p], round_id=round_by_pairing[p],
                     **fields_of("places", f, "place", maps))
        for p, f in plan.places
    ], {})  # fmt: skip

    # discipline and standings snapshots
    sanctions = plan.rows["sanctions"]
    _bulk(Sanction, [Sanction(tournament=tournament, **fields_of("sanctions", f, "sanction", maps))
                     for _i, f in sanctions],
          {"created_at": [f["created_at"] for _i, f in sanctions]})  # fmt: skip
    _bulk(Standing, [Standing(**fields_of("standings", f, "standing", maps))
                     for _i, f in plan.rows["standings"]], {})  # fmt: skip

    for name, places in sorted(missing.items()):
        notes.append(_("No user “%(name)s” here: left empty (%(count)s fields, e.g. %(where)s).")
                     % {"name": name, "count": len(places), "where": places[0]})  # fmt: skip
    tournament.archive_notes = notes  # type: ignore[attr-defined]
    return tournament


def load_file(content: bytes | str) -> Any:
    """Parse uploaded archive text; a file that is not JSON is refused with ``not_archive``."""
    try:
        return json.loads(content)
    except (ValueError, UnicodeDecodeError) as err:
        raise TournamentError.one(
            "not_archive", _("The file is not JSON: %(detail)s") % {"detail": err}, "file"
        ) from err
