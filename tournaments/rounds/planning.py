"""The bridge from the database to the pure pairing algorithms (``tournaments.pairing``).

    plan_round(round_) -> Plan     the tables of round N, not yet written

``plan_round`` loads the entries, their absences, the whole history and the latest finished
round's standings snapshot in a bounded number of queries, ranks the entries by match points then
by the snapshot's order (the tournament's tie-breaks; ``rounds.selectors.apply_standings``),
builds ``Competitor``s, calls the algorithm the tournament's format and system choose (with group
A's virtual points in an accelerated Swiss round: ``rounds.acceleration``), and returns plain
tables. A knock-out round (``Round.stage``) is paired from its bracket instead: the open
ties of ``stages.bracket.load``. It writes nothing: ``rounds.job.run_pairing`` writes them.

A planned table names its places as the sides of its match (``tournaments.formats``): the
algorithms' NS and EW sides are ``NS``/``EW`` where partners share a side and the seats ``N``/``E``
head to head; the free-for-all algorithm's players sit N, E, S, W, each his own side.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from tournaments import pairing as algorithms
from tournaments import selectors as shared_selectors
from tournaments.errors import PairingFailed
from tournaments.models import Entry, EntryAbsence, PairingEntry, Round, Tournament
from tournaments.pairing import (
    Competitor,
    FreeForAllOptions,
    IndividualOptions,
    RoundPairing,
    SwissOptions,
    knockout,
)
from tournaments.rotation import tables as rotation
from tournaments.rounds import acceleration, selectors
from tournaments.stages import bracket as brackets

SEATS = "NESW"


@dataclass(frozen=True)
class PlannedTable:
    #: (side, entry ids) in seat order: ("NS", (a, b)), ("EW", (c, d)); or ("N", (a,)), …
    sides: tuple[tuple[str, tuple[int, ...]], ...]
    flags: tuple[str, ...]

    @property
    def entries(self) -> tuple[int, ...]:
        return tuple(i for _side, ids in self.sides for i in ids)


@dataclass(frozen=True)
class Plan:
    tables: list[PlannedTable]
    byes: list[tuple[int, tuple[str, ...]]]
    notes: list[str]


def _available(tournament: Tournament, number: int, excluded: set[int]) -> list[Entry]:
    """The entries to pair, with their line of the latest standings snapshot (one query)."""
    absent = EntryAbsence.objects.filter(entry__tournament=tournament, round_number=number)
    entries = (
        tournament.entries.filter(status=Entry.Status.ACTIVE, joins_round__lte=number)
        .exclude(pk__in=absent.values("entry_id"))
        .exclude(pk__in=excluded)
    )
    return list(selectors.with_snapshot(entries, tournament, number))


def seed_by_rating(tournament: Tournament, entries: list[Entry]) -> None:
    """With the tournament's ``seed_by_rating``: each entry's seed becomes its place by rating
    (``tournaments.selectors.by_rating``: the club rating today, then the imported rating, then
    the stored seed). Only in memory: the stored seeds stay."""
    if not tournament.seed_by_rating:
        return
    order = shared_selectors.by_rating(entries, shared_selectors.entry_ratings(tournament),
                                       shared_selectors.imported_ratings(tournament))
    for position, entry in enumerate(order, start=1):
        entry.seed = position


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
        clubs=tournament.club_mode(number), random_seed=seed,
        ids_excluded=frozenset(locked),
    )  # fmt: skip
    result: RoundPairing
    if round_.stage is not None and round_.stage.kind == "knockout":
        result = _knockout(round_)
    elif round_.stage is not None:  # the final round robin of the groups' best
        present = {e.pk for e in _available(tournament, number, locked)}
        result = _round_robin(tournament, number - tournament.rounds, present,
                              list(round_.stage.seeds))  # fmt: skip
    elif tournament.system == Tournament.System.ROTATION:  # «Генерал» «на вылет»
        result = rotation.next_table(tournament, number)
    elif tournament.format == Tournament.Format.TEAMS:
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
        result = _call(algorithms.teams, competitors,
                       _accelerated(swiss_options, tournament, competitors))
    else:
        entries = _available(tournament, number, locked)
        seed_by_rating(tournament, entries)
        selectors.apply_standings(records, selectors.snapshot_of(entries))
        ranked = selectors.ranked(entries, records)
        empty = selectors.Record()
        competitors = [_competitor(e, i, records.get(e.pk, empty)) for i, e in enumerate(ranked, 1)]
        if tournament.format == Tournament.Format.INDIVIDUAL:
            _require(len(competitors) >= 4, _("At least four players are needed."))
            result = _call(
                algorithms.individual, competitors,
                IndividualOptions(round_number=number, random_seed=seed,
                                  federation=tournament.individual_federation,
                                  last_round=number == tournament.rounds),
            )  # fmt: skip
        elif tournament.format == Tournament.Format.FREE_FOR_ALL:
            _require(len(competitors) >= 3, _("At least three players are needed."))
            result = _call(
                algorithms.free_for_all, competitors,
                FreeForAllOptions(round_number=number, random_seed=seed,
                                  first_round=tournament.first_round),
            )  # fmt: skip
        elif tournament.system == Tournament.System.ROUND_ROBIN:
            _require(len(competitors) >= 2, _("At least two entries are needed."))
            # groups (a first stage) are round robins of their own (a query only here)
            groups = tournament.stages.filter(number=1, kind="groups").first()
            present = {c.id for c in competitors}
            if groups is not None and groups.members:
                result = _absent_to_byes(
                    _call(algorithms.groups_round, groups.members, number), present)
            else:
                result = _round_robin(tournament, number, present)
        else:
            _require(len(competitors) >= 2, _("At least two entries are needed."))
            result = _call(algorithms.swiss, competitors,
                           _accelerated(swiss_options, tournament, competitors))
    return _as_plan(tournament, result)


def _accelerated(options: SwissOptions, tournament: Tournament,
                 competitors: list[Competitor]) -> SwissOptions:  # fmt: skip
    """The Swiss options with group A's virtual points in an accelerated round (``acceleration``:
    FIDE C.04.5.1); the same options otherwise."""
    # round 1's list: also the entries of tables locked before a re-pairing
    present = [c.id for c in competitors] + list(options.ids_excluded)
    points = acceleration.virtual_points(tournament, options.round_number, present)
    return replace(options, virtual_points=points) if points else options


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


def _knockout(round_: Round) -> RoundPairing:
    """The open ties of the knock-out's bracket, read from its finished rounds before this one
    (``stages.bracket``): one table each, the better seed at NS."""
    stage = round_.stage
    assert stage is not None
    bracket = brackets.load(stage, statuses=(Round.Status.FINISHED,), before=round_.number)
    if bracket.finished:
        raise PairingFailed.one("bracket_over", _("The knock-out is over: nothing to pair."))
    result = _call(knockout.next_games, bracket)
    names = dict(Entry.objects.filter(pk__in=bracket.seeds).values_list("pk", "name"))
    level = brackets.level_name(bracket, len(bracket.levels))
    # told here with names, in the job's language: the log's notes of the pure bracket
    # carry ids only
    notes = [f"{level}: " + "; ".join(
        f"{names.get(t.ns[0], t.ns[0])} — {names.get(t.ew[0], t.ew[0])}" for t in result.tables)]
    notes += [_("%(name)s goes through without a game (a bye).") % {"name": names.get(i, i)}
              for tie in bracket.levels[0] if tie.bye and len(bracket.levels) == 1
              for i in tie.sides]  # fmt: skip
    return RoundPairing(result.tables, result.byes, tuple(notes))


def _round_robin(tournament: Tournament, number: int, present: set[int],
                 ids: list[int] | None = None) -> RoundPairing:  # fmt: skip
    """Berger tables over every active entry (or ``ids``: the schedule must not move); a table
    whose opponent is away this round leaves the present one with a bye."""
    if ids is None:
        everyone = tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("seed", "pk")
        ids = [e.pk for e in everyone]
    return _absent_to_byes(_call(algorithms.round_robin_round, ids, number), present)


def _absent_to_byes(full: RoundPairing, present: set[int]) -> RoundPairing:
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
    # head to head each player is his own side, named by his seat
    ns_name, ew_name = ("N", "E") if tournament.format == Tournament.Format.SINGLES else (
        "NS", "EW")
    for table in sorted(result.tables, key=lambda t: t.number):
        flags = tuple(sorted(table.flags))
        if table.seated:
            tables.append(PlannedTable(
                tuple((seat, (i,)) for seat, i in zip(SEATS, table.seated, strict=False)),
                flags,
            ))  # fmt: skip
        elif tournament.format == Tournament.Format.TEAMS and len(table.ns) > 1:
            # one physical table per pair of each team
            tables += [PlannedTable((("NS", (a,)), ("EW", (b,))), flags)
                       for a, b in zip(table.ns, table.ew, strict=True)]  # fmt: skip
        else:
            tables.append(PlannedTable(((ns_name, tuple(table.ns)), (ew_name, tuple(table.ew))),
                                       flags))  # fmt: skip
    byes = [(bye.id, tuple(sorted(bye.flags))) for bye in result.byes]
    seen = [i for t in tables for i in t.entries] + [i for i, _flags in byes]
    if len(seen) != len(set(seen)):
        raise PairingFailed.one("bad_pairing", "the algorithm placed an entry twice")
    return Plan(tables, byes, list(result.notes))
