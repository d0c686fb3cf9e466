"""What the public results pages, the exports and the results API show, as plain data.

    results_table(tournament, round_number=None, scope=None) -> Results    standings + columns
    cached_results_table(tournament, round_number, scope) -> (Results, key) the same, cached
    crosstable(tournament, round_number=None, scope=None) -> Crosstable    a cell per round
    player_history(player, tournaments) -> list[HistoryMatch]              every match of a player

Everything here reads ``tournaments.results`` (``table`` and ``load``) and never writes. Each
function runs a bounded number of queries: a finished round's standings come from its snapshot
(a handful of queries whatever the number of rounds or entries), live ones from one ``load``.
A player's history reads the places, tables, matches and deals of all the player's tournaments
at once (it does not grow with tournaments or rounds).

Cells. A round of a participant is ``played`` (win/draw/loss with the points recorded, the table
and the match), ``pending`` (the table is still in play), ``bye``, ``forfeit_win`` (+),
``forfeit_loss`` (−), ``absent`` or ``withdrawn``; a round where it has no place at all is None.
Opponents are named by their rank in the same table, so a reader can follow them down the rows.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring.models import Deal, Match
from tournaments import results
from tournaments.errors import TournamentError
from tournaments.models import (
    TIE_BREAKS,
    Entry,
    Pairing,
    PairingEntry,
    Player,
    Round,
    Sanction,
    Standing,
    Tournament,
)

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
    if tournament.format == Tournament.Format.INDIVIDUAL:
        return _("Players")
    return _("Pairs")


def number(value: Any) -> int | float:
    """A metric as a number: integral values as ``int``, others rounded to two places."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value if isinstance(value, int) else 0


# --- standings ----------------------------------------------------------------------------------


@dataclass
class Column:
    key: str
    short: str
    label: str
    tiebreak: bool = False


@dataclass
class Results:
    """A standings table with the columns to show and what a page says about it."""

    table: results.Table
    rounds: list[int]  # every counted round (for a round selector)
    columns: list[Column]
    pending_tables: int
    players: dict[int, list[tuple[int, str]]]  # entry -> its players (id, name), for links
    ledger: results.Ledger | None = None

    @property
    def lines(self) -> list[results.Line]:
        return self.table.lines

    def values(self, line: results.Line) -> list[int | float]:
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
    """Published and finished rounds: number -> status (one query)."""
    return dict(
        tournament.round_set.filter(status__in=results.COUNTED)
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
        return results.default_scope(tournament)
    if value not in scopes_of(tournament):
        raise TournamentError.one(
            "bad_scope",
            _("This tournament has no table “%(scope)s”.") % {"scope": value},
            "scope",
        )
    return str(value)


def _pending_tables(ledger: results.Ledger) -> int:
    return len(
        {
            (cell.round, cell.table)
            for by_round in ledger.cells.values()
            for cell in by_round.values()
            if cell.kind == "pending"
        }
    )


def results_table(
    tournament: Tournament, round_number: Any = None, scope: Any = None, need_ledger: bool = False
) -> Results:
    """The standings after ``round_number`` (a finished round's snapshot, else live) with their
    columns. ``round_number``/``scope`` are checked (TournamentError ``bad_round``/``bad_scope``).
    ``need_ledger`` also loads every round's cells (the crosstable needs them)."""
    rounds = counted_rounds(tournament)
    chosen = parse_round(round_number, rounds)
    scope = parse_scope(scope, tournament)
    upto = chosen if chosen is not None else (max(rounds) if rounds else None)
    ledger = None
    table = None
    if (
        upto is not None
        and rounds[upto] == Round.Status.FINISHED
        and scope in Standing.Scope.values
    ):
        table = results.table(tournament, upto, scope)  # the snapshot (a few queries)
        if table.source != "snapshot":
            table = None
    if table is None or need_ledger:
        # the entries' players are loaded as models only where they are read from the ledger
        ledger = results.load(tournament, upto, players=need_ledger or scope == "players")
    if table is None:
        assert ledger is not None
        table = results.live_table(tournament, upto, scope, ledger=ledger)
    pending = _pending_tables(ledger) if ledger is not None and table.source == "live" else 0
    return Results(
        table,
        sorted(rounds),
        columns_for(table.order),
        pending,
        results.entry_players(tournament),
        ledger,
    )


#: how long a computed table may be served from the cache at most (its key changes with every
#: result, round, sanction or snapshot; only renames wait for this)
CACHE_SECONDS = 60


def cached_results_table(
    tournament: Tournament, round_number: Any = None, scope: Any = None, max_age: int = 0
) -> tuple[Results, str]:
    """``results_table`` (without its ledger) through the cache, and the cache key it used.

    Spectators' pages poll every few seconds: while nothing the standings depend on has
    changed (``results.results_stamp``), they get the table computed for the first of them.
    ``max_age`` (seconds) lets a *live* table computed that recently stand in for a newer one:
    in a busy hall results change every second, and spectators (``spectator_max_age``) need
    not have each change recomputed for them. Organisers and referees always pass 0.
    """
    stamp = results.results_stamp(tournament)
    created = tournament.created_at.timestamp() if tournament.created_at else 0
    base = f"results:{tournament.pk}:{created}:{round_number}:{scope}:{get_language()}"
    key = f"{base}:{stamp}"
    res = cache.get(key)
    if res is not None:
        return res, key
    if max_age > 0:
        latest = cache.get(base + ":latest")
        if latest is not None and time.time() - latest[1] < max_age:
            recent = cache.get(latest[0])
            if recent is not None and recent.table.source == "live":
                return recent, latest[0]
    res = results_table(tournament, round_number, scope)
    res.ledger = None
    cache.set(key, res, CACHE_SECONDS)
    cache.set(base + ":latest", (key, time.time()), CACHE_SECONDS)
    return res, key


def spectator_max_age(user: Any) -> int:
    """How old a live table a visitor may be shown: ``STANDINGS_SPECTATOR_MAX_AGE`` seconds
    for visitors who are not signed in, 0 (always the current results) for everybody else."""
    if user is not None and getattr(user, "is_authenticated", False):
        return 0
    return int(getattr(settings, "STANDINGS_SPECTATOR_MAX_AGE", 0))


# --- crosstable ---------------------------------------------------------------------------------


@dataclass
class Opponent:
    id: int
    rank: int | None
    name: str


@dataclass
class CrossCell:
    round: int
    kind: str  # played, pending, bye, forfeit_win, forfeit_loss, absent, withdrawn
    result: str = ""  # win, draw, loss
    opponents: list[Opponent] = field(default_factory=list)
    partners: list[Opponent] = field(default_factory=list)
    points_for: int = 0
    points_against: int = 0
    table: int | None = None
    match: int | None = None

    @property
    def mark(self) -> str:
        """The result in one sign, as the crosstable prints it."""
        if self.kind == "played":
            return {
                "win": _("W"),
                "draw": _("D"),
                "loss": _("L"),
            }.get(self.result, "")
        return {
            "pending": "…",
            "bye": _("BYE"),
            "forfeit_win": "+",
            "forfeit_loss": "−",
            "absent": _("abs."),
            "withdrawn": _("w/d"),
        }.get(self.kind, "")

    @property
    def score(self) -> str:
        return f"{self.points_for}:{self.points_against}" if self.kind == "played" else ""

    @property
    def ranks(self) -> str:
        return ",".join(str(o.rank) if o.rank is not None else "?" for o in self.opponents)

    @property
    def text(self) -> str:
        """One line for an export: "3 W 120:80", "bye", "+"."""
        return " ".join(part for part in (self.ranks, self.mark, self.score) if part)


@dataclass
class CrossRow:
    line: results.Line
    cells: list[CrossCell | None]


@dataclass
class Crosstable:
    results: Results
    rounds: list[int]  # the rounds shown (up to the chosen one)
    rows: list[CrossRow]

    @property
    def table(self) -> results.Table:
        return self.results.table


def _cell(
    cell: results.Cell,
    kind: str,
    opponents: Iterable[int],
    partners: Iterable[int],
    rank: dict[int, int],
    names: dict[int, str],
) -> CrossCell:
    def named(ids: Iterable[int]) -> list[Opponent]:
        return [Opponent(pk, rank.get(pk), names.get(pk, str(pk))) for pk in ids]

    return CrossCell(
        cell.round,
        kind,
        cell.result if kind not in ("pending",) else "",
        named(opponents) if kind in ("played", "pending") else [],
        named(partners),
        cell.points_for,
        cell.points_against,
        cell.table,
        cell.match,
    )


def _entry_cells(
    ledger: results.Ledger, rank: dict[int, int], names: dict[int, str]
) -> dict[int, dict[int, CrossCell]]:
    out: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for entry_id, by_round in ledger.cells.items():
        for number_, cell in by_round.items():
            kind = cell.kind or "played"
            out[entry_id][number_] = _cell(cell, kind, cell.opponents, cell.partners, rank, names)
    return out


def _team_cells(
    ledger: results.Ledger, rank: dict[int, int], names: dict[int, str]
) -> dict[int, dict[int, CrossCell]]:
    teams, games = results.team_games(ledger)
    team_of = {pk: e.team_id for pk, e in ledger.entries.items() if e.team_id is not None}
    pending = {
        (team_of[e], n)
        for e, by_round in ledger.cells.items()
        if e in team_of
        for n, c in by_round.items()
        if c.kind == "pending"
    }
    out: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for game in games:
        if (game.participant, game.round) in pending and not game.played:
            kind = "pending"
        else:
            kind = "played" if game.played else game.kind
        opponents = [game.opponent] if game.opponent is not None else []
        out[game.participant][game.round] = CrossCell(
            game.round,
            kind,
            game.result if kind != "pending" else "",
            [Opponent(o, rank.get(o), names.get(o, str(o))) for o in opponents],
            [],
            game.points_for,
            game.points_against,
        )
    return out


def _player_cells(
    ledger: results.Ledger, rank: dict[int, int], names: dict[int, str]
) -> dict[int, dict[int, CrossCell]]:
    players_of = {pk: [p.pk for p in e.players.all()] for pk, e in ledger.entries.items()}
    out: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for entry_id, by_round in ledger.cells.items():
        for number_, cell in by_round.items():
            kind = cell.kind or "played"
            opponents = [p for o in cell.opponents for p in players_of.get(o, [])]
            for player in players_of.get(entry_id, []):
                partners = [p for p in players_of.get(entry_id, []) if p != player]
                partners += [p for o in cell.partners for p in players_of.get(o, [])]
                out[player].setdefault(number_, _cell(cell, kind, opponents, partners, rank, names))
    return out


def crosstable(tournament: Tournament, round_number: Any = None, scope: Any = None) -> Crosstable:
    """Rows in standings order, a cell per round (see the module docstring)."""
    res = results_table(tournament, round_number, scope, need_ledger=True)
    ledger = res.ledger
    assert ledger is not None
    table = res.table
    rank = {line.participant: line.rank for line in table.lines}
    names = {line.participant: line.name for line in table.lines}
    if table.scope == "teams":
        cells = _team_cells(ledger, rank, names)
    elif table.scope == "players":
        names.update((p.pk, p.full_name) for e in ledger.entries.values() for p in e.players.all())
        cells = _player_cells(ledger, rank, names)
    else:
        names.update((pk, e.name) for pk, e in ledger.entries.items())
        cells = _entry_cells(ledger, rank, names)
    rows = [
        CrossRow(line, [cells.get(line.participant, {}).get(n) for n in ledger.rounds])
        for line in table.lines
    ]
    return Crosstable(res, list(ledger.rounds), rows)


# --- a player's history -------------------------------------------------------------------------


@dataclass
class HistoryDeal:
    n: int
    winner: str  # "ours", "theirs", "" (blocked, nobody)
    ours: int  # points recorded this deal by the player's side
    theirs: int
    total_ours: int
    total_theirs: int


@dataclass
class HistoryMatch:
    tournament: Tournament
    round: int
    table: int | None
    side: str  # NS, EW, BYE
    seat: str  # N, E, S, W or ""
    entry: Entry
    partners: list[tuple[int, str]]
    opponents: list[tuple[Entry, list[tuple[int, str]]]]
    kind: str  # played, pending, bye, forfeit_win, forfeit_loss
    result: str  # win, draw, loss, ""
    points_for: int
    points_against: int
    match: int | None
    match_status: str
    deals: list[HistoryDeal]

    @property
    def mark(self) -> str:
        return CrossCell(self.round, self.kind, self.result).mark


def history_tournaments(player: Player, visible: QuerySet[Tournament]) -> QuerySet[Tournament]:
    return visible.filter(entries__players=player).distinct()


def player_history(player: Player, visible: QuerySet[Tournament]) -> list[HistoryMatch]:
    """Every table and bye of ``player`` in counted rounds of ``visible`` tournaments, newest
    tournament first, rounds in order (seven queries however many tournaments and rounds)."""
    own = list(
        PairingEntry.objects.filter(
            entry__players=player, round__status__in=results.COUNTED, round__tournament__in=visible
        ).values_list("pairing_id", "entry_id")
    )
    own_entry = dict(own)
    pairings = list(
        Pairing.objects.filter(pk__in=own_entry).select_related(
            "round__tournament", "match", "seat_n", "seat_e", "seat_s", "seat_w"
        )
    )
    places = list(
        PairingEntry.objects.filter(pairing__in=own_entry)
        .select_related("entry")
        .order_by("pairing_id", "side", "position")
    )
    entry_ids = {p.entry_id for p in places}
    roster: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for entry_id, player_id, last, first in (
        Entry.players.through.objects.filter(entry_id__in=entry_ids)
        .order_by("player__last_name", "player__first_name", "player_id")
        .values_list("entry_id", "player_id", "player__last_name", "player__first_name")
    ):
        roster[entry_id].append((player_id, f"{last} {first}".strip()))
    forfeits: dict[int, set[int]] = defaultdict(set)
    for pairing_id, entry_id in Sanction.objects.filter(
        pairing__in=own_entry, kind=Sanction.Kind.FORFEIT, revoked_at__isnull=True
    ).values_list("pairing_id", "entry_id"):
        forfeits[pairing_id].add(entry_id)
    match_ids = [p.match_id for p in pairings if p.match_id]
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(match_id__in=match_ids).only("match_id", "n", "verdict"):
        deals[deal.match_id].append(deal)
    by_pairing: dict[int, list[PairingEntry]] = defaultdict(list)
    for place in places:
        by_pairing[place.pairing_id].append(place)

    history = []
    for pairing in pairings:
        tournament = pairing.round.tournament
        mine = next(p for p in by_pairing[pairing.pk] if p.entry_id == own_entry[pairing.pk])
        side = mine.side
        other = {"NS": "EW", "EW": "NS"}.get(side, "")
        seat = next(
            (s for s in "NESW" if getattr(pairing, f"seat_{s.lower()}_id") == player.pk), ""
        )
        same = [p for p in by_pairing[pairing.pk] if p.side == side]
        partners = [pl for p in same for pl in roster.get(p.entry_id, []) if pl[0] != player.pk]
        opponents = [
            (p.entry, roster.get(p.entry_id, [])) for p in by_pairing[pairing.pk] if p.side == other
        ]
        match = pairing.match
        kind, result, ours, theirs = "pending", "", 0, 0
        offenders = forfeits.get(pairing.pk, set())
        if side == "BYE":
            kind, result = "bye", tournament.bye_result
        elif offenders:
            lost = bool(offenders & {p.entry_id for p in same})
            kind, result = ("forfeit_loss", "loss") if lost else ("forfeit_win", "win")
        elif match is not None and match.status == Match.Status.CONFIRMED and match.winner:
            kind = "played"
            result = (
                "draw" if match.winner == "draw" else ("win" if match.winner == side else "loss")
            )
            ours = int((match.totals or {}).get(side, 0))
            theirs = int((match.totals or {}).get(other, 0))
        rows = []
        for deal in sorted(deals.get(pairing.match_id or 0, []), key=lambda d: d.n):
            verdict = deal.verdict or {}
            winner = verdict.get("winner") or ""
            recorded, totals = verdict.get("recorded") or {}, verdict.get("totals") or {}
            rows.append(
                HistoryDeal(
                    deal.n,
                    "ours" if winner == side else ("theirs" if winner == other else ""),
                    int(recorded.get(side, 0)),
                    int(recorded.get(other, 0)),
                    int(totals.get(side, 0)),
                    int(totals.get(other, 0)),
                )
            )
        history.append(
            HistoryMatch(
                tournament,
                pairing.round.number,
                pairing.table,
                side,
                seat,
                mine.entry,
                partners,
                opponents,
                kind,
                result,
                ours,
                theirs,
                pairing.match_id,
                match.status if match is not None else "",
                rows,
            )
        )
    # newest tournament first, then its rounds in order
    history.sort(
        key=lambda h: (
            -(h.tournament.start_date.toordinal() if h.tournament.start_date else 0),
            -h.tournament.pk,
            h.round,
        )
    )
    return history


def group_by_tournament(history: list[HistoryMatch]) -> list[tuple[Tournament, list[HistoryMatch]]]:
    groups: dict[int, tuple[Tournament, list[HistoryMatch]]] = {}
    for item in history:
        groups.setdefault(item.tournament.pk, (item.tournament, []))[1].append(item)
    return list(groups.values())
