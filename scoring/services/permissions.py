"""Who may do what with a match: create, write (record, amend, delete, submit), confirm at the
desk, correct. Every service asks here, so every caller enforces the same permissions.

Also ``ORGANISER_SCOPE``, where apps that group matches into events narrow the desk to an event's
organisers, and ``User``, the type of the user the services are called with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from accounts.roles import CHIEF_REFEREE, ORGANISER, REFEREE, has_role
from scoring.models import Match

User: TypeAlias = AbstractBaseUser | AnonymousUser


def is_desk(user: User) -> bool:
    """Chief referees and organisers: they may write, confirm and oversee any match."""
    return has_role(user, CHIEF_REFEREE) or has_role(user, ORGANISER)


def can_create(user: User) -> bool:
    return is_desk(user) or has_role(user, REFEREE)


#: Apps that group matches into events (tournaments) add ``(user, match) -> bool | None`` here:
#: ``False`` when the user organises other events but not this match's one. Scoring knows no
#: events; without an answer every organiser is at the desk for the match (a standalone match).
ORGANISER_SCOPE: list[Callable[[Any, Match], bool | None]] = []


def is_desk_for(user: User, match: Match) -> bool:
    """The desk of this match: chief referees, and organisers of the match's event."""
    if has_role(user, CHIEF_REFEREE):
        return True
    if not has_role(user, ORGANISER):
        return False
    return all(check(user, match) is not False for check in ORGANISER_SCOPE)


def can_write(user: User, match: Match) -> bool:
    """Record, amend, delete deals and submit: the assigned referee, or the match's desk."""
    if not user.is_authenticated or not user.is_active:
        return False
    return match.referee_id == user.pk or is_desk_for(user, match)


def can_correct(user: User) -> bool:
    return has_role(user, CHIEF_REFEREE)
