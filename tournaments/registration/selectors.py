"""Read queries of registration: a tournament with its entries, players and clubs, prefetched
in a bounded number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tournaments.models import (
    Entry,
    Player,
    Tournament,
)


def tournament_with_entries(queryset: QuerySet[Tournament]) -> QuerySet[Tournament]:
    players = Player.objects.select_related("club")
    entries = Entry.objects.select_related("club").prefetch_related(
        Prefetch("players", queryset=players)
    )
    return queryset.prefetch_related(Prefetch("entries", queryset=entries))
