"""Who may do what with a match: see it, create one, write (record, amend, delete, submit),
confirm at the desk, try the captain's PIN, correct. Every service, view and API call asks here,
so every caller enforces the same permissions.

Scoring knows no events. A standalone match is read by everyone and overseen by the desk roles
(any chief referee or organiser). Apps that group matches into events (tournaments) add an
``EventScope`` to ``EVENT_SCOPES`` (from their ``AppConfig.ready``) and then decide alone about
the matches of their events: who sees them, who is at their desk, who corrects them.

Also ``User``, the type of the user the services are called with.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Protocol, TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from accounts.roles import CHIEF_REFEREE, ORGANISER, REFEREE, has_role
from scoring.models import Match

User: TypeAlias = AbstractBaseUser | AnonymousUser


class EventScope(Protocol):
    """What an app that groups matches into events says about its matches, as ``Q`` objects
    over ``Match`` (so that one rule serves a list and a single match alike)."""

    def matches(self) -> Q:
        """The matches that belong to an event of the app."""

    def visible(self, user: User) -> Q:
        """Those of them the user may read."""

    def desk(self, user: User) -> Q:
        """Those the user oversees: writes, issues the PIN, confirms."""

    def correctors(self, user: User) -> Q:
        """Those whose confirmed protocol the user may correct."""


#: filled by the apps that group matches into events (``tournaments.apps``)
EVENT_SCOPES: list[EventScope] = []


def _signed_in(user: User) -> bool:
    return bool(user.is_authenticated and user.is_active)


def _standalone() -> Q | None:
    """Matches of no event (None: no app groups matches, every match is standalone)."""
    if not EVENT_SCOPES:
        return None
    return ~reduce(or_, (scope.matches() for scope in EVENT_SCOPES))


def _where(user: User, rule: str, standalone_too: bool) -> Q | None:
    """The matches ``rule`` (``visible``, ``desk``, ``correctors``) allows, with the standalone
    ones when ``standalone_too``; None: every match."""
    standalone = _standalone()
    if standalone is None:
        return None if standalone_too else Q(pk__in=[])
    parts = [getattr(scope, rule)(user) for scope in EVENT_SCOPES]
    if standalone_too:
        parts.append(standalone)
    return reduce(or_, parts)


def _allows(where: Q | None, match: Match) -> bool:
    if where is None:
        return True
    return bool(Match.objects.filter(where, pk=match.pk).exists())


def visible_matches(user: User, queryset: QuerySet[Match]) -> QuerySet[Match]:
    """``queryset`` without the matches the user may not see (a standalone one: everyone)."""
    where = _where(user, "visible", standalone_too=True)
    return queryset if where is None else queryset.filter(where)


def can_see(user: User, match: Match) -> bool:
    # The match's referee sees it under every scope's rule (a table's referee sees his table's
    # match): answered without the query, which joins the event's tables and costs the
    # referee's every write a few milliseconds of planning.
    if _signed_in(user) and match.referee_id == user.pk:
        return True
    return _allows(_where(user, "visible", standalone_too=True), match)


def is_desk(user: User) -> bool:
    """The desk roles: chief referees and organisers, at the desk of every standalone match."""
    return has_role(user, CHIEF_REFEREE) or has_role(user, ORGANISER)


def can_create(user: User) -> bool:
    return is_desk(user) or has_role(user, REFEREE)


def is_desk_for(user: User, match: Match) -> bool:
    """The desk of this match: of a standalone match the desk roles; of an event's match those
    the event names (a tournament: its organisers and chief referees)."""
    if not _signed_in(user):
        return False
    return _allows(_where(user, "desk", standalone_too=is_desk(user)), match)


def overseen_matches(user: User, queryset: QuerySet[Match]) -> QuerySet[Match]:
    """The matches the user referees or is at the desk of (the list of matches)."""
    if not _signed_in(user):
        return queryset.none()
    where = _where(user, "desk", standalone_too=is_desk(user))
    return queryset if where is None else queryset.filter(where | Q(referee=user))


def can_write(user: User, match: Match) -> bool:
    """Record, amend, delete deals and submit: the assigned referee, or the match's desk."""
    if not _signed_in(user):
        return False
    return match.referee_id == user.pk or is_desk_for(user, match)


def may_try_pin(user: User, match: Match) -> bool:
    """The captain's PIN is typed on the table referee's phone or at the desk; nobody else may
    spend its attempts (after ``MAX_PIN_FAILURES`` only the desk confirms)."""
    return can_write(user, match)


def can_correct(user: User, match: Match) -> bool:
    """Correct a confirmed protocol: a chief referee (of a standalone match: any; of an event's
    match: those the event names)."""
    if not _signed_in(user):
        return False
    standalone_too = has_role(user, CHIEF_REFEREE)
    return _allows(_where(user, "correctors", standalone_too=standalone_too), match)
