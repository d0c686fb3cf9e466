"""Who may see and do what in a tournament: the one place pages, the API and services ask.

    can_manage(user, tournament) -> bool        the tournament's organisers and superusers
    can_create_tournament(user) -> bool         users in the Organiser role
    require_manager(user, tournament)           NotAllowed (403) unless ``can_manage``
    locked_tournament(user, tournament_id)      the row locked ``FOR UPDATE``, for its managers
    can_judge(user, tournament) -> bool         chief referees and the tournament's organisers
    visible_tournaments(user) -> QuerySet       public ones, and those the user manages
    managed_tournaments(user) / public_tournament_list()

Depends on the models and ``accounts`` only; every concern may use it.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.roles import CHIEF_REFEREE, ORGANISER, has_role
from tournaments.errors import NotAllowed
from tournaments.models import (
    Entry,
    Tournament,
)

User: TypeAlias = AbstractBaseUser | AnonymousUser


def can_manage(user: User, tournament: Tournament) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def can_create_tournament(user: User) -> bool:
    return has_role(user, ORGANISER)


def require_manager(user: User, tournament: Tournament) -> None:
    if not can_manage(user, tournament):
        raise NotAllowed.one(
            "not_organiser", _("Only the tournament's organisers may change it.")
        )


def locked_tournament(user: User, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_manager(user, tournament)
    return tournament


def can_judge(user: User, tournament: Tournament) -> bool:
    return can_manage(user, tournament) or has_role(user, CHIEF_REFEREE)


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


def managed_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    if not user.is_authenticated:
        return Tournament.objects.none()
    return Tournament.objects.filter(organisers=user)
