"""The history of a match: each change bumps ``Match.version`` and writes one ``MatchVersion``
row (who, what before and after, why, and for confirmed versions the whole protocol).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from scoring.models import Match, MatchVersion
from scoring.services import compiled
from scoring.services.permissions import User


def _log(
    match: Match,
    user: User,
    action: Any,  # a MatchVersion.Action (seen as a tuple without the Django mypy plugin)
    before: Any = None,
    after: Any = None,
    reason: str = "",
    protocol: Any = None,
    confirmed: bool = False,
) -> MatchVersion:
    """Bump the version, save the match and write its history row."""
    match.version += 1
    match.save()
    return _history_row(match, user, action, before, after, reason, protocol, confirmed)


def _history_row(
    match: Match,
    user: User,
    action: Any,  # a MatchVersion.Action (seen as a tuple without the Django mypy plugin)
    before: Any,
    after: Any,
    reason: str = "",
    protocol: Any = None,
    confirmed: bool = False,
) -> MatchVersion:
    row = MatchVersion(
        match=match,
        version=match.version,
        action=action,
        user=user if user.is_authenticated else None,
        before=before,
        after=after,
        reason=reason,
        protocol=protocol,
        confirmed=confirmed,
    )
    compiled.insert(row)  # ``MatchVersion.objects.create(…)``, compiled once
    return row


#: the changes that take deals out of a protocol (``Match.deals_removed`` counts them)
REMOVING = (MatchVersion.Action.DELETE_DEAL, MatchVersion.Action.CORRECT)


def recount_removals(match_ids: Iterable[int]) -> None:
    """Set ``Match.deals_removed`` of these matches from their history: for matches whose
    history was written in bulk (an archive's import), not by the services that count."""
    removals = (
        MatchVersion.objects.filter(match=OuterRef("pk"), action__in=REMOVING)
        .order_by().values("match").annotate(n=Count("pk")).values("n")
    )  # fmt: skip
    Match.objects.filter(pk__in=list(match_ids)).update(
        deals_removed=Coalesce(Subquery(removals), 0)
    )
