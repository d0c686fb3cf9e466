"""Writing a tournament as one archive document.

    export_tournament(tournament) -> dict     the archive (``json.dumps``-able)
    dumps(data) -> str                        as the download and the command write it

Rows carry archive-local ids (this installation's primary keys) and refer to each other by them;
users are named by username. ``Match.confirm_pin`` (a password hash) is never exported. A row
imported from an archive names, where no user of this site is linked, the username its archive
gave (kept as text by ``ArchiveImport.names``), so that exporting an import gives its archive.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone

from scoring.models import Deal, Match, MatchVersion
from tournaments.archive.format import (
    DATE,
    DATETIME,
    DATETIME_NULL,
    FORMAT,
    HAS_DEALS_WON,
    SEATS,
    SPECS,
    USER,
    UUID,
    VERSION,
    column,
)
from tournaments.archive.source import source_of
from tournaments.models import (
    ArchiveImport,
    Category,
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    Prize,
    Round,
    Sanction,
    Stage,
    Standing,
    Substitute,
    Tournament,
)


def _values(queryset: QuerySet[Any], section: str, *extra: str) -> list[dict[str, Any]]:
    columns = [column(name, kind) for name, kind in SPECS[section].items()]
    return list(queryset.values("id", *columns, *extra))


def _render(row: Mapping[str, Any], section: str, usernames: Mapping[int, str],
            archived: Mapping[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """The row as the archive writes it; ``archived``: the names its own archive gave it."""
    out: dict[str, Any] = {"id": row["id"]} if "id" in row else {}
    for name, kind in SPECS[section].items():
        value = row[column(name, kind)]
        if value is not None:
            if kind in (DATE, DATETIME, DATETIME_NULL):
                value = value.isoformat()
            elif kind == USER:
                value = usernames.get(value)
            elif kind == UUID:
                value = str(value)
        elif kind == USER and archived:
            value = archived.get(name)
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
    chief_referees = sorted(t.chief_referees.values_list("username", flat=True))
    entries = _values(Entry.objects.filter(tournament=t).order_by("pk"), "entries")
    members = list(
        Entry.players.through.objects.filter(entry__tournament=t)
        .order_by("pk")
        .values_list("entry_id", "player_id")
    )
    absences = _values(EntryAbsence.objects.filter(entry__tournament=t).order_by("pk"), "absences")
    substitutes = _values(Substitute.objects.filter(tournament=t).order_by("pk"), "substitutes")
    stages = _values(Stage.objects.filter(tournament=t).order_by("number"), "stages", "seeds",
                     "members")  # fmt: skip
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

    categories = _values(Category.objects.filter(tournament=t).order_by("order", "pk"),
                         "categories")  # fmt: skip
    chosen: dict[int, list[int]] = {}
    for category_id, entry_id in Category.entries.through.objects.filter(
            category__tournament=t).order_by("entry_id").values_list("category_id", "entry_id"):
        chosen.setdefault(category_id, []).append(entry_id)
    prizes = [p | {"amount": str(p["amount"])} for p in _values(
        Prize.objects.filter(tournament=t), "prizes")]  # the overall list first  # fmt: skip

    # players and clubs in the order they are first referred to
    player_ids = _first_seen(
        [pid for _e, pid in members]
        + [p[f"{s}_id"] for p in pairings for s in SEATS]
        + [m[f"{s}_id"] for m in matches for s in SEATS]
        + [s["player_id"] for s in sanctions]
        + [p for s in substitutes for p in (s["replaced_id"], s["player_id"])]
    )
    by_pk = {p["id"]: p for p in _values(Player.objects.filter(pk__in=player_ids), "players")}
    players = [by_pk[pk] for pk in player_ids]
    club_ids = _first_seen([p["club_id"] for p in players] + [e["club_id"] for e in entries]
                           + [c["club_id"] for c in categories])  # fmt: skip
    clubs_by_pk = {c["id"]: c for c in _values(Club.objects.filter(pk__in=club_ids), "clubs")}
    clubs = [clubs_by_pk[pk] for pk in club_ids]

    user_ids: set[int] = set()
    for section, rows in (
        ("stages", stages),
        ("rounds", rounds),
        ("pairings", pairings),
        ("matches", matches),
        ("deals", deals),
        ("history", history),
        ("sanctions", sanctions),
        ("substitutes", substitutes),
    ):
        for name, kind in SPECS[section].items():
            if kind == USER:
                user_ids.update(row[f"{name}_id"] for row in rows if row[f"{name}_id"])
    usernames = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    names = ArchiveImport.objects.filter(tournament=t).values_list("names", flat=True).first()
    archived: dict[str, dict[str, dict[str, str]]] = names or {}

    def render(section: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        given = archived.get(section, {})
        return [_render(row, section, usernames, given.get(str(row["id"]))) for row in rows]

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
        given = archived.get("deals", {}).get(f"{row['match_id']}/{row['n']}")
        match_deals.setdefault(row["match_id"], []).append(
            _render(row, "deals", usernames, given))  # fmt: skip
    match_history: dict[int, list[dict[str, Any]]] = {}
    for row in history:
        del row["id"]
        given = archived.get("history", {}).get(f"{row['match_id']}/{row['version']}")
        match_history.setdefault(row["match_id"], []).append(
            _render(row, "history", usernames, given))  # fmt: skip

    tournament_out = _render(settings, "tournament", usernames)
    tournament_out.pop("id")
    tournament_out["organisers"] = organisers
    tournament_out["chief_referees"] = chief_referees
    # the seasons it counts in, by name with their rules (linked on import by name)
    tournament_out["seasons"] = [
        {"name": name, "scope": scope, "scale": scale, "best_of": best_of}
        for name, scope, scale, best_of in t.seasons.order_by("name").values_list(
            "name", "scope", "scale", "best_of")
    ]  # fmt: skip
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        # which tournament this is: an import of it here is refused (``archive.review``)
        "source": source_of(t),
        "tournament": tournament_out,
        "clubs": render("clubs", clubs),
        "players": render("players", players),
        "entries": [e | {"players": entry_players.get(e["id"], [])}
                    for e in render("entries", entries)],
        "absences": render("absences", absences),
        "substitutes": render("substitutes", substitutes),
        # a stage's seeds are entry ids (an entry's archive id is its key here)
        "stages": [s | {"seeds": row["seeds"], "members": row["members"]}
                   for s, row in zip(render("stages", stages), stages, strict=True)],
        "rounds": render("rounds", rounds),
        "pairings": [p | {"places": pairing_places.get(p["id"], [])}
                     for p in render("pairings", pairings)],
        "matches": [m | {name: row[name] for name in derived}
                    | {"deals": match_deals.get(m["id"], []),
                       "history": match_history.get(m["id"], [])}
                    for m, row in zip(render("matches", matches), matches, strict=True)],
        "sanctions": render("sanctions", sanctions),
        # metrics without the database key of the entry (the row's ``entry`` says which)
        "standings": [s | {"metrics": {k: v for k, v in (s["metrics"] or {}).items()
                                       if k != "participant"}}
                      for s in render("standings", standings)],
        "categories": [c | {"entries": chosen.get(c["id"], [])}
                       for c in render("categories", categories)],
        "prizes": render("prizes", prizes),
    }  # fmt: skip


def dumps(data: Mapping[str, Any]) -> str:
    """The archive as JSON text (UTF-8, keys in the archive's order)."""
    return json.dumps(data, ensure_ascii=False, indent=1)
