"""Read queries for the public pages and the API, each a bounded number of queries."""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import Entry, Pairing, PairingEntry, Player, Round, Tournament


def visible_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """Public tournaments for everyone; staff see all; organisers also see their own."""
    queryset = Tournament.objects.all()
    if getattr(user, "is_staff", False):
        return queryset
    if user.is_authenticated:
        return queryset.filter(Q(public=True) | Q(organisers=user)).distinct()
    return queryset.filter(public=True)


def public_tournament_list() -> QuerySet[Tournament]:
    active = Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    return Tournament.objects.filter(public=True).annotate(entry_count=active)


def tournament_with_entries(queryset: QuerySet[Tournament]) -> QuerySet[Tournament]:
    players = Player.objects.select_related("club")
    entries = Entry.objects.select_related("club").prefetch_related(
        Prefetch("players", queryset=players)
    )
    return queryset.prefetch_related(Prefetch("entries", queryset=entries))


# --- pairing history and standings (what the pairing task reads) ------------------------------


@dataclass
class Record:
    """An entry's past as the pairing sees it: match points so far and whom it met."""

    score: float = 0.0
    byes: int = 0
    ns_count: int = 0
    ew_count: int = 0
    last_seat: str = ""
    opponents: set[int] = field(default_factory=set)
    partners: set[int] = field(default_factory=set)


def pairing_history(tournament: Tournament, before_round: int) -> dict[int, Record]:
    """Every entry's record over rounds ``< before_round``, in one query.

    Match points count confirmed protocols only (win, draw, loss as the tournament says) and
    byes as ``Tournament.bye_result``; standings with tie-breaks come in a later issue.
    """
    rows = (
        PairingEntry.objects.filter(round__tournament=tournament, round__number__lt=before_round)
        .order_by("round__number", "pairing_id", "side", "position")
        .values_list(
            "pairing_id", "entry_id", "side", "pairing__match__status", "pairing__match__winner"
        )
    )
    records: dict[int, Record] = defaultdict(Record)
    tables: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    results: dict[int, tuple[str | None, str]] = {}
    for pairing_id, entry_id, side, status, winner in rows:
        tables[pairing_id][side].append(entry_id)
        results[pairing_id] = (status, winner or "")
    bye_points = float(tournament.match_points(tournament.bye_result))
    for pairing_id, sides in tables.items():
        status, winner = results[pairing_id]
        for entry_id in sides.get("BYE", []):
            records[entry_id].byes += 1
            records[entry_id].score += bye_points
        for side, other in (("NS", "EW"), ("EW", "NS")):
            for entry_id in sides.get(side, []):
                record = records[entry_id]
                record.opponents.update(sides.get(other, []))
                record.partners.update(e for e in sides[side] if e != entry_id)
                record.last_seat = side
                if side == "NS":
                    record.ns_count += 1
                else:
                    record.ew_count += 1
                if status == "confirmed" and winner:
                    result = "draw" if winner == "draw" else ("win" if winner == side else "loss")
                    record.score += tournament.match_points(result)
    return dict(records)


def ranked(entries: Iterable[Entry], records: dict[int, Record]) -> list[Entry]:
    """Entries by match points, then seed, then registration order (tie-breaks come later)."""
    big = 10**9
    return sorted(
        entries,
        key=lambda e: (-records.get(e.pk, Record()).score, e.seed or big, e.pk),
    )


# --- rounds and pairings as pages and the API show them -----------------------------------------


def round_with_pairings(queryset: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds with their tables, places, entries, seats, referees and matches (5 queries)."""
    places = PairingEntry.objects.select_related("entry").order_by("side", "position")
    pairings = Pairing.objects.select_related(
        "seat_n", "seat_e", "seat_s", "seat_w", "referee", "match"
    ).prefetch_related(Prefetch("places", queryset=places))
    return queryset.select_related("tournament").prefetch_related(
        Prefetch("pairings", queryset=pairings)
    )


def published_rounds(tournament: Tournament) -> list[Round]:
    published = (Round.Status.PUBLISHED, Round.Status.FINISHED)
    return list(round_with_pairings(tournament.round_set.filter(status__in=published)))


def managed_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    if not user.is_authenticated:
        return Tournament.objects.none()
    return Tournament.objects.filter(organisers=user)


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
        sides = {side: [{"id": p.entry_id, "name": p.entry.name} for p in places if p.side == side]
                 for side in ("NS", "EW")}  # fmt: skip
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
