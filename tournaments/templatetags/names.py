"""``{% load names %}`` and ``name|quoted``: a club's, an entry's or a tournament's name in «»
for a sentence, unless it carries quotation marks of its own (``config.inputs.quoted``)."""

from typing import Any

from django import template

from config.inputs import quoted as quote

register = template.Library()


@register.filter
def quoted(name: Any) -> str:
    return quote(name)
