"""Read queries that more than one concern uses, each a bounded number of queries.

    round_with_pairings(queryset)    rounds with their tables, sides, entries, players, matches
                                     and referees prefetched (the round pages, the API, the hall)
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tournaments.models import (
    Pairing,
    PairingEntry,
    Round,
)


def round_with_pairings(queryset: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds with their tables, places, entries, seats, referees and matches (5 queries)."""
    places = PairingEntry.objects.select_related("entry").order_by("side", "position")
    pairings = Pairing.objects.select_related(
        "seat_n", "seat_e", "seat_s", "seat_w", "referee", "match"
    ).prefetch_related(Prefetch("places", queryset=places))
    return queryset.select_related("tournament").prefetch_related(
        Prefetch("pairings", queryset=pairings)
    )
