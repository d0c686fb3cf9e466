"""The checks a change of a protocol passes first: the match row locked, the writer allowed,
the client's version current (else ``Conflict``), the protocol still editable.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.errors import Conflict, NotAllowed, error
from scoring.models import Match
from scoring.services.compiled import lock_match
from scoring.services.permissions import User, can_write

EDITABLE = (Match.Status.DRAFT, Match.Status.IN_PLAY)


def _lock(match_id: int) -> Match:
    # ``Match.objects.select_for_update().get(pk=match_id)``, compiled once per process
    return lock_match(match_id)


def _check_version(match: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != match.version:
        raise Conflict(
            [error("stale_version",
                   _("The protocol was changed on another device (version %(current)s, "
                     "you had %(yours)s). Reload it and try again.")
                   % {"current": match.version, "yours": expected_version},
                   "expected_version")],
            match,
        )  # fmt: skip


def _require_editable(match: Match) -> None:
    if match.status not in EDITABLE:
        raise Conflict(
            [error("not_editable",
                   _("The protocol has been submitted; deals can no longer be changed."))],
            match,
        )  # fmt: skip


def _require_writer(user: User, match: Match) -> None:
    if not can_write(user, match):
        raise NotAllowed.one(
            "not_referee", _("Only the match's referee or the chief referee may change it.")
        )
