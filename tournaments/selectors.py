"""Read queries that more than one concern uses, each a bounded number of queries.

    round_with_pairings(queryset)    rounds with their tables, sides, entries, players, matches
                                     and referees prefetched (the round pages, the API, the hall)
    entry_ratings(tournament)        each entry's rating today, from its players' club ratings
                                     (registration shows it; round 1 may be seeded by it)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet
from openskill.models import PlackettLuce

from tournaments.models import (
    DISPLAY_SCALE,
    Entry,
    Pairing,
    PairingEntry,
    PlayerRating,
    Round,
    Tournament,
)


def round_with_pairings(queryset: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds with their tables, places, entries, seats, referees and matches (5 queries)."""
    places = PairingEntry.objects.select_related("entry", "entry__club").order_by(
        "side", "position")
    pairings = Pairing.objects.select_related(
        "seat_n", "seat_e", "seat_s", "seat_w", "referee", "match"
    ).prefetch_related(Prefetch("places", queryset=places))
    return queryset.select_related("tournament").prefetch_related(
        Prefetch("pairings", queryset=pairings)
    )


@dataclass(frozen=True)
class EntryRating:
    """An entry's rating today: the mean of its players' ratings, the uncertainty of that mean
    (display units), and the conservative value (mean less three uncertainties) it is ordered by.
    ``rated`` of ``players`` have a rating; the others count as new players (1500 ± 500)."""

    rating: int
    uncertainty: int
    conservative: float
    rated: int
    players: int


def entry_ratings(tournament: Tournament) -> dict[int, EntryRating]:
    """Each entry with at least one rated player (two queries). Unrated players count with
    openskill's starting rating, so a pair of a rated and a new player is not ranked as if the
    new one were as good as the other."""
    start = PlackettLuce()  # the starting values of the ratings' model
    members = list(Entry.players.through.objects.filter(entry__tournament=tournament)
                   .values_list("entry_id", "player_id"))  # fmt: skip
    known = {r.player_id: r for r in PlayerRating.objects.filter(
        player_id__in={player for _entry, player in members})}  # fmt: skip
    players: dict[int, list[int]] = {}
    for entry_id, player_id in members:
        players.setdefault(entry_id, []).append(player_id)
    result: dict[int, EntryRating] = {}
    for entry_id, ids in players.items():
        rated = [known[p] for p in ids if p in known]
        if not rated:
            continue
        mus = [r.mu for r in rated] + [start.mu] * (len(ids) - len(rated))
        variances = [r.sigma**2 for r in rated] + [start.sigma**2] * (len(ids) - len(rated))
        mu = sum(mus) / len(ids)
        sigma = math.sqrt(sum(variances)) / len(ids)
        result[entry_id] = EntryRating(
            round(mu * DISPLAY_SCALE), round(sigma * DISPLAY_SCALE),
            (mu - 3 * sigma) * DISPLAY_SCALE, len(rated), len(ids),
        )  # fmt: skip
    return result
