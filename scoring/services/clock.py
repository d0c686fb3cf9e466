"""A match's clock: when its time runs out, as the event it belongs to says, and the rule that
turns the clock into the ``time_up`` of a deal (RULES.md section 10).

    set_clock(match_ids, ends_at=None, paused_left=None)   the event's clock pushed to its
                                                          matches (not a protocol change)
    clock_state(match, now=None) -> ClockState | None      what the pages show; None: no clock
    stamp_time_up(match, record, records, now=None) -> bool
    refuse_early_time_up(match, record, now=None)         a referee's ``time_up`` while the
                                                          clock runs (or stands paused): refused

**The rule.** When a deal is recorded (``record_deal``, the referee's page or the API) at or
after the moment the clock ran out, and no stored deal carries ``time_up`` yet, the server
writes ``time_up: true`` into it, whatever the phone sent: the deal in play when time ran out
is the last one, and the engine ends the match after it (the side ahead wins; equal totals as
``time_tie`` says). The server decides, so a phone whose page was stale or offline cannot play
on. The rule reads the moment the deal *reaches* the server: a deal played before the limit but
sent from an offline queue after it is stamped too (the deals kept behind it are then refused
as ``deal_after_end``), which the chief referee puts right with a correction. A paper protocol
copied at the desk (``record_deals``) is not stamped: the paper says where time ran out.

**Only the clock ends a clocked match by time.** While a match's clock runs or stands paused, a
deal that says ``time_up`` is refused (``time_not_up``): a referee's phone (or a hand-made
request) must not end a match «by time» before the time is up. Without a clock the referee's
``time_up`` stands as before; after the clock ran out it agrees with the server anyway.

A stamped deal remembers it (``Deal.time_up_by_clock``), so the phone's retry of that deal
(without ``time_up``) is still the same deal (``scoring.services.deals``), and amending it keeps
the mark. A paused clock never runs out. Nothing here reads another app: the tournaments app
writes the two columns of each table's match when its organiser starts, pauses, resumes or
extends a round's clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import DealRefused, error
from scoring.models import Match


@dataclass(frozen=True)
class ClockState:
    """A clock at ``now``: running to ``ends_at``, or paused with ``left`` seconds."""

    now: datetime
    ends_at: datetime | None
    paused: bool
    left: float

    @property
    def time_up(self) -> bool:
        return not self.paused and self.left <= 0

    def as_json(self) -> dict[str, Any]:
        """What ``static/js/clock.js`` reads: the server's time (for the device's offset), the
        end, and whether it stands paused."""
        return {
            "now": self.now.isoformat(),
            "ends_at": self.ends_at.isoformat() if self.ends_at else None,
            "paused": self.paused,
            "left": max(0, round(self.left)),
            "time_up": self.time_up,
        }


def set_clock(match_ids: Iterable[int], ends_at: datetime | None = None,
              paused_left: int | None = None) -> int:
    """Write the event's clock on its matches: running to ``ends_at``, or paused with
    ``paused_left`` seconds, or neither (no clock). The protocol's version is not bumped: the
    clock is not part of the protocol, and a phone's pending write must not be refused for it."""
    return Match.objects.filter(pk__in=list(match_ids)).update(
        clock_ends_at=ends_at, clock_paused_left=paused_left
    )


def clock_state(match: Match, now: datetime | None = None) -> ClockState | None:
    now = now or timezone.now()
    if match.clock_paused_left is not None:
        return ClockState(now, None, True, float(match.clock_paused_left))
    if match.clock_ends_at is None:
        return None
    return ClockState(now, match.clock_ends_at, False, (match.clock_ends_at - now).total_seconds())


def stamp_time_up(match: Match, record: dict[str, Any], records: Sequence[Mapping[str, Any]],
                  now: datetime | None = None) -> bool:
    """Set ``record["time_up"]`` when the match's clock has run out and no stored deal carries
    it yet (the module's rule). True when the server set it (the record did not say so)."""
    if record.get("time_up") is True or match.clock_ends_at is None:
        return False
    if (now or timezone.now()) < match.clock_ends_at:
        return False
    if any(r.get("time_up") is True for r in records):
        # the match ended by time already (or plays its extra deal after a tie): the engine
        # decides what the next deal is, the clock adds nothing
        return False
    record["time_up"] = True
    return True


def refuse_early_time_up(match: Match, record: Mapping[str, Any],
                         now: datetime | None = None) -> None:
    """Refuse a ``time_up`` the clock does not confirm (the module's second rule)."""
    if record.get("time_up") is not True:
        return
    state = clock_state(match, now)
    if state is None or state.time_up:
        return
    minutes, seconds = divmod(max(0, round(state.left)), 60)
    message = (_("The round's clock is paused with %(left)s left: only the clock ends a match "
                 "by time.") if state.paused else
               _("The round's clock is still running (%(left)s left): only the clock ends a "
                 "match by time."))  # fmt: skip
    raise DealRefused([error("time_not_up", message % {"left": f"{minutes}:{seconds:02d}"},
                             field="time_up")])  # fmt: skip
