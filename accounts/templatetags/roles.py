"""``{% load roles %}`` and ``user|roles``: the role names of the user (one query per request,
remembered on the user object), so that the header shows each role its links."""

from typing import Any

from django import template

from accounts.roles import ALL_ROLES

register = template.Library()


@register.filter
def roles(user: Any) -> frozenset[str]:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, "_role_names", None)
    if cached is None:
        names = set(user.groups.values_list("name", flat=True))
        if user.is_superuser:
            names |= set(ALL_ROLES)
        cached = frozenset(names)
        user._role_names = cached
    return cached
