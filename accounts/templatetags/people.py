"""``{% load people %}`` and ``user|person``: a user named by the full name
(``accounts.people``)."""

from typing import Any

from django import template

from accounts.people import person as name_of

register = template.Library()


@register.filter
def person(user: Any) -> str:
    return name_of(user)
