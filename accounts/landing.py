"""Where a user lands after signing in: where their work is.

    organiser        «My tournaments» (``/manage/``): the tournaments he runs, and the desk
    chief referee    the protocols waiting for his confirmation (the list of matches, filtered)
    referee          his tables (the list of matches, filtered to those he referees)
    anyone else      the home page

One who holds several roles lands where the widest of them works (a superuser holds every
role: an organiser). A safe ``?next=`` goes first (``accounts.views.LoginView``). Pages are
named by their URL names only: accounts imports nothing of the apps whose pages they are.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from accounts.roles import ALL_ROLES, CHIEF_REFEREE, ORGANISER, REFEREE


def _roles(user: Any) -> set[str]:
    if not user.is_authenticated or not user.is_active:
        return set()
    if user.is_superuser:
        return set(ALL_ROLES)
    return set(user.groups.values_list("name", flat=True))


def landing(user: Any) -> str:
    roles = _roles(user)
    if ORGANISER in roles:
        return reverse("tournaments:manage_list")
    if CHIEF_REFEREE in roles:
        return reverse("scoring:list") + "?status=submitted"
    if REFEREE in roles:
        return reverse("scoring:list") + "?mine=1"
    return reverse("tournaments:home")
