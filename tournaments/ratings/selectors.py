"""Reads of the ratings: the rating list and one player's history (bounded queries, no writes).

Only public tournaments are rated (``services``), so everything here may be shown to anyone.
"""

from __future__ import annotations

from django.db.models import F, QuerySet

from tournaments.models import PlayerRating, RatingChange


def rating_queryset(club_id: int | None = None) -> QuerySet[PlayerRating]:
    """Every rated player, best first by the conservative estimate (rating less three
    uncertainties), so that a few lucky matches do not top the list."""
    queryset = PlayerRating.objects.select_related("player__club")
    if club_id is not None:
        queryset = queryset.filter(player__club_id=club_id)
    return queryset.order_by((F("mu") - 3 * F("sigma")).desc(), "player__last_name",
                             "player__first_name", "player_id")  # fmt: skip


def rating_list(club_id: int | None = None) -> list[PlayerRating]:
    return list(rating_queryset(club_id))


def rating_history(player_id: int) -> list[RatingChange]:
    """The player's rating changes in the order they were rated, with their tournament."""
    return list(RatingChange.objects.filter(player_id=player_id, tournament__public=True)
                .select_related("tournament").order_by("sequence"))  # fmt: skip
