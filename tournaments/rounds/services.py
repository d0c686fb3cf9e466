"""A round's life: asking for its pairing, the organiser's review, publication, finishing it.

    start_pairing(user, tournament_id, override_reason="") -> Round
                                        round N (or the failed one again) in ``pairing``; the
                                        task is sent on commit
    swap(user, round_id, entry_a, entry_b) -> Round   two entries change places
    set_locked(user, pairing_id, locked) -> Pairing   a locked table survives regeneration
    regenerate(user, round_id) -> Round               the unlocked rest paired again (task)
    assign_referee(user, pairing_id, referee) -> Pairing
    publish(user, round_id) -> Round
    finish_round(user, round_id) -> Round             every table decided: ``finished``, the
                                                      standings snapshot taken (audited); a
                                                      knock-out round's winners paired next
    start_final_stage(user, tournament_id) -> Round   the knock-out seeded, its round paired
    close_tournament(user, tournament_id) -> Tournament   ``finished`` once every round is

Round N+1 is paired once round N is finished, or earlier with the organiser's reason (logged):
``rounds.order``. Closing the event needs every round finished. The pairing itself is
``rounds.planning`` (what) and ``rounds.job`` (writing it, in Celery); a table's match is
changed in place by ``rounds.tables``.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from accounts.roles import CHIEF_REFEREE, REFEREE, has_role
from scoring.models import Match
from tournaments import ratings
from tournaments.access import User, can_manage, require_manager
from tournaments.errors import Conflict, NotAllowed, TournamentError, Unavailable
from tournaments.models import (
    Entry,
    Pairing,
    PairingEntry,
    Round,
    Sanction,
    Stage,
    Tournament,
)
from tournaments.results import take_snapshot
from tournaments.rounds.job import fail_pairing
from tournaments.rounds.order import override_reason as reason_for
from tournaments.rounds.order import turn_of
from tournaments.rounds.tables import drop_unlocked, reseat_table
from tournaments.stages import bracket as brackets
from tournaments.stages import services as stages

log = logging.getLogger(__name__)


def _send(round_id: int, task_id: str) -> None:
    """Hand the job to the broker (after the round's commit). With the broker down the round
    goes back to ``new`` with the reason, and the caller gets ``Unavailable`` (503): the round
    never waits in ``pairing`` for a job nobody has."""
    from kombu.exceptions import OperationalError

    from tournaments.rounds.tasks import pair_round

    try:
        pair_round.apply_async(args=[round_id], task_id=task_id)
    except OperationalError as exc:
        log.error("pairing round %s: the broker is unreachable: %s", round_id, exc)
        message = _("The task queue is unreachable; nothing was paired. Try again in a minute.")
        fail_pairing(round_id, str(message))
        raise Unavailable.one("queue_unavailable", message) from exc


def _queue(round_: Round, user: User | None) -> None:
    round_.status = Round.Status.PAIRING
    round_.task_id = uuid.uuid4().hex
    round_.error = ""
    round_.progress = 0
    round_.step = "queued"
    round_.pairing_started_at = timezone.now()
    if user is not None and user.is_authenticated:
        round_.requested_by = user  # type: ignore[assignment]
    round_.save()
    round_id, task_id = round_.pk, round_.task_id
    transaction.on_commit(lambda: _send(round_id, task_id))


def start_pairing(user: User, tournament_id: int, override_reason: str = "") -> Round:
    """Pair the next round (or the failed one again): round N+1 only once round N is
    finished, unless ``override_reason`` says why it must be now (``rounds.order``)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        require_manager(user, tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict.one("finished", _("The tournament is finished."))
        # Read under the tournament's lock: no other pairing starts meanwhile, and a round
        # only ever moves on (a round finished meanwhile just makes the override needless).
        statuses = dict(tournament.round_set.values_list("number", "status"))
        turn, stage = turn_of(tournament, statuses)
        knockout = stage is not None and stage.started and turn.number > tournament.rounds
        if turn.refusal == "stage_not_started":
            raise Conflict.one("stage_not_started", _("Every qualifying round has been paired; "
                                                      "start the final stage next."))  # fmt: skip
        if knockout and turn.refusal == "previous_open":
            # a knock-out's next games are its winners': no reason can pair them earlier
            raise Conflict.one(
                "previous_round_open",
                _("Finish round %(n)s first: the knock-out's next games follow from its "
                  "results.") % {"n": turn.previous},
            )  # fmt: skip
        if turn.refusal == "round_open":
            raise Conflict.one(
                "round_open",
                _("Round %(n)s is not published yet; publish it first.") % {"n": turn.number},
            )
        if turn.refusal == "all_paired":
            raise Conflict.one("all_paired", _("Every round has been paired."))
        reason = reason_for(turn, override_reason)
        if turn.number == 1:
            stages.freeze_groups(tournament)  # groups are dealt as round 1 is paired
        if turn.number in statuses:
            round_ = tournament.round_set.get(number=turn.number)  # the job failed: again
        else:
            round_ = Round.objects.create(tournament=tournament, number=turn.number,
                                          stage=stage if knockout else None)  # fmt: skip
        active = tournament.entries.filter(status=Entry.Status.ACTIVE)
        if active.count() < 2:
            raise TournamentError.one("too_few", _("At least two active entries are needed."))
        if tournament.status == Tournament.Status.REGISTRATION:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        before = {"status": round_.status}
        _queue(round_, user)
        after: dict[str, Any] = {"number": round_.number, "status": round_.status}
        if reason:
            after |= {"override_reason": reason, "previous_round": turn.previous,
                      "previous_status": statuses[turn.previous]}  # fmt: skip
        audit.record(user, "round.pair", round_, tournament_id=tournament.pk, before=before,
                     after=after)  # fmt: skip
    return round_


def start_final_stage(user: User, tournament_id: int) -> Round:
    """The qualifying stage is over: seed the final stage (``stages.start``) and pair its first
    round, in one transaction."""
    with transaction.atomic():
        stages.start(user, tournament_id)
        return start_pairing(user, tournament_id)


def _pair_next_knockout(user: User, round_: Round) -> None:
    """A knock-out round just finished: its winners' games are paired at once (the same job),
    unless the bracket is over. Called inside ``finish_round``'s transaction."""
    tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
    stage = round_.stage
    assert stage is not None
    if brackets.load(stage, statuses=(Round.Status.FINISHED,)).finished:
        return
    if tournament.round_set.filter(number__gt=round_.number).exists():
        return  # paired already (by the organiser's button)
    nxt = Round.objects.create(tournament=tournament, number=round_.number + 1, stage=stage)
    _queue(nxt, user)
    audit.record(user, "round.pair", nxt, tournament_id=tournament.pk,
                 before={"status": Round.Status.NEW},
                 after={"number": nxt.number, "status": nxt.status, "knockout": True})  # fmt: skip


def _locked_round(user: User, round_id: int, *statuses: str) -> Round:
    round_ = (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_id)
    )
    require_manager(user, round_.tournament)
    if statuses and round_.status not in statuses:
        raise Conflict.one(
            "round_state",
            _("Round %(n)s is %(status)s; that cannot be done now.")
            % {"n": round_.number, "status": round_.get_status_display()},
        )
    return round_


def swap(user: User, round_id: int, entry_a: int, entry_b: int) -> Round:
    """Entries ``entry_a`` and ``entry_b`` change places (table and side, or a bye)."""
    with transaction.atomic():
        round_ = _locked_round(user, round_id, Round.Status.PAIRED)
        places = {p.entry_id: p for p in PairingEntry.objects.select_related("pairing").filter(
            round=round_, entry_id__in=[entry_a, entry_b])}  # fmt: skip
        if len(places) != 2 or entry_a == entry_b:
            raise TournamentError.one(
                "not_in_round", _("Choose two different entries of this round."), "entries"
            )
        if round_.stage_id is not None:
            raise Conflict.one("knockout", _("A final stage's round follows its bracket or "
                                             "its schedule; its tables cannot be swapped."))
        a, b = places[entry_a], places[entry_b]
        before = {str(p.entry_id): {"table": p.pairing.table, "side": p.side} for p in (a, b)}
        if a.pairing_id == b.pairing_id:
            raise TournamentError.one(
                "same_table", _("These entries already play at the same table."), "entries"
            )
        if a.pairing.locked or b.pairing.locked:
            raise Conflict.one("locked", _("A locked table cannot change; unlock it first."))
        a.pairing, b.pairing = b.pairing, a.pairing
        a.side, b.side = b.side, a.side
        a.position, b.position = b.position, a.position
        for place in (a, b):
            place.save(update_fields=["pairing", "side", "position"])
        for pairing in (a.pairing, b.pairing):
            pairing.flags = sorted(set(pairing.flags) | {"swapped"})
            pairing.save(update_fields=["flags"])
            # in place, the match locked: refused (and all of this rolled back) once a deal
            # is recorded at the table
            reseat_table(pairing, user)
        after = {str(p.entry_id): {"table": p.pairing.table, "side": p.side} for p in (a, b)}
        audit.record(user, "round.swap", round_, tournament_id=round_.tournament_id,
                     before=before, after=after)  # fmt: skip
    return round_


def set_locked(user: User, pairing_id: int, locked: bool) -> Pairing:
    with transaction.atomic():
        pairing = Pairing.objects.get(pk=pairing_id)
        round_ = _locked_round(user, pairing.round_id, Round.Status.PAIRED)
        before = {"table": pairing.table, "locked": pairing.locked}
        pairing.locked = locked
        pairing.save(update_fields=["locked"])
        if before["locked"] != locked:
            audit.record(user, "pairing.lock" if locked else "pairing.unlock", pairing,
                         tournament_id=round_.tournament_id, before=before,
                         after={"table": pairing.table, "locked": locked})  # fmt: skip
    return pairing


def regenerate(user: User, round_id: int) -> Round:
    with transaction.atomic():
        round_ = _locked_round(user, round_id, Round.Status.PAIRED)
        if not round_.pairings.filter(locked=False).exists():
            raise Conflict.one("all_locked", _("Every table is locked; nothing to pair again."))
        kept = sorted(round_.pairings.filter(locked=True).values_list("table", flat=True))
        before = {"status": round_.status}
        # Now, not in the job: from here on nobody can start to play at a table about to go,
        # and a table already started refuses the whole request (409 naming it).
        drop_unlocked(round_, user)
        _queue(round_, user)
        audit.record(user, "round.regenerate", round_, tournament_id=round_.tournament_id,
                     before=before, after={"status": round_.status, "locked_tables": kept})
    return round_


def assign_referee(user: User, pairing_id: int,
                   referee: AbstractBaseUser | int | None) -> Pairing:  # fmt: skip
    """The table's referee, on the pairing and in its match in place (the deals stay): while
    the protocol is in play, not once it is handed in (409). ``referee``: a user, a user's id
    (an unknown one is refused), or None for nobody."""
    if referee is not None and not isinstance(referee, AbstractBaseUser):
        found = get_user_model().objects.filter(pk=referee).first()
        if found is None:
            raise TournamentError.one("unknown_referee", _("No such referee."), "referee")
        referee = found
    with transaction.atomic():
        round_id = Pairing.objects.values_list("round_id", flat=True).get(pk=pairing_id)
        round_ = _locked_round(user, round_id, Round.Status.PAIRED, Round.Status.PUBLISHED)
        # read again under the round's lock: a swap may have just moved it
        pairing = Pairing.objects.get(pk=pairing_id)
        if pairing.table is None:
            raise TournamentError.one("bye", _("A bye has no table to referee."), "table")
        if pairing.referee_id == (referee.pk if referee is not None else None):
            # the referee list sent back unchanged: nothing to do (renewing the match would
            # give the table a new protocol, and the printed one's QR code would lead nowhere)
            return pairing
        if referee is not None and not (has_role(referee, REFEREE)
                                        or has_role(referee, CHIEF_REFEREE)):  # fmt: skip
            raise TournamentError.one(
                "not_referee", _("%(name)s is not a referee.") % {"name": referee}, "referee"
            )
        before = {"table": pairing.table, "referee": pairing.referee_id}
        pairing.round = round_
        reseat_table(pairing, user, seats=False, referee=referee)
        if before["referee"] != pairing.referee_id:
            audit.record(user, "pairing.referee", pairing, tournament_id=round_.tournament_id,
                         before=before, after={"table": pairing.table,
                                               "referee": pairing.referee_id})  # fmt: skip
    return pairing


def publish(user: User, round_id: int) -> Round:
    with transaction.atomic():
        round_ = _locked_round(user, round_id, Round.Status.PAIRED)
        round_.status = Round.Status.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["status", "published_at"])
        audit.record(user, "round.publish", round_, tournament_id=round_.tournament_id,
                     before={"status": Round.Status.PAIRED},
                     after={"status": round_.status})  # fmt: skip
    return round_


def close_tournament(user: User, tournament_id: int) -> Tournament:
    """The event is over: ``finished`` once every round that exists is finished (a tournament
    may end before its planned number of rounds). Already finished: returned as it is.

    Refusals: ``not_organiser`` (403), ``no_rounds`` and ``rounds_open`` (409, which rounds)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        require_manager(user, tournament)
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        statuses = dict(tournament.round_set.values_list("number", "status"))
        if not statuses:
            raise Conflict.one("no_rounds", _("No round has been played yet."))
        open_rounds = sorted(n for n, s in statuses.items() if s != Round.Status.FINISHED)
        if open_rounds:
            raise Conflict.one(
                "rounds_open",
                _("Finish every round first; not finished: %(rounds)s.")
                % {"rounds": ", ".join(map(str, open_rounds))},
            )
        before = {"status": tournament.status}
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        audit.record(user, "tournament.close", tournament, tournament_id=tournament.pk,
                     before=before, after={"status": tournament.status})  # fmt: skip
    return tournament


# --- finishing a round ---------------------------------------------------------------------------


def _locked_round_to_finish(user: User, round_id: int) -> Round:
    round_ = (
        Round.objects.select_for_update(of=("self",)).select_related("tournament", "stage")
        .get(pk=round_id)
    )
    if not can_manage(user, round_.tournament):
        raise NotAllowed.one("not_allowed", _("You do not manage this tournament."))
    return round_


def finish_round(user: Any, round_id: int) -> Round:
    """Close a published round whose every table is confirmed or forfeited; take its standings
    snapshot (``results.take_snapshot``). Audited when the round's status changed; finishing a
    finished round returns it as it is."""
    with transaction.atomic():
        round_ = _locked_round_to_finish(user, round_id)
        # judged under the round's lock: of two finishes at once the second waits, finds the
        # round finished and changes (and logs) nothing
        if round_.status == Round.Status.FINISHED:
            return round_
        if round_.status != Round.Status.PUBLISHED:
            raise Conflict.one("not_published", _("Only a published round can be finished."))
        forfeited = set(
            Sanction.objects.filter(tournament=round_.tournament, kind=Sanction.Kind.FORFEIT,
                                    revoked_at__isnull=True, pairing__round=round_)
            .values_list("pairing_id", flat=True)
        )  # fmt: skip
        open_tables = sorted(
            round_.pairings.filter(table__isnull=False)
            .exclude(match__status=Match.Status.CONFIRMED)
            .exclude(pk__in=forfeited)
            .values_list("table", flat=True)
        )
        if open_tables:
            raise Conflict.one(
                "tables_open",
                _("Tables not confirmed yet: %(tables)s.")
                % {"tables": ", ".join(map(str, open_tables))},
            )
        round_.status = Round.Status.FINISHED
        round_.finished_at = timezone.now()
        round_.save(update_fields=["status", "finished_at"])
        take_snapshot(round_)
        # every finished round moves the ratings (a Celery task once this commits)
        ratings.schedule(round_.tournament_id)
        if round_.stage is not None and round_.stage.kind == Stage.Kind.KNOCKOUT:
            _pair_next_knockout(user, round_)
        audit.record(user, "round.finish", round_, tournament_id=round_.tournament_id,
                     before={"status": Round.Status.PUBLISHED},
                     after={"status": round_.status})  # fmt: skip
    return round_
