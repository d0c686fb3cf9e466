"""``{% load scoring_words %}``: numbers with the word that agrees with them in the page's
language («1 очко», «3 очка», «12 очков»; «1 point», «12 points»), so that every count a
scoring page shows follows the language's plural rule (``ngettext``)."""

from typing import Any

from django import template
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def points(value: Any) -> str:
    """«58 очков»: a number of points (what a deal writes, a total, eggs, what hangs)."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    return ngettext("%(count)s point", "%(count)s points", abs(n)) % {"count": n}
