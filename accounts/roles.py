"""The roles of the application, kept as ``django.contrib.auth`` groups.

Group names are stable identifiers stored in the database (created by a data migration);
``label()`` gives the translated name to show.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ORGANISER = "Organiser"
CHIEF_REFEREE = "Chief referee"
REFEREE = "Referee"

ALL_ROLES: tuple[str, ...] = (ORGANISER, CHIEF_REFEREE, REFEREE)

_LABELS: dict[str, Promise] = {
    ORGANISER: _("Organiser"),
    CHIEF_REFEREE: _("Chief referee"),
    REFEREE: _("Referee"),
}


def label(role: str) -> str:
    return str(_LABELS[role])


def has_role(user: AbstractBaseUser | AnonymousUser, role: str) -> bool:
    """True for an active user in the role's group; superusers hold every role."""
    if not user.is_authenticated or not user.is_active:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return bool(user.groups.filter(name=role).exists())  # type: ignore[union-attr]


def holders(*roles: str) -> QuerySet[Any]:
    """The users ``has_role`` says hold one of ``roles``: active members of their groups, and
    active superusers (who hold every role), ordered by username."""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(Q(is_superuser=True) | Q(groups__name__in=roles)).distinct().order_by(
        "username")  # fmt: skip
