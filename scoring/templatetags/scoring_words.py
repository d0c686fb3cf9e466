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


@register.filter
def clock_time(value: Any) -> str:
    """«39:05», «1:02:00»: seconds as the round clock shows them (``static/js/clock.js``)."""
    try:
        seconds = max(0, int(value))
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
