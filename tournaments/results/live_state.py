"""The live standings of entries kept between requests and brought up to date from what changed
in the database since, rather than computed from every game again (issue 31).

    live_entries(tournament, upto) -> Live | None   the live entries' table after round
        ``upto``, its tables still in play and the entries' players; None where nothing is
        kept (a team event, no round yet): the caller computes the table in full
    forget()                                        every kept table dropped

What is kept: a ``standings.incremental.Kept`` (every entry's games and figures) built from a
full ``ledger.load`` — the full computation stays the source of truth — and what the tables of
the rounds in play (published, not finished) were derived from: their places and their
matches' versions. Each call reads what changed and updates the rows it touches:

1. the marks (one query): each counted round with its status, tables, matches and the sum of
   their versions, and each table of the rounds in play with its match's version. Another set
   of rounds or statuses, other settings, or any change in a finished round (a correction,
   which retakes that round's snapshots anyway) → built again in full. A table whose version
   moved is derived again from its match's result (one query, ``places.decisions``): a
   confirmation, a correction, a protocol reopened;
2. the active sanctions, the entries (name, status, team, club), the absences and the entries'
   players, always (four small queries): a forfeit given or taken back re-derives its table, a
   withdrawal or an absence the entry's rounds without a place (``places.unplaced``), a point
   sanction its entry's deduction; another set of entries → built again.

Why exact. ``Match.version`` is bumped by every change of a protocol (``scoring.services``), so
a finished round whose count of matches and sum of versions did not move has no changed match,
and a table in play whose version did not move has the result it had. The marks are read
before the results they stand for: a change committed in between leaves a mark older than the
results read, so it is read again next time, never missed. Each entry's games
are listed in the order ``ledger.load`` gives them (its tables' games round by round, then its
rounds without a place), so ``Kept`` sums them as the full computation does; tests compare the
two after confirmations, corrections, forfeits, withdrawals and sanctions through the services.

Kept per process, not in the shared cache: unpickling a thousand entries' games and figures
costs more than the update itself, and every process checks what it keeps against the database
on each call (1, 2), so whichever process answers, nothing stale is shown; a process's first
table of a tournament (or after a rebuild) costs one full computation.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import connection

from scoring.models import Match
from tournaments import standings as pure
from tournaments.models import (
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    Round,
    Sanction,
    Stage,
    Tournament,
)
from tournaments.results import places as places_
from tournaments.results.ledger import (
    COUNTED,
    _sides_of,
    load,
    lot_seed,
    standings_settings,
)
from tournaments.results.round_games import PLACED_KINDS
from tournaments.results.sides import swapped
from tournaments.results.tables import Line, Table, entry_players, row_dict
from tournaments.standings.incremental import Kept

#: how many live tables one process keeps (a table of 1,000 entries is a few megabytes)
KEEP_TABLES = 16
WITHDRAWN = Entry.Status.WITHDRAWN


@dataclass
class Live:
    table: Table
    pending_tables: int
    players: dict[int, list[tuple[int, str]]]


#: an entry as the table reads it: (name, status, team, club's name)
Facts = tuple[str, str, int | None, str]


@dataclass
class _State:
    basis: tuple[Any, ...]
    kept: Kept
    rounds: list[int]
    tables: dict[int, dict[str, Any]]  # pairing -> ``places`` info, rounds in play
    versions: dict[int, int | None]  # pairing -> its match's version, rounds in play
    places: dict[int, list[places_.Place]]  # pairing -> its places now, rounds in play
    placed: dict[int, dict[int, list[pure.Game]]]  # entry -> round -> its tables' games
    unseated: dict[int, list[int]]  # entry -> the rounds it had no place in
    unplaced: dict[int, list[pure.Game]]  # entry -> the games of those rounds
    entries: dict[int, Facts]
    absent: set[tuple[int, int]]
    sanctions: list[tuple[Any, ...]]
    base_pending: dict[int, int]  # entry -> its tables in play in the finished rounds
    base_pending_tables: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: what ``names`` were built from, the names (entry -> name, club, players) and the lines
    #: last built (entry -> its row, tables in play and line)
    named: tuple[Any, ...] = ()
    names: dict[int, tuple[str, str, list[str]]] = field(default_factory=dict)
    lines: dict[int, tuple[pure.Row, int, Line]] = field(default_factory=dict)


_KEPT: OrderedDict[tuple[Any, ...], _State] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def forget() -> None:
    with _KEPT_LOCK:
        _KEPT.clear()


@cache
def _sql() -> dict[str, str]:
    """The queries of an update, written by hand: built by the ORM they cost 6 ms of Python
    (compiling them) of an update's 20 (``results.snapshots._stamp_sql`` found the same)."""
    q = connection.ops.quote_name

    def t(model: Any) -> str:
        return q(model._meta.db_table)

    def c(model: Any, name: str) -> str:
        return q(model._meta.get_field(name).column)

    r, p, m, s, e, a = Round, Pairing, Match, Sanction, Entry, EntryAbsence
    rounds = (f"FROM {t(r)} r LEFT JOIN {t(Stage)} st ON st.{c(Stage, 'id')} = r.{c(r, 'stage')} "
              f"LEFT JOIN {t(p)} p ON p.{c(p, 'round')} = r.{c(r, 'id')} "
              f"LEFT JOIN {t(m)} m ON m.{c(m, 'id')} = p.{c(p, 'match')} "
              f"WHERE r.{c(r, 'tournament')} = %s AND r.{c(r, 'status')} IN (%s, %s) "
              f"AND r.{c(r, 'number')} <= %s "
              f"AND (st.{c(Stage, 'number')} IS NULL OR st.{c(Stage, 'number')} < 2)")
    return {
        # per counted round (a final stage's are not: ``selectors.qualifying_rounds``) its
        # status, tables, matches and their versions summed, then each table of the rounds in
        # play with its match's version (the last column tells the two apart)
        "marks": f"SELECT r.{c(r, 'number')}, r.{c(r, 'status')}, r.{c(r, 'id')}, "
                 f"COUNT(p.{c(p, 'id')}), COUNT(p.{c(p, 'match')}), SUM(m.{c(m, 'version')}), 0 "
                 f"{rounds} GROUP BY r.{c(r, 'id')}, r.{c(r, 'number')}, r.{c(r, 'status')} "
                 f"UNION ALL SELECT r.{c(r, 'number')}, r.{c(r, 'status')}, r.{c(r, 'id')}, "
                 f"p.{c(p, 'id')}, 0, m.{c(m, 'version')}, 1 {rounds} "
                 f"AND p.{c(p, 'id')} IS NOT NULL AND r.{c(r, 'status')} = %s",
        "sanctions": f"SELECT {c(s, 'id')}, {c(s, 'kind')}, {c(s, 'entry')}, "
                     f"{c(s, 'pairing')}, {c(s, 'round_number')}, {c(s, 'match_points')}, "
                     f"{c(s, 'game_points')} FROM {t(s)} WHERE {c(s, 'tournament')} = %s "
                     f"AND {c(s, 'revoked_at')} IS NULL AND {c(s, 'round_number')} <= %s "
                     f"ORDER BY {c(s, 'round_number')}, {c(s, 'id')}",
        "entries": f"SELECT e.{c(e, 'id')}, e.{c(e, 'name')}, e.{c(e, 'status')}, "
                   f"e.{c(e, 'team')}, k.{c(Club, 'name')} FROM {t(e)} e "
                   f"LEFT JOIN {t(Club)} k ON k.{c(Club, 'id')} = e.{c(e, 'club')} "
                   f"WHERE e.{c(e, 'tournament')} = %s",
        "absent": f"SELECT a.{c(a, 'entry')}, a.{c(a, 'round_number')} FROM {t(a)} a "
                  f"JOIN {t(e)} e ON e.{c(e, 'id')} = a.{c(a, 'entry')} "
                  f"WHERE e.{c(e, 'tournament')} = %s",
    }


def _rows(name: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(_sql()[name], params)
        return cursor.fetchall()


def _marks(tournament: Tournament, upto: int | None) -> tuple[
    dict[int, tuple[str, int, int, int]], dict[int, int | None]
]:  # fmt: skip
    """Counted round -> (status, tables, matches, sum of the matches' versions), and each table
    of the rounds in play -> its match's version: one query, the rounds ``ledger.load``
    counts."""
    last = upto if upto is not None else 2**31 - 1
    params = [tournament.pk, *COUNTED, last] * 2 + [Round.Status.PUBLISHED]
    rounds: dict[int, tuple[str, int, int, int]] = {}
    versions: dict[int, int | None] = {}
    for number, status, _id, count, matches, version, table in _rows("marks", params):
        if table:
            versions[count] = version
        else:
            rounds[number] = (status, count, matches, version or 0)
    return rounds, versions


def _sanctions(tournament: Tournament, last: int) -> list[tuple[Any, ...]]:
    """The active sanctions as ``ledger.load`` reads them, as plain values."""
    return _rows("sanctions", [tournament.pk, last])


def _forfeits(sanctions: list[tuple[Any, ...]]) -> dict[int, set[int]]:
    forfeits: dict[int, set[int]] = defaultdict(set)
    for _pk, kind, entry_id, pairing_id, *_rest in sanctions:
        if kind == Sanction.Kind.FORFEIT and pairing_id:
            forfeits[pairing_id].add(entry_id)
    return forfeits


def _pure_sanctions(sanctions: list[tuple[Any, ...]], entries: dict[int, Facts],
                    last: int) -> list[pure.Sanction]:  # fmt: skip
    """``Ledger.pure_sanctions`` of these values."""
    return [pure.Sanction(entry_id, number, points, game_points)
            for _pk, _kind, entry_id, _pairing, number, points, game_points in sanctions
            if entry_id in entries and number <= last and (points or game_points)]  # fmt: skip


def _entries(tournament: Tournament) -> dict[int, Facts]:
    return {pk: (name, status, team, club or "")
            for pk, name, status, team, club in _rows("entries", [tournament.pk])}  # fmt: skip


def _absent(tournament: Tournament) -> set[tuple[int, int]]:
    return {(entry, number) for entry, number in _rows("absent", [tournament.pk])}


def live_entries(tournament: Tournament, upto: int | None = None) -> Live | None:
    """The live entries' table after ``upto`` (the latest counted round when None), kept
    between calls (see the module docstring); None when it is not kept here."""
    if tournament.format == Tournament.Format.TEAMS:
        return None
    marks, versions = _marks(tournament, upto)  # read first: see the module docstring
    if not marks:
        return None
    settings = standings_settings(tournament)
    swap, sides = swapped(tournament), _sides_of(tournament)
    finished = tuple((n, m) for n, m in sorted(marks.items()) if m[0] == Round.Status.FINISHED)
    basis = (settings, tournament.bye_result, swap, sides, places_.scored_column(tournament),
             tuple(sorted(marks)), finished)  # fmt: skip
    key = (connection.settings_dict["NAME"], tournament.pk, lot_seed(tournament), upto)
    with _KEPT_LOCK:
        state = _KEPT.get(key)
        if state is not None:
            _KEPT.move_to_end(key)
    try:
        if state is not None and state.basis == basis:
            with state.lock:
                if _update(state, tournament, versions, swap, sides):
                    return _live(state, tournament, settings)
        state = _build(tournament, upto, settings, basis, versions, swap)
        live = _live(state, tournament, settings)  # before another thread may update it
        with _KEPT_LOCK:
            _KEPT[key] = state
            while len(_KEPT) > KEEP_TABLES:
                _KEPT.popitem(last=False)
        return live
    except BaseException:
        with _KEPT_LOCK:  # half updated: built again next time
            _KEPT.pop(key, None)
        raise


def _build(tournament: Tournament, upto: int | None, settings: pure.Settings,
           basis: tuple[Any, ...], versions: dict[int, int | None],
           swap: bool) -> _State:  # fmt: skip
    """The full computation (``ledger.load`` and ``Kept``), and what updates it; ``versions``
    were read before it."""
    ledger = load(tournament, upto, players=False, with_cells=False)
    entries = {pk: (e.name, e.status, e.team_id, e.club_name) for pk, e in ledger.entries.items()}
    sanctions = [(s.pk, s.kind, s.entry_id, s.pairing_id, s.round_number, s.match_points,
                  s.game_points) for s in ledger.sanctions]  # fmt: skip
    forfeits = _forfeits(sanctions)
    tables = {pk: info for pk, info in ledger.tables.items() if pk in versions}
    placed: dict[int, dict[int, list[pure.Game]]] = defaultdict(dict)
    unplaced: dict[int, list[pure.Game]] = defaultdict(list)
    for game in ledger.games:
        if game.kind in PLACED_KINDS:
            placed[game.participant].setdefault(game.round, []).append(game)
        else:
            unplaced[game.participant].append(game)
    state = _State(
        basis,
        Kept(list(entries), ledger.games, settings,
             _pure_sanctions(sanctions, entries, ledger.last_round), ledger.last_round or None),
        ledger.rounds, tables, dict(versions), {},
        placed, {pk: [g.round for g in games] for pk, games in unplaced.items()}, unplaced,
        entries, ledger.absent, sanctions, {}, 0,
    )  # fmt: skip
    for pk, info in tables.items():
        state.places[pk] = places_.table_places(info, ledger.decided.get(info["match"]),
                                                forfeits.get(pk, set()), swap,
                                                tournament.bye_result)  # fmt: skip
    pending, pending_tables = _pending(state)
    state.base_pending = {pk: n - pending.get(pk, 0) for pk, n in ledger.pending.items()
                          if n != pending.get(pk, 0)}  # fmt: skip
    state.base_pending_tables = ledger.pending_tables - pending_tables
    return state


def _update(state: _State, tournament: Tournament, versions: dict[int, int | None],
            swap: bool, sides: tuple[str, ...]) -> bool:  # fmt: skip
    """Bring ``state`` up to date (see the module docstring); False when it must be built
    again instead."""
    if versions.keys() != state.versions.keys():  # other tables: not a change of results
        return False
    # (a table without places, if any, gives nobody a game: nothing to derive)
    redo = {pk for pk, version in versions.items()
            if state.versions[pk] != version and pk in state.tables}  # fmt: skip
    last = state.rounds[-1]
    sanctions = _sanctions(tournament, last)
    forfeits = _forfeits(sanctions)
    if sanctions != state.sanctions:
        before = _forfeits(state.sanctions)
        for pk in before.keys() | forfeits.keys():
            if before.get(pk) != forfeits.get(pk):
                if pk not in state.tables:  # a finished round's table: rebuilt
                    return False
                redo.add(pk)
    entries = _entries(tournament)
    if entries.keys() != state.entries.keys() or any(
        facts[2] != state.entries[pk][2] for pk, facts in entries.items()
    ):  # fmt: skip
        return False
    absent = _absent(tournament)
    touched: set[int] = set()
    decided = places_.decisions(
        Match.objects.filter(pk__in=[state.tables[pk]["match"] for pk in redo
                                     if state.tables[pk]["match"] is not None]), sides,
        places_.scored_column(tournament),
    ) if redo else {}  # fmt: skip
    for pk in redo:
        info = state.tables[pk]
        number = info["round"]
        new = places_.table_places(info, decided.get(info["match"]), forfeits.get(pk, set()),
                                   swap, tournament.bye_result)  # fmt: skip
        for place in state.places[pk]:
            state.placed[place.entry].pop(number, None)
            touched.add(place.entry)
        for place in new:
            if place.game is not None:
                state.placed.setdefault(place.entry, {}).setdefault(number, []).append(place.game)
            touched.add(place.entry)
        state.places[pk] = new
    gone = {pk for pk in entries if (entries[pk][1] == WITHDRAWN)
            != (state.entries[pk][1] == WITHDRAWN)}  # fmt: skip
    gone |= {pk for pk, _number in absent ^ state.absent if pk in entries}
    for pk in gone:
        state.unplaced[pk] = places_.unplaced(pk, entries[pk][1] == WITHDRAWN, state.rounds,
                                              state.unseated.get(pk, ()), absent)  # fmt: skip
        touched.add(pk)
    games = {pk: [g for n in state.rounds for g in state.placed.get(pk, {}).get(n, ())]
             + state.unplaced.get(pk, []) for pk in touched}  # fmt: skip
    state.kept.update(games, _pure_sanctions(sanctions, entries, last))
    state.versions = versions
    state.entries, state.absent, state.sanctions = entries, absent, sanctions
    return True


def _pending(state: _State) -> tuple[dict[int, int], int]:
    """Entry -> its tables still in play, and how many tables are, in the rounds in play."""
    pending: dict[int, int] = {}
    tables: set[tuple[int, Any]] = set()
    for pk, places in state.places.items():
        for place in places:
            if place.kind == "pending":
                pending[place.entry] = pending.get(place.entry, 0) + 1
                info = state.tables[pk]
                tables.add((info["round"], info["table"]))
    return pending, len(tables)


def _live(state: _State, tournament: Tournament, settings: pure.Settings) -> Live:
    pending, pending_tables = _pending(state)
    for pk, n in state.base_pending.items():
        pending[pk] = pending.get(pk, 0) + n
    players = entry_players(tournament)
    if (state.entries, players) != state.named:  # names and players read again: compared
        state.named = (state.entries, players)
        state.names = {pk: (name, club, [n for _id, n in players.get(pk, [])])
                       for pk, (name, _status, _team, club) in state.entries.items()}  # fmt: skip
        state.lines = {}
    # a line whose row, pending tables and names are unchanged is the one built before (lines
    # are never changed once built): most rows of a thousand do not move on one confirmation
    lines = []
    kept = state.lines
    for row in state.kept.rows():
        pk = row.participant
        waiting = pending.get(pk, 0)
        built = kept.get(pk)
        if built is None or built[0] != row or built[1] != waiting:
            name, club, names = state.names.get(pk, (str(pk), "", []))
            built = kept[pk] = (row, waiting, Line(row.rank, pk, name, club, row_dict(row),
                                                   waiting, names))  # fmt: skip
        lines.append(built[2])
    table = Table(tournament, state.rounds[-1], "entries", "live", settings.order, lines)
    return Live(table, pending_tables + state.base_pending_tables, players)
