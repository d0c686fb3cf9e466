"""Who sits at a match and who referees it, changed in place; and discarding blank matches.

    reseat(match_id, user, *, seats=KEEP, referee=KEEP) -> Match
    discard_blank(user, match_ids)        delete matches in which nothing was recorded

A match is never re-created to move its players or its referee: ``reseat`` updates the row
with it locked, so a deal recorded at the same moment (``record_deal`` takes the same lock) is
either already in the match, and kept, or comes after the change. The match keeps its id, its
deals and its history; one ``MatchVersion`` row (``reassign``) says what moved, and the version
is bumped so that a screen opened before the change reloads.

The seats change only while the protocol is blank (a draft without deals): the deals recorded
name seats, so moving players under them would rewrite who played them. The referee changes
while the protocol is in play (a referee's phone dies, another takes over the table), not once
it is handed in. ``discard_blank`` deletes only matches with no deal and no history but their
creation and such changes; anything else (a deal, even one deleted again, a PIN, a submission)
is refused, and nothing is deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import Conflict, NotAllowed, ScoringError, error
from scoring.models import Match, MatchVersion
from scoring.services.creation import _seat_ids
from scoring.services.guards import EDITABLE, _lock
from scoring.services.history import _log
from scoring.services.permissions import User, is_desk, is_desk_for

#: "leave it as it is" for the arguments of ``reseat``
KEEP: Any = object()

#: history rows that leave a match blank: its creation, and its seats or referee set
BLANK_ACTIONS = (MatchVersion.Action.CREATE, MatchVersion.Action.REASSIGN)


def _started(match: Match) -> Conflict:
    return Conflict(
        [error("match_started", _("Table %(table)s already has deals recorded; it cannot "
                                  "change.") % {"table": match.table})],
        match,
    )  # fmt: skip


def reseat(
    match_id: int,
    user: User,
    *,
    seats: Mapping[str, Any] = KEEP,
    referee: AbstractBaseUser | None = KEEP,
) -> Match:
    """Set the match's seats (``{"N": player or id or None, …}``, every seat) and/or its
    referee, in place. The desk of the match only (its event's organisers, chief referees).
    Nothing to change: the match is returned as it is, with no history row."""
    with transaction.atomic():
        match = Match.objects.get(pk=match_id)
        # A handed-in protocol never becomes editable again, so it is judged (and refused)
        # without waiting for its lock: the caller may hold rows (a round) that a correction,
        # holding this match, waits for.
        if match.status in EDITABLE:
            match = _lock(match_id)
        if not is_desk_for(user, match):
            raise NotAllowed.one(
                "not_allowed", _("Only the chief referee or an organiser may reseat a match.")
            )
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        if seats is not KEEP:
            wanted = {seat: None for seat in match.seat_player_ids()}
            wanted.update(_seat_ids(match.get_rules(), seats))
            if wanted != match.seat_player_ids():
                if match.status != Match.Status.DRAFT or match.deals.exists():
                    raise _started(match)
                _check_players(wanted)
                before["seats"], after["seats"] = match.seat_player_ids(), wanted
                for seat, player_id in wanted.items():
                    setattr(match, f"seat_{seat.lower()}_id", player_id)
        referee_id = None if referee is None or referee is KEEP else referee.pk
        if referee is not KEEP and referee_id != match.referee_id:
            if match.status not in EDITABLE:
                raise Conflict(
                    [error("not_editable", _("The protocol of table %(table)s has been "
                                             "submitted; its referee cannot change.")
                           % {"table": match.table}, "referee")],
                    match,
                )  # fmt: skip
            before["referee"], after["referee"] = match.referee_id, referee_id
            match.referee = referee  # type: ignore[assignment]
        if after:
            _log(match, user, MatchVersion.Action.REASSIGN, before, after)
    return match


def _check_players(seats: Mapping[str, int | None]) -> None:
    # The seats' foreign keys are the only link to another app; no import of its models.
    player_model = Match._meta.get_field("seat_n").related_model
    wanted = {pid for pid in seats.values() if pid is not None}
    found = set(player_model._default_manager.filter(pk__in=wanted).values_list("pk", flat=True))
    for seat, player_id in seats.items():
        if player_id is not None and player_id not in found:
            raise ScoringError.one("unknown_player", _("No such player."), f"seats.{seat}")


def discard_blank(user: User, match_ids: Iterable[int]) -> None:
    """Delete these matches, all or none: refused (``Conflict`` ``match_started``, its item
    listing the ``matches`` and their ``tables``) when any holds a recorded deal or any history
    but its creation and reseating. The matches are locked first (in id order, so two callers
    cannot deadlock), so a deal being recorded is waited for and seen."""
    ids = sorted(set(match_ids))
    if not ids:
        return
    if not is_desk(user):
        raise NotAllowed.one("not_allowed", _("Only the chief referee or an organiser may "
                                              "discard a match."))  # fmt: skip
    with transaction.atomic():
        # Locked only when every one is a draft; otherwise the one past draft is refused as
        # read, without waiting: a handed-in protocol is never a draft again (one in play is,
        # by deleting its deals, which its history still shows), and one being corrected
        # must not be waited for while the caller holds its round.
        matches = list(Match.objects.filter(pk__in=ids).order_by("pk"))
        if all(m.status == Match.Status.DRAFT for m in matches):
            matches = list(Match.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
        with_deals = set(Match.objects.filter(pk__in=ids, deals__isnull=False)
                         .values_list("pk", flat=True))  # fmt: skip
        with_history = set(MatchVersion.objects.filter(match_id__in=ids)
                           .exclude(action__in=BLANK_ACTIONS)
                           .values_list("match_id", flat=True))  # fmt: skip
        started = [m for m in matches if m.status != Match.Status.DRAFT
                   or m.pk in with_deals or m.pk in with_history]  # fmt: skip
        if started:
            tables = ", ".join(m.table or str(m.pk) for m in started)
            item = error("match_started", _("Deals are already recorded at tables: %(tables)s; "
                                            "their protocols cannot be discarded.")
                         % {"tables": tables})  # fmt: skip
            item["matches"] = [m.pk for m in started]
            item["tables"] = [m.table for m in started]
            raise Conflict([item])
        Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
