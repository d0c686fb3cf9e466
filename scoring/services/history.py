"""The history of a match: each change bumps ``Match.version`` and writes one ``MatchVersion``
row (who, what before and after, why, and for confirmed versions the whole protocol).
"""

from __future__ import annotations

from typing import Any

from scoring.models import Match, MatchVersion
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
    return MatchVersion.objects.create(
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
