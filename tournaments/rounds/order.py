"""The order of rounds: which round "pair round N" pairs now, and the organiser's override.

    round_to_pair(tournament, statuses) -> Turn(number, refusal, previous)
    turn_of(tournament, statuses) -> (Turn, final stage)   the same, the final stage read
    override_reason(turn, reason) -> str     the reason to keep ("" when none is needed), or
                                             the refusal raised
    pairing_override(round_) -> AuditEntry | None   the logged reason a round was paired early

A round is paired from the standings after the one before it, so round N+1 is paired only once
round N is finished: every table decided and its snapshot taken (``finish_round``). Pairing it
earlier (a round without results would be paired from the round before it) needs the
organiser to say why: the reason is kept in the audit entry of the pairing (``round.pair``,
with ``override_reason`` and the previous round's status) and shown on the round's page; the
pairing then reads whatever results are confirmed. The page and the API ask the same
``rounds.start_pairing``, so they agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from django.utils.translation import gettext as _

from accounts import audit
from accounts.models import AuditEntry
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Round, Stage, Tournament
from tournaments.stages import bracket as brackets

#: the longest reason kept (a sentence or two; the audit log is not a diary)
MAX_REASON = 500


class Turn(NamedTuple):
    """``number``: the round the button pairs; ``refusal``: why it cannot ("" when it can):
    ``finished``, ``round_open`` (``number`` is paired but not published), ``all_paired``,
    ``stage_not_started`` (the qualifying rounds are paired; the final stage waits), or
    ``previous_open`` (round ``previous`` is not finished: only with a reason);
    ``previous``: the round before ``number`` (0 for round 1)."""

    number: int
    refusal: str
    previous: int


def round_to_pair(tournament: Tournament, statuses: Mapping[int, str],
                  stage: Stage | None = None, bracket_over: bool = False) -> Turn:  # fmt: skip
    """What "pair round N" would do, from the statuses of the rounds that exist (by number).
    A round whose job failed (``new``) is paired again. With a final ``stage`` the rounds go on
    after the qualifying ones: ``stage_not_started`` until the organiser starts it, then one
    round after another until the bracket is over (``bracket_over``)."""
    last = max(statuses, default=0)
    if tournament.status == Tournament.Status.FINISHED:
        return Turn(last, "finished", max(last - 1, 0))
    if not last:
        return Turn(1, "", 0)
    status = statuses[last]
    if status in (Round.Status.PAIRING, Round.Status.PAIRED):
        return Turn(last, "round_open", last - 1)
    if status == Round.Status.NEW:
        number = last  # its job failed: paired again
    elif last >= tournament.rounds:
        if stage is None or (stage.started and bracket_over):
            return Turn(last, "all_paired", last - 1)
        if not stage.started:
            return Turn(last + 1, "stage_not_started", last)
        number = last + 1
    else:
        number = last + 1
    previous = number - 1
    if previous and statuses.get(previous) != Round.Status.FINISHED:
        return Turn(number, "previous_open", previous)
    return Turn(number, "", previous)


def turn_of(tournament: Tournament, statuses: Mapping[int, str]) -> tuple[Turn, Stage | None]:
    """``round_to_pair`` with the tournament's final stage and its bracket read (a few queries
    once the knock-out has started), and that stage."""
    stage = brackets.final_stage(tournament)
    over = False
    if stage is not None and stage.started:
        over = brackets.final_over(stage)
    return round_to_pair(tournament, statuses, stage, over), stage


def override_reason(turn: Turn, reason: str | None) -> str:
    """The reason to log for pairing ``turn.number`` now: "" when the previous round is
    finished (a reason given then is not needed, and not kept); else the reason, which must be
    given (409 ``previous_round_open``) and fit (400 ``bad_reason``)."""
    if turn.refusal != "previous_open":
        return ""
    reason = (reason or "").strip()
    if not reason:
        raise Conflict.one(
            "previous_round_open",
            _("Round %(prev)s is not finished yet, and round %(n)s is paired from the standings "
              "after it. Finish round %(prev)s first (every table decided), or say why round "
              "%(n)s must be paired now.") % {"prev": turn.previous, "n": turn.number},
            "override_reason",
        )  # fmt: skip
    if len(reason) > MAX_REASON or "\x00" in reason:
        raise TournamentError.one(
            "bad_reason",
            _("The reason must be text of at most %(n)s characters.") % {"n": MAX_REASON},
            "override_reason",
        )
    return reason


def pairing_override(round_: Round) -> AuditEntry | None:
    """The latest pairing of ``round_`` that overrode the order, with who, when and why."""
    entries = audit.entries_of(round_.tournament_id).filter(
        action="round.pair", object_type="round", object_id=str(round_.pk),
        after__has_key="override_reason",
    )  # fmt: skip
    return entries.order_by("-at", "-pk").first()
