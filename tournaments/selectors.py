"""Read queries for the public pages and the API, each a bounded number of queries."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import Entry, Player, Tournament


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
