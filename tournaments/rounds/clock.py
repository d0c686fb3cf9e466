"""The round clock: the organiser starts, pauses, resumes and extends a published round's time
limit; the server's clock is the truth, and every table's match is told when its time runs out.

    start_clock(user, round_id, minutes=None) -> Round   the tournament's ``round_minutes``
                                                         unless ``minutes`` is given
    pause_clock(user, round_id) -> Round
    resume_clock(user, round_id) -> Round
    extend_clock(user, round_id, minutes) -> Round       minutes added to the limit

What the pages show is ``Round.clock_json`` (the model computes the end from these columns).

Each change is one transaction with the round locked, audited (``round.clock_*``), and writes
the clock on every table's match (``scoring.services.set_clock``), where the referee's write
reads it without a query: a deal recorded after the end gets ``time_up`` and ends the match
(the rule is in ``scoring.services.clock``). The clock runs out at start + limit + minutes added
+ the time it stood paused. Only the tournament's organisers change it (as they publish and
finish rounds); only a published round has one. Refusals: ``not_organiser`` (403),
``round_state``/``clock_*`` (409), ``minutes`` (400).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from scoring import services as scoring
from tournaments.access import User, require_manager
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Pairing, Round

#: bounds of a limit and of one extension, in minutes (a day's session at most)
MAX_LIMIT = 600
MAX_EXTENSION = 120
#: the minutes added to one round in all (the column is a small integer: unbounded, the 273rd
#: extension of 120 overflowed it)
MAX_EXTRA = 600

_FIELDS = ("clock_minutes", "clock_extra_minutes", "clock_started_at", "clock_paused_at",
           "clock_paused_seconds")  # fmt: skip


def _minutes(value: Any, most: int) -> int:
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        minutes = 0
    if not 1 <= minutes <= most:
        raise TournamentError.one(
            "minutes", _("Give a whole number of minutes from 1 to %(most)s.") % {"most": most},
            "minutes",
        )
    return minutes


def _locked(user: User, round_id: int) -> Round:
    round_ = (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_id)
    )
    require_manager(user, round_.tournament)
    if round_.status != Round.Status.PUBLISHED:
        raise Conflict.one(
            "round_state",
            _("Round %(n)s is %(status)s; its clock runs only while it is published.")
            % {"n": round_.number, "status": round_.get_status_display()},
        )
    return round_


def _started(round_: Round) -> None:
    if round_.clock_started_at is None:
        raise Conflict.one("clock_not_started", _("The round's clock has not been started."))


def _save(user: User, round_: Round, action: str, before: dict[str, Any]) -> Round:
    round_.save(update_fields=list(_FIELDS))
    matches = Pairing.objects.filter(round=round_, match__isnull=False).values_list("match_id",
                                                                                   flat=True)
    end = round_.clock_ends_at()
    scoring.set_clock(matches, ends_at=end, paused_left=round_.clock_paused_left())
    after = audit.snapshot(round_, _FIELDS)
    after["ends_at"] = end.isoformat() if end else None
    audit.record(user, action, round_, tournament_id=round_.tournament_id, before=before,
                 after=after)  # fmt: skip
    return round_


def start_clock(user: User, round_id: int, minutes: Any = None) -> Round:
    with transaction.atomic():
        round_ = _locked(user, round_id)
        if round_.clock_started_at is not None:
            raise Conflict.one("clock_started", _("The round's clock is already running; "
                                                  "pause it or add minutes instead."))
        if minutes in (None, ""):
            minutes = round_.tournament.round_minutes
            if minutes is None:
                raise TournamentError.one(
                    "minutes", _("The tournament has no time limit per round; give the "
                                 "minutes."), "minutes")  # fmt: skip
        before = audit.snapshot(round_, _FIELDS)
        round_.clock_minutes = _minutes(minutes, MAX_LIMIT)
        round_.clock_extra_minutes = 0
        round_.clock_started_at = timezone.now()
        round_.clock_paused_at = None
        round_.clock_paused_seconds = 0
        return _save(user, round_, "round.clock_start", before)


def pause_clock(user: User, round_id: int) -> Round:
    with transaction.atomic():
        round_ = _locked(user, round_id)
        _started(round_)
        if round_.clock_paused_at is not None:
            raise Conflict.one("clock_paused", _("The round's clock is already paused."))
        before = audit.snapshot(round_, _FIELDS)
        round_.clock_paused_at = timezone.now()
        return _save(user, round_, "round.clock_pause", before)


def resume_clock(user: User, round_id: int) -> Round:
    with transaction.atomic():
        round_ = _locked(user, round_id)
        _started(round_)
        if round_.clock_paused_at is None:
            raise Conflict.one("clock_running", _("The round's clock is not paused."))
        before = audit.snapshot(round_, _FIELDS)
        stood = timezone.now() - round_.clock_paused_at
        round_.clock_paused_seconds += max(0, int(stood.total_seconds()))
        round_.clock_paused_at = None
        return _save(user, round_, "round.clock_resume", before)


def extend_clock(user: User, round_id: int, minutes: Any) -> Round:
    """Add ``minutes`` to the limit; also after it ran out (a match the clock already ended
    stays ended: its protocol is the chief referee's to correct)."""
    with transaction.atomic():
        round_ = _locked(user, round_id)
        _started(round_)
        added = _minutes(minutes, MAX_EXTENSION)
        if round_.clock_extra_minutes + added > MAX_EXTRA:
            raise TournamentError.one(
                "minutes", _("At most %(most)s minutes may be added to a round in all; "
                             "%(added)s have been added.")
                % {"most": MAX_EXTRA, "added": round_.clock_extra_minutes}, "minutes",
            )  # fmt: skip
        before = audit.snapshot(round_, _FIELDS)
        round_.clock_extra_minutes += added
        return _save(user, round_, "round.clock_extend", before)
