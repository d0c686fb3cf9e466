"""A round's life: pairing it in Celery, the organiser's review, publication.

    start_pairing(user, tournament_id) -> Round      round N (or the failed one again) in
                                                      ``pairing``; the task is sent on commit
    run_pairing(round_id) -> str                      the task's body: "paired" or "skipped"
    fail_pairing(round_id, message)                   back to ``new`` with the error shown
    swap(user, round_id, entry_a, entry_b) -> Round   two entries change places
    set_locked(user, pairing_id, locked) -> Pairing   a locked table survives regeneration
    regenerate(user, round_id) -> Round               the unlocked rest paired again (task)
    assign_referee(user, pairing_id, referee) -> Pairing
    publish(user, round_id) -> Round
    close_tournament(user, tournament_id) -> Tournament   ``finished`` once every round is

Finishing a round (its standings snapshot) is ``results.finish_round``. Round N+1 may be paired
as soon as N is published; closing the event needs every round finished.

The bridge to the pure algorithms (``tournaments.pairing``): ``plan_round`` loads the entries,
their absences, the whole history and the latest finished round's standings snapshot in a
bounded number of queries, ranks the entries by match points then by the snapshot's order (the
tournament's tie-breaks; ``selectors.apply_standings``), builds ``Competitor``s,
calls the algorithm the tournament's format and system choose, and returns plain tables.
``run_pairing`` then writes every table and its scoring match in one transaction with the round
row locked, and only while the round is still ``pairing``: a task delivered twice, or again after
a worker died, finds the round paired and does nothing.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from accounts import audit
from accounts.roles import CHIEF_REFEREE, REFEREE, has_role
from scoring import services as scoring
from scoring.errors import ScoringError
from scoring.models import Match
from tournaments import pairing as algorithms
from tournaments import selectors
from tournaments.errors import Conflict, PairingFailed, TournamentError, Unavailable
from tournaments.models import Entry, EntryAbsence, Pairing, PairingEntry, Round, Tournament
from tournaments.pairing import Competitor, IndividualOptions, RoundPairing, SwissOptions
from tournaments.services import User, require_manager

log = logging.getLogger(__name__)

SEAT_FIELDS = {"N": "seat_n", "E": "seat_e", "S": "seat_s", "W": "seat_w"}


@dataclass(frozen=True)
class PlannedTable:
    ns: tuple[int, ...]
    ew: tuple[int, ...]
    flags: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    tables: list[PlannedTable]
    byes: list[tuple[int, tuple[str, ...]]]
    notes: list[str]


# --- starting the job -------------------------------------------------------------------------


def _send(round_id: int, task_id: str) -> None:
    """Hand the job to the broker (after the round's commit). With the broker down the round
    goes back to ``new`` with the reason, and the caller gets ``Unavailable`` (503): the round
    never waits in ``pairing`` for a job nobody has."""
    from kombu.exceptions import OperationalError

    from tournaments.tasks import pair_round

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


def round_to_pair(tournament: Tournament, last: Round | None) -> tuple[int, str]:
    """The round "pair round N" would pair, and why it cannot ("" when it can).

    A round whose job failed (``new``) is paired again; the next one waits until the last is
    published. Refusals: ``finished``, ``round_open`` (N is the open round), ``all_paired``.
    """
    if tournament.status == Tournament.Status.FINISHED:
        return (last.number if last else 0), "finished"
    if last is None:
        return 1, ""
    if last.status == Round.Status.NEW:
        return last.number, ""
    if last.status in (Round.Status.PAIRING, Round.Status.PAIRED):
        return last.number, "round_open"
    if last.number >= tournament.rounds:
        return last.number, "all_paired"
    return last.number + 1, ""


def start_pairing(user: User, tournament_id: int) -> Round:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        require_manager(user, tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict.one("finished", _("The tournament is finished."))
        last = tournament.round_set.order_by("-number").first()
        number, refusal = round_to_pair(tournament, last)
        if refusal == "round_open":
            raise Conflict.one(
                "round_open",
                _("Round %(n)s is not published yet; publish it first.") % {"n": number},
            )
        if refusal == "all_paired":
            raise Conflict.one("all_paired", _("Every round has been paired."))
        if last is not None and last.number == number:
            round_ = last  # the job failed: try again
        else:
            round_ = Round.objects.create(tournament=tournament, number=number)
        active = tournament.entries.filter(status=Entry.Status.ACTIVE)
        if active.count() < 2:
            raise TournamentError.one("too_few", _("At least two active entries are needed."))
        if tournament.status == Tournament.Status.REGISTRATION:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        before = {"status": round_.status}
        _queue(round_, user)
        audit.record(user, "round.pair", round_, tournament_id=tournament.pk, before=before,
                     after={"number": round_.number, "status": round_.status})  # fmt: skip
    return round_


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


# --- the job: plan (pure function) and write --------------------------------------------------


def _progress(round_id: int, percent: int, step: str) -> bool:
    """Visible at once to the page that polls (autocommit, outside the writing transaction)."""
    updated = Round.objects.filter(pk=round_id, status=Round.Status.PAIRING).update(
        progress=percent, step=step
    )
    return updated == 1


def _available(tournament: Tournament, number: int, excluded: set[int]) -> list[Entry]:
    """The entries to pair, with their line of the latest standings snapshot (one query)."""
    absent = EntryAbsence.objects.filter(entry__tournament=tournament, round_number=number)
    entries = (
        tournament.entries.filter(status=Entry.Status.ACTIVE, joins_round__lte=number)
        .exclude(pk__in=absent.values("entry_id"))
        .exclude(pk__in=excluded)
    )
    return list(selectors.with_snapshot(entries, tournament, number))


def _competitor(entry: Entry, rank: int, record: selectors.Record, **extra: Any) -> Competitor:
    return Competitor(
        id=entry.pk, rank=rank, score=record.score, seed=entry.seed, club=entry.club_id,
        byes=record.byes, ns_count=record.ns_count, ew_count=record.ew_count,
        last_seat=record.last_seat, opponents=frozenset(record.opponents),
        partners=frozenset(record.partners), **extra,
    )  # fmt: skip


def _team_records(
    teams: list[Entry], pairs: list[Entry], records: dict[int, selectors.Record]
) -> dict[int, selectors.Record]:
    """A team's record: its pairs' match points, and the teams its pairs met."""
    team_of = {pair.pk: pair.team_id for pair in pairs}
    totals: dict[int, selectors.Record] = {team.pk: selectors.Record() for team in teams}
    for pair in pairs:
        own, total = records.get(pair.pk), totals.get(pair.team_id or 0)
        if own is None or total is None:
            continue
        total.score += own.score
        total.byes = max(total.byes, own.byes)
        total.opponents.update(t for o in own.opponents if (t := team_of.get(o)) is not None)
    return totals


def plan_round(round_: Round) -> Plan:
    """Load what the algorithm needs (a bounded number of queries) and call it. No writes."""
    tournament = round_.tournament
    number = round_.number
    locked = set(
        PairingEntry.objects.filter(round=round_, pairing__locked=True).values_list(
            "entry_id", flat=True
        )
    )
    records = selectors.pairing_history(tournament, number)
    seed = tournament.pk * 1000 + number
    swiss_options = SwissOptions(
        round_number=number, first_round=tournament.first_round,
        avoid_same_club_until=tournament.avoid_same_club_until, random_seed=seed,
        ids_excluded=frozenset(locked),
    )  # fmt: skip
    result: RoundPairing
    if tournament.format == Tournament.Format.TEAMS:
        everyone = _available(tournament, number, locked)
        snapshot = selectors.snapshot_of(everyone)
        selectors.apply_standings(records, snapshot)
        teams = [e for e in everyone if e.team_id is None]
        pairs = sorted((e for e in everyone if e.team_id), key=lambda e: (e.seed or 10**9, e.pk))
        team_records = _team_records(teams, pairs, records)
        for team in teams:
            if team.pk in snapshot:  # the teams' table orders teams with the same points
                team_records[team.pk].standing = snapshot[team.pk].rank
        members = {t.pk: tuple(p.pk for p in pairs if p.team_id == t.pk) for t in teams}
        ranked = selectors.ranked(teams, team_records)
        competitors = [
            _competitor(t, i, team_records[t.pk], members=members[t.pk])
            for i, t in enumerate(ranked, 1)
        ]
        _require(len(competitors) >= 2, _("At least two teams are needed."))
        result = _call(algorithms.teams, competitors, swiss_options)
    else:
        entries = _available(tournament, number, locked)
        selectors.apply_standings(records, selectors.snapshot_of(entries))
        ranked = selectors.ranked(entries, records)
        empty = selectors.Record()
        competitors = [_competitor(e, i, records.get(e.pk, empty)) for i, e in enumerate(ranked, 1)]
        if tournament.format == Tournament.Format.INDIVIDUAL:
            _require(len(competitors) >= 4, _("At least four players are needed."))
            result = _call(
                algorithms.individual, competitors,
                IndividualOptions(round_number=number, random_seed=seed),
            )  # fmt: skip
        elif tournament.system == Tournament.System.ROUND_ROBIN:
            _require(len(competitors) >= 2, _("At least two entries are needed."))
            result = _round_robin(tournament, number, {c.id for c in competitors})
        else:
            _require(len(competitors) >= 2, _("At least two entries are needed."))
            result = _call(algorithms.swiss, competitors, swiss_options)
    return _as_plan(tournament, result)


def _call(algorithm: Any, *args: Any) -> RoundPairing:
    """The algorithms refuse impossible input with ValueError: a failure the organiser sees."""
    try:
        result: RoundPairing = algorithm(*args)
    except ValueError as err:
        raise PairingFailed.one("cannot_pair", str(err)) from err
    return result


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise PairingFailed.one("too_few", message)


def _round_robin(tournament: Tournament, number: int, present: set[int]) -> RoundPairing:
    """Berger tables over every active entry (the schedule must not move); a table whose
    opponent is away this round leaves the present one with a bye."""
    everyone = tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("seed", "pk")
    full = _call(algorithms.round_robin_round, [e.pk for e in everyone], number)
    tables = []
    byes = [bye for bye in full.byes if bye.id in present]
    for table in full.tables:
        here = [i for i in (*table.ns, *table.ew) if i in present]
        if len(here) == len(table.ns) + len(table.ew):
            tables.append(table)
        else:
            byes += [algorithms.Bye(i, frozenset({"bye"})) for i in here]
    return RoundPairing(tables=tuple(tables), byes=tuple(byes), notes=full.notes)


def _as_plan(tournament: Tournament, result: RoundPairing) -> Plan:
    tables: list[PlannedTable] = []
    for table in sorted(result.tables, key=lambda t: t.number):
        flags = tuple(sorted(table.flags))
        if tournament.format == Tournament.Format.TEAMS and len(table.ns) > 1:
            # one physical table per pair of each team
            tables += [PlannedTable((a,), (b,), flags) for a, b in zip(table.ns, table.ew,
                                                                        strict=True)]  # fmt: skip
        else:
            tables.append(PlannedTable(tuple(table.ns), tuple(table.ew), flags))
    byes = [(bye.id, tuple(sorted(bye.flags))) for bye in result.byes]
    seen = [i for t in tables for i in (*t.ns, *t.ew)] + [i for i, _flags in byes]
    if len(seen) != len(set(seen)):
        raise PairingFailed.one("bad_pairing", "the algorithm placed an entry twice")
    return Plan(tables, byes, list(result.notes))


def _seats(ns: Sequence[Entry], ew: Sequence[Entry]) -> dict[str, int | None]:
    """Pairs: the NS pair's players sit N and S, the EW pair's E and W. Individual format: the
    first of each side sits N (E), the partner S (W)."""

    def players(side: Sequence[Entry]) -> list[int]:
        return [p.pk for entry in side for p in entry.players.all()][:2]

    north_south, east_west = players(ns), players(ew)
    seats: dict[str, int | None] = dict.fromkeys("NESW")
    for seat, player in zip("NS", north_south, strict=False):
        seats[seat] = player
    for seat, player in zip("EW", east_west, strict=False):
        seats[seat] = player
    return seats


def _create_match(pairing: Pairing, ns: Sequence[Entry], ew: Sequence[Entry], user: Any) -> Match:
    tournament = pairing.round.tournament
    label = f"{tournament.name} · {_('round')} {pairing.round.number}"
    try:
        with override("ru"):
            return scoring.create_match(
                user=user, rules_preset=tournament.rules_preset,
                rules_options=tournament.rules_options, seats=_seats(ns, ew),
                referee=pairing.referee, label=label, table=str(pairing.table),
            )  # fmt: skip
    except ScoringError as err:
        raise PairingFailed([dict(item) for item in err.errors]) from err


def run_pairing(round_id: int) -> str:
    if not _progress(round_id, 10, "loading"):
        return "skipped"
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    plan = plan_round(round_)
    _progress(round_id, 60, "writing")
    with transaction.atomic():
        round_ = (
            Round.objects.select_for_update(of=("self",))
            .select_related("tournament", "requested_by")
            .get(pk=round_id)
        )
        if round_.status != Round.Status.PAIRING:
            return "skipped"
        user = round_.requested_by
        if user is None:
            raise PairingFailed.one("no_user", _("Nobody requested this pairing."))
        _drop_unlocked(round_)
        taken = set(round_.pairings.filter(locked=True).values_list("table", flat=True))
        numbers = (n for n in range(1, 100_000) if n not in taken)
        ids = {i for t in plan.tables for i in (*t.ns, *t.ew)} | {i for i, _f in plan.byes}
        entries = Entry.objects.prefetch_related("players").in_bulk(ids)
        # Every table, its places and its scoring match in bulk: a fixed number of queries
        # however large the field (2,000 pairs are 1,000 tables).
        tables = []
        for planned in plan.tables:
            ns = [entries[i] for i in planned.ns]
            ew = [entries[i] for i in planned.ew]
            tables.append((next(numbers), planned, ns, ew, _seats(ns, ew)))
        label = f"{round_.tournament.name} · {_('round')} {round_.number}"
        tournament = round_.tournament
        specs = [
            scoring.MatchSpec(tournament.rules_preset, tournament.rules_options,
                              seats=seats, label=label, table=str(number))
            for number, _planned, _ns, _ew, seats in tables
        ]  # fmt: skip
        try:
            with override("ru"):
                matches = scoring.create_matches(user, specs)
        except ScoringError as err:
            raise PairingFailed([dict(item) for item in err.errors]) from err
        pairings = Pairing.objects.bulk_create(
            Pairing(round=round_, table=number, flags=list(planned.flags), match=match,
                    **{f"{SEAT_FIELDS[s]}_id": p for s, p in seats.items()})
            for (number, planned, _ns, _ew, seats), match in zip(tables, matches, strict=True)
        )  # fmt: skip
        byes = Pairing.objects.bulk_create(
            Pairing(round=round_, table=None, flags=list(flags)) for _id, flags in plan.byes
        )
        PairingEntry.objects.bulk_create(
            [PairingEntry(pairing=pairing, round=round_, entry=entry, side=side,
                          position=position)
             for pairing, (_n, _p, ns, ew, _s) in zip(pairings, tables, strict=True)
             for side, group in (("NS", ns), ("EW", ew))
             for position, entry in enumerate(group)]
            + [PairingEntry(pairing=bye, round=round_, entry_id=entry_id,
                            side=PairingEntry.Side.BYE)
               for bye, (entry_id, _flags) in zip(byes, plan.byes, strict=True)]
        )  # fmt: skip
        _pause_for_fault_tests()
        round_.status = Round.Status.PAIRED
        round_.progress, round_.step, round_.error = 100, "done", ""
        round_.notes = plan.notes
        round_.paired_at = timezone.now()
        round_.save()
    return "paired"


def _pause_for_fault_tests() -> None:
    """``PAIRING_FAULT_TEST_PAUSE=<seconds>``: wait inside the writing transaction, every table
    written but not committed, so that ``tests_faults`` can kill the worker there. Unset (always,
    outside those tests) it does nothing."""
    pause = os.environ.get("PAIRING_FAULT_TEST_PAUSE")
    if pause:
        time.sleep(float(pause))


def _drop_unlocked(round_: Round) -> None:
    """Delete the round's unlocked tables and byes with their (still empty) matches."""
    pairings = list(round_.pairings.filter(locked=False).select_related("match"))
    matches = [p.match for p in pairings if p.match is not None]
    for match in matches:
        _require_blank(match)
    Pairing.objects.filter(pk__in=[p.pk for p in pairings]).delete()
    Match.objects.filter(pk__in=[m.pk for m in matches]).delete()


def _require_blank(match: Match) -> None:
    if match.status != Match.Status.DRAFT or match.deals.exists():
        raise Conflict.one(
            "match_started",
            _("Table %(table)s already has deals recorded; it cannot change.")
            % {"table": match.table},
        )


def fail_pairing(round_id: int, message: str) -> None:
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status != Round.Status.PAIRING:
            return
        round_.status = Round.Status.NEW
        round_.error = message[:2000]
        round_.progress, round_.step = 0, "failed"
        round_.save()


# --- review -----------------------------------------------------------------------------------


def _renew_match(pairing: Pairing, user: Any) -> None:
    """A table's seats or referee changed: its blank match is replaced by a new one."""
    if pairing.table is None:
        return
    old = pairing.match
    if old is not None:
        _require_blank(old)
    places = list(pairing.places.select_related("entry").prefetch_related("entry__players"))
    ns = [p.entry for p in places if p.side == "NS"]
    ew = [p.entry for p in places if p.side == "EW"]
    for seat, player in _seats(ns, ew).items():
        setattr(pairing, f"{SEAT_FIELDS[seat]}_id", player)
    pairing.match = None
    pairing.save()
    if old is not None:
        old.delete()
    pairing.match = _create_match(pairing, ns, ew, user)
    pairing.save(update_fields=["match"])


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
            _renew_match(pairing, user)
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
        _drop_unlocked(round_)
        _queue(round_, user)
        audit.record(user, "round.regenerate", round_, tournament_id=round_.tournament_id,
                     before=before, after={"status": round_.status, "locked_tables": kept})
    return round_


def assign_referee(user: User, pairing_id: int, referee: AbstractBaseUser | None) -> Pairing:
    with transaction.atomic():
        pairing = Pairing.objects.select_related("match").get(pk=pairing_id)
        round_ = _locked_round(user, pairing.round_id, Round.Status.PAIRED, Round.Status.PUBLISHED)
        if pairing.table is None:
            raise TournamentError.one("bye", _("A bye has no table to referee."), "table")
        if referee is not None and not (has_role(referee, REFEREE)
                                        or has_role(referee, CHIEF_REFEREE)):  # fmt: skip
            raise TournamentError.one(
                "not_referee", _("%(name)s is not a referee.") % {"name": referee}, "referee"
            )
        before = {"table": pairing.table, "referee": pairing.referee_id}
        pairing.referee = referee  # type: ignore[assignment]
        pairing.round = round_
        _renew_match(pairing, user)
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


# --- closing the event ------------------------------------------------------------------------


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
