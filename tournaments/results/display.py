"""The standings as the public pages, the exports and the results API show them, as plain data.

    results_table(tournament, round_number=None, scope=None) -> Results    standings + columns
    cached_results_table(tournament, round_number, scope) -> (Results, key) the same, cached
    fresh_key(tournament, round_number, scope, since) -> (key, as_of) | None  a table computed after
    asked_key(tournament_id, created, round_number, scope, language)  where ``fresh_key`` starts
                                             (``results.reread`` reads the same, without a query)
    spectator_max_age(user) -> int           how old a spectator's live table may be
    parse_round / parse_scope                a page's or the API's ``?round=`` and ``?scope=``

Reads ``results.tables`` and never writes. A finished round's standings come from its snapshot
(a handful of queries whatever the number of rounds or entries), live ones from one ``load``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import (
    TIE_BREAKS,
    Round,
    Standing,
    Tournament,
)
from tournaments.results import live_state, snapshots, tables
from tournaments.results.ledger import COUNTED, Ledger, gc_paused, load
from tournaments.selectors import qualifying_rounds

SCOPES = ("entries", "teams", "players")


#: the fixed columns every standings table shows, before the tie-breaks of the tournament
FIXED_COLUMNS: tuple[tuple[str, Any, Any], ...] = (
    ("match_points", gettext_lazy("MP"), gettext_lazy("Match points")),
    ("wins", gettext_lazy("W"), gettext_lazy("Wins")),
    ("draws", gettext_lazy("D"), gettext_lazy("Draws")),
    ("losses", gettext_lazy("L"), gettext_lazy("Losses")),
    ("points_for", gettext_lazy("For"), gettext_lazy("Points for")),
    ("points_against", gettext_lazy("Ag."), gettext_lazy("Points against")),
    ("difference", gettext_lazy("Diff."), gettext_lazy("Difference")),
)


#: tie-breaks that are already fixed columns (``points`` is the points for)
SHOWN = {
    "match_points": "match_points",
    "wins": "wins",
    "difference": "difference",
    "points": "points_for",
}


def scopes_of(tournament: Tournament) -> list[str]:
    """The tables a tournament has: its entries; teams in a team event; the players of pairs
    and teams (an individual event's entries are its players already)."""
    if tournament.format == Tournament.Format.TEAMS:
        return ["teams", "entries", "players"]
    if tournament.format == Tournament.Format.PAIRS:
        return ["entries", "players"]
    return ["entries"]


def scope_label(scope: str, tournament: Tournament) -> str:
    if scope == "teams":
        return _("Teams")
    if scope == "players":
        return _("Players")
    if tournament.format in (Tournament.Format.PAIRS, Tournament.Format.TEAMS):
        return _("Pairs")
    return _("Players")


def number(value: Any) -> int | float:
    """A metric as a number: integral values as ``int``, others rounded to two places."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value if isinstance(value, int) else 0


@dataclass
class Column:
    key: str
    short: str
    label: str
    tiebreak: bool = False


@dataclass
class Results:
    """A standings table with the columns to show and what a page says about it."""

    table: tables.Table
    rounds: list[int]  # every counted round (for a round selector)
    columns: list[Column]
    pending_tables: int
    players: dict[int, list[tuple[int, str]]]  # entry -> its players (id, name), for links
    ledger: Ledger | None = None
    #: when its computation began (it counts every change committed before): the version a
    #: pushed or re-read copy of its html carries, so a page never swaps an older one in
    as_of: float = 0.0

    @property
    def lines(self) -> list[tables.Line]:
        return self.table.lines

    def values(self, line: tables.Line) -> list[int | float]:
        return [number(line.row.get(c.key, 0)) for c in self.columns]

    def order_labels(self) -> list[str]:
        return [str(TIE_BREAKS[name]) for name in self.table.order if name in TIE_BREAKS]


def columns_for(order: Iterable[str]) -> list[Column]:
    columns = [Column(key, str(short), str(label)) for key, short, label in FIXED_COLUMNS]
    for name in order:
        if name in SHOWN or name not in TIE_BREAKS:
            continue
        label = str(TIE_BREAKS[name])
        columns.append(Column(name, label, label, tiebreak=True))
    return columns


def counted_rounds(tournament: Tournament) -> dict[int, str]:
    """Published and finished rounds of the standings (not a knock-out's): number -> status
    (one query)."""
    return dict(
        qualifying_rounds(tournament).filter(status__in=COUNTED)
        .order_by("number")
        .values_list("number", "status")
    )


def parse_round(value: Any, rounds: dict[int, str]) -> int | None:
    """``?round=`` as a counted round's number (None: the latest); TournamentError otherwise."""
    if value in (None, ""):
        return None
    try:
        chosen = int(value)
    except (TypeError, ValueError):
        chosen = -1
    if chosen not in rounds:
        raise TournamentError.one(
            "bad_round", _("There are no results after round %(n)s.") % {"n": value}, "round"
        )
    return chosen


def parse_scope(value: Any, tournament: Tournament) -> str:
    if value in (None, ""):
        return tables.default_scope(tournament)
    if value not in scopes_of(tournament):
        raise TournamentError.one(
            "bad_scope",
            _("This tournament has no table “%(scope)s”.") % {"scope": value},
            "scope",
        )
    return str(value)


def _pending_tables(ledger: Ledger) -> int:
    return ledger.pending_tables


def results_table(
    tournament: Tournament, round_number: Any = None, scope: Any = None, need_ledger: bool = False
) -> Results:
    """The standings after ``round_number`` (a finished round's snapshot, else live) with their
    columns. ``round_number``/``scope`` are checked (TournamentError ``bad_round``/``bad_scope``).
    ``need_ledger`` also loads every round's cells (the crosstable needs them)."""
    rounds = counted_rounds(tournament)
    return _results_table(tournament, rounds, parse_round(round_number, rounds),
                          parse_scope(scope, tournament), need_ledger)  # fmt: skip


def _results_table(tournament: Tournament, rounds: dict[int, str], chosen: int | None,
                   scope: str, need_ledger: bool = False) -> Results:  # fmt: skip
    with gc_paused():
        return _compute(tournament, rounds, chosen, scope, need_ledger)


def _compute(tournament: Tournament, rounds: dict[int, str], chosen: int | None,
             scope: str, need_ledger: bool = False) -> Results:  # fmt: skip
    upto = chosen if chosen is not None else (max(rounds) if rounds else None)
    ledger = None
    table = None
    if (
        upto is not None
        and rounds[upto] == Round.Status.FINISHED
        and scope in Standing.Scope.values
    ):
        table = tables.table(tournament, upto, scope)  # the snapshot (a few queries)
        if table.source != "snapshot":
            table = None
    if table is None and not need_ledger and scope == Standing.Scope.ENTRIES:
        # kept between requests and brought up to date (``live_state``), unless a team event;
        # the latest round's is kept as such (None), so the next round's replaces it
        live = live_state.live_entries(tournament, chosen)
        if live is not None:
            return Results(live.table, sorted(rounds), columns_for(live.table.order),
                           live.pending_tables, live.players)  # fmt: skip
    if table is None or need_ledger:
        # the entries' players are loaded as models only where they are read from the ledger
        ledger = load(tournament, upto, players=need_ledger or scope == "players",
                      with_cells=need_ledger)  # fmt: skip
    if table is None:
        assert ledger is not None
        table = tables.live_table(tournament, upto, scope, ledger=ledger)
    pending = _pending_tables(ledger) if ledger is not None and table.source == "live" else 0
    return Results(
        table,
        sorted(rounds),
        columns_for(table.order),
        pending,
        tables.ledger_players(ledger) if ledger is not None else tables.entry_players(tournament),
        ledger,
    )


#: how long a computed table may be served from the cache at most (its key changes with every
#: result, round, sanction or snapshot; only renames wait for this)
CACHE_SECONDS = 60
#: how long a request waits for the table another one is computing before computing it itself
COMPUTE_WAIT = 3.0


def cached_results_table(
    tournament: Tournament, round_number: Any = None, scope: Any = None, max_age: int = 0,
    since: float | None = None,
) -> tuple[Results, str]:
    """``results_table`` (without its ledger) through the cache, and the cache key it used.

    Spectators' pages poll every few seconds: while nothing the standings depend on has
    changed (``snapshots.results_stamp``), they get the table computed for the first of them.
    ``max_age`` (seconds) lets a *live* table computed that recently stand in for a newer one:
    in a busy hall results change every second, and spectators (``spectator_max_age``) need
    not have each change recomputed for them. Organisers and referees always pass 0.
    ``since`` (a time): a page told that the results changed at that moment
    (``tournaments.live``) gets any table whose computation began after it, which counts the
    change, however many deals were recorded since. A table is computed by one request at a
    time: the others asking for it meanwhile wait for it.
    """
    # keyed on what ?round= and ?scope= mean, not on their text: "03", "+3" and " 3" are
    # round 3 and must not each compute (and store) a table of their own
    asked = _asked(tournament, round_number, scope)
    rounds = counted_rounds(tournament)
    chosen = parse_round(round_number, rounds)
    scope = parse_scope(scope, tournament)
    checked = time.time()  # the stamp read below counts every change committed before this
    stamp = snapshots.results_stamp(tournament)
    created = tournament.created_at.timestamp() if tournament.created_at else 0
    base = f"results:{tournament.pk}:{created}:{chosen}:{scope}:{get_language()}"
    key = f"{base}:{stamp}"
    # for the pages that will re-read this table after a pushed change (``fresh_key``)
    cache.set(asked, base, CACHE_SECONDS)
    res = cache.get(key)
    if res is not None:
        if since is not None:
            _mark_fresh(base, key, checked, since)
        return res, key
    recent = _recent(base, max_age, since)
    if recent is not None:
        return recent
    # 500 spectators told of a change at the same moment all ask for the new table: the first
    # computes it, the others wait for it rather than each computing it too.
    if not cache.add(base + ":computing", 1, COMPUTE_WAIT + 5):
        deadline = time.monotonic() + COMPUTE_WAIT
        while time.monotonic() < deadline:
            time.sleep(0.05)
            res = cache.get(key)
            if res is not None:
                return res, key
            recent = _recent(base, max_age, since)
            if recent is not None:
                return recent
    started = time.time()
    try:
        res = _results_table(tournament, rounds, chosen, scope)
        res.ledger = None
        res.as_of = started
        cache.set(key, res, CACHE_SECONDS)
        # when the computation began: it counts every change committed before that
        cache.set(base + ":latest", (key, started), CACHE_SECONDS)
    finally:
        cache.delete(base + ":computing")
    return res, key


def _mark_fresh(base: str, key: str, checked: float, since: float) -> None:
    """A page told of a change at ``since`` found the current table cached: nothing the
    standings count changed (a round's clock, the hall), yet readers waiting for a table read
    after ``since`` (``fresh_key``, ``results.reread``) must hear that this one is it."""
    latest = cache.get(base + ":latest")
    if latest is None or latest[1] < since:
        cache.set(base + ":latest", (key, checked), CACHE_SECONDS)


def _asked(tournament: Tournament, round_number: Any, scope: Any) -> str:
    """Where the cache keeps which table a page's ``?round=&scope=`` last meant."""
    created = tournament.created_at.timestamp() if tournament.created_at else 0
    return asked_key(tournament.pk, created, round_number, scope, get_language())


def asked_key(tournament_id: int, created: float, round_number: Any, scope: Any,
              language: str) -> str:  # fmt: skip
    """``_asked`` from plain values: the push process's re-read (``results.reread``) has no
    tournament object, only the id and creation time one query gives."""
    return (f"results-asked:{tournament_id}:{created}:{_as_text(round_number)}:"
            f"{_as_text(scope)}:{language}")  # fmt: skip


def _as_text(value: Any) -> str:
    # a long text is hashed, not cut: "0000000000012" (round 12) must not share the key of
    # "000000000001" (round 1)
    text = str(value or "")
    if len(text) <= 12:
        return text
    return "#" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:24]


def fresh_key(tournament: Tournament, round_number: Any, scope: Any,
              since: float) -> tuple[str, float] | None:  # fmt: skip
    """The cache key of a table for this ``?round=&scope=`` whose computation began after
    ``since``, and that time, from the cache alone (no query): 500 pages re-reading the
    standings after a pushed change each cost two cache reads, not the results' fingerprint
    query."""
    base = cache.get(_asked(tournament, round_number, scope))
    latest = cache.get(base + ":latest") if base else None
    if latest is None or latest[1] < since:
        return None
    return str(latest[0]), float(latest[1])


def _recent(base: str, max_age: int, since: float | None) -> tuple[Results, str] | None:
    """The latest table computed for ``base`` if it may stand in for the current one."""
    if max_age <= 0 and since is None:
        return None
    latest = cache.get(base + ":latest")
    if latest is None:
        return None
    young = max_age > 0 and time.time() - latest[1] < max_age
    after = since is not None and latest[1] >= since
    if not (young or after):
        return None
    recent = cache.get(latest[0])
    if recent is None or (young and not after and recent.table.source != "live"):
        return None
    return recent, latest[0]


def spectator_max_age(user: Any) -> int:
    """How old a live table a visitor may be shown: ``STANDINGS_SPECTATOR_MAX_AGE`` seconds
    for visitors who are not signed in, 0 (always the current results) for everybody else."""
    if user is not None and getattr(user, "is_authenticated", False):
        return 0
    return int(getattr(settings, "STANDINGS_SPECTATOR_MAX_AGE", 0))
