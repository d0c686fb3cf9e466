"""Read queries of rounds, each a bounded number of queries: a round with its tables, the
pairing history of a tournament (who met whom, byes, seats, floats), the standings snapshot that
ranks entries for pairing, table counts per round, and a round as the API answers it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from tournaments.models import (
    SIDE_ORDER,
    Entry,
    Pairing,
    PairingEntry,
    Round,
    Sanction,
    Standing,
    Tournament,
)


@dataclass
class Record:
    """An entry's past as the pairing sees it: match points so far and whom it met.

    ``standing`` is the entry's rank in the latest finished round's standings snapshot (0: no
    snapshot row), the order of entries with the same match points (see ``apply_standings``).
    """

    score: float = 0.0
    standing: int = 0
    #: match points of each round, for adding the rounds after the snapshot to it
    round_scores: dict[int, float] = field(default_factory=dict)
    byes: int = 0
    ns_count: int = 0
    ew_count: int = 0
    last_seat: str = ""
    opponents: set[int] = field(default_factory=set)
    partners: set[int] = field(default_factory=set)


def pairing_history(tournament: Tournament, before_round: int) -> dict[int, Record]:
    """Every entry's record over rounds ``< before_round``, in one query.

    Match points count confirmed protocols only (win, draw, loss as the tournament says) and
    byes as ``Tournament.bye_result``; ``apply_standings`` then puts the finished rounds'
    standings (sanctions, forfeits, tie-breaks) in their place.
    """
    rows = (
        PairingEntry.objects.filter(round__tournament=tournament, round__number__lt=before_round)
        .order_by("round__number", "pairing_id", "side", "position")
        .values_list(
            "pairing_id",
            "entry_id",
            "side",
            "pairing__match__status",
            "pairing__match__winner",
            "round__number",
        )
    )
    records: dict[int, Record] = defaultdict(Record)
    tables: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    results: dict[int, tuple[str | None, str, int]] = {}
    for pairing_id, entry_id, side, status, winner, number in rows:
        tables[pairing_id][side].append(entry_id)
        results[pairing_id] = (status, winner or "", number)
    bye_points = float(tournament.match_points(tournament.bye_result))

    def score(record: Record, number: int, points: float) -> None:
        record.score += points
        record.round_scores[number] = record.round_scores.get(number, 0.0) + points

    for pairing_id, sides in tables.items():
        status, winner, number = results[pairing_id]
        for entry_id in sides.get("BYE", []):
            records[entry_id].byes += 1
            score(records[entry_id], number, bye_points)
        for side, mine in sides.items():
            if side == "BYE":
                continue
            others = [e for name, group in sides.items() if name not in (side, "BYE")
                      for e in group]  # fmt: skip
            # N (head to head) balances like NS; S and W (each for himself) are not balanced
            seat = {"NS": "NS", "N": "NS", "EW": "EW", "E": "EW"}.get(side, "")
            for entry_id in mine:
                record = records[entry_id]
                record.opponents.update(others)
                record.partners.update(e for e in mine if e != entry_id)
                record.last_seat = seat
                if seat == "NS":
                    record.ns_count += 1
                elif seat == "EW":
                    record.ew_count += 1
                if status == "confirmed" and winner:
                    result = "draw" if winner == "draw" else ("win" if winner == side else "loss")
                    score(record, number, tournament.match_points(result))
    return dict(records)


@dataclass(frozen=True)
class SnapshotLine:
    round: int
    rank: int
    match_points: int


def with_snapshot(
    queryset: QuerySet[Entry], tournament: Tournament, before_round: int
) -> QuerySet[Entry]:
    """Entries annotated with their line in the standings snapshot of the latest finished round
    before ``before_round`` (``snapshot_rank`` None: no line), in the entries' own query."""
    latest = Round.objects.filter(
        tournament=tournament, status=Round.Status.FINISHED, number__lt=before_round
    ).order_by("-number")[:1]
    line = Standing.objects.filter(entry=OuterRef("pk"), round=Subquery(latest.values("pk")))
    return queryset.annotate(
        snapshot_round=Subquery(latest.values("number")),
        snapshot_rank=Subquery(line.values("rank")[:1]),
        snapshot_points=Subquery(line.values("match_points")[:1]),
    )


def snapshot_of(entries: Iterable[Entry]) -> dict[int, SnapshotLine]:
    """The snapshot lines of entries loaded through ``with_snapshot``."""
    return {
        e.pk: SnapshotLine(e.snapshot_round, e.snapshot_rank, e.snapshot_points)  # type: ignore[attr-defined]
        for e in entries
        if getattr(e, "snapshot_rank", None) is not None
    }


def apply_standings(records: dict[int, Record], snapshot: dict[int, SnapshotLine]) -> None:
    """Put the snapshot into the records: an entry with a snapshot row of round F scores the
    snapshot's match points (sanctions and forfeits counted) plus what it scored after F, and
    ranks by the snapshot's order among entries with the same match points. Entries without a
    row keep their own score and rank after them (then by seed, see ``ranked``)."""
    for entry_id, line in snapshot.items():
        record = records.setdefault(entry_id, Record())
        later = sum(p for number, p in record.round_scores.items() if number > line.round)
        record.score = float(line.match_points) + later
        record.standing = line.rank


def ranked(entries: Iterable[Entry], records: dict[int, Record]) -> list[Entry]:
    """Entries by match points, then by the standings snapshot's order (its tie-breaks; see
    ``apply_standings``), then seed, then registration order."""
    big = 10**9
    empty = Record()

    def key(entry: Entry) -> tuple[float, int, int, int]:
        record = records.get(entry.pk, empty)
        return (-record.score, record.standing or big, entry.seed or big, entry.pk)

    return sorted(entries, key=key)


@dataclass
class TableCounts:
    """How far a round's tables are: a forfeit decides a table like a confirmed protocol."""

    confirmed: int = 0
    submitted: int = 0
    in_play: int = 0  # not started or being played

    @property
    def total(self) -> int:
        return self.confirmed + self.submitted + self.in_play

    @property
    def open(self) -> int:
        return self.submitted + self.in_play


def table_counts(tournament: Tournament) -> dict[int, TableCounts]:
    """Round number -> its tables confirmed / submitted / in play (2 queries)."""
    forfeited = set(
        Sanction.objects.filter(tournament=tournament, kind=Sanction.Kind.FORFEIT,
                                revoked_at__isnull=True).values_list("pairing_id", flat=True)
    )  # fmt: skip
    counts: dict[int, TableCounts] = defaultdict(TableCounts)
    rows = Pairing.objects.filter(round__tournament=tournament, table__isnull=False).values_list(
        "pk", "round__number", "match__status"
    )
    for pk, number, status in rows:
        count = counts[number]
        if status == "confirmed" or pk in forfeited:
            count.confirmed += 1
        elif status == "submitted":
            count.submitted += 1
        else:
            count.in_play += 1
    return dict(counts)


def round_data(round_: Round) -> dict[str, Any]:
    """A round as the API and the progress poll show it (pairings prefetched by
    ``round_with_pairings``)."""
    tables, byes = [], []
    for pairing in round_.pairings.all():
        places = list(pairing.places.all())
        if pairing.table is None:
            byes += [{"entry": p.entry_id, "name": p.entry.name, "flags": pairing.flags,
                      "pairing": pairing.pk} for p in places]  # fmt: skip
            continue
        sides: dict[str, list[dict[str, Any]]] = {}
        # NS and EW; or the seats head to head and each for himself
        for place in sorted(places, key=lambda p: SIDE_ORDER[p.side]):
            sides.setdefault(place.side, []).append({"id": place.entry_id,
                                                     "name": place.entry.name})  # fmt: skip
        seats = {}
        for seat in "NESW":
            player = getattr(pairing, f"seat_{seat.lower()}")
            seats[seat] = None if player is None else {"id": player.pk, "name": player.full_name}
        tables.append({
            "id": pairing.pk, "table": pairing.table, "sides": sides, "seats": seats,
            "match": pairing.match_id,
            "match_status": pairing.match.status if pairing.match else None,
            "referee": pairing.referee_id, "locked": pairing.locked, "flags": pairing.flags,
        })  # fmt: skip
    return {
        "id": round_.pk, "tournament": round_.tournament_id, "number": round_.number,
        "status": round_.status, "progress": round_.progress, "step": round_.step,
        "error": round_.error, "task_id": round_.task_id, "notes": round_.notes,
        "tables": tables, "byes": byes,
    }  # fmt: skip
