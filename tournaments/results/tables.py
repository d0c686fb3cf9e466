"""Standings tables from a ``Ledger``: entries, teams and the players of pairs and teams.

    live_table(tournament, upto_round=None, scope=...) -> Table   computed now
    table(tournament, round_number=None, scope=...) -> Table      a finished round's snapshot,
                                                                  else live
    entry_rows / team_rows / player_rows(ledger)                  ranked by ``standings``

Teams and players. In a team event the entries are the pairs; a team's round is its pairs' games
against one other team: it wins the team match when its pairs scored more match points, and its
points are the sum of its pairs'. Players of pairs and teams get their own table: each player
scores the games of its entry (opponents: the other side's players).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments import standings as pure
from tournaments.models import (
    Entry,
    Player,
    Round,
    Standing,
    Tournament,
)
from tournaments.results.ledger import (
    COUNTED,
    Ledger,
    club_name,
    gc_paused,
    load,
    standings_settings,
)
from tournaments.selectors import lineups


@dataclass
class Line:
    """A row of a standings table with what a page needs to show it."""

    rank: int
    participant: int
    name: str
    club: str
    row: dict[str, Any]
    pending: int = 0  # tables of this participant still in play (live standings)
    players: list[str] = field(default_factory=list)


@dataclass
class Table:
    tournament: Tournament
    round_number: int
    scope: str  # entries, teams, players
    source: str  # snapshot or live
    order: tuple[str, ...]
    lines: list[Line]


_ROW_FIELDS: tuple[str, ...] = pure.Row._fields


def row_dict(row: pure.Row) -> dict[str, Any]:
    data = dict(zip(_ROW_FIELDS, row, strict=True))
    data["tiebreaks"] = list(row.tiebreaks)
    return data


def _entry_participants(ledger: Ledger) -> list[int]:
    """The entries ranked in the entries table (not the team rows of a team event)."""
    teams = ledger.tournament.format == Tournament.Format.TEAMS
    return [pk for pk, e in ledger.entries.items() if not teams or e.team_id is not None]


def _lines(rows: Sequence[pure.Row], names: dict[int, tuple[str, str, list[str]]],
           pending: dict[int, int]) -> list[Line]:  # fmt: skip
    lines = []
    for row in rows:
        name, club, players = names.get(row.participant, (str(row.participant), "", []))
        lines.append(Line(row.rank, row.participant, name, club, row_dict(row),
                          pending.get(row.participant, 0), players))  # fmt: skip
    return lines


def entry_players(tournament: Tournament) -> dict[int, list[tuple[int, str]]]:
    """Each entry's players as (id, name), in one query of plain values."""
    players: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for entry_id, player_id, last, first in (
        Entry.players.through.objects.filter(entry__tournament=tournament)
        .order_by("player__last_name", "player__first_name", "player_id")
        .values_list("entry_id", "player_id", "player__last_name", "player__first_name")
    ):
        players[entry_id].append((player_id, f"{last} {first}".strip()))
    return dict(players)


def ledger_players(ledger: Ledger) -> dict[int, list[tuple[int, str]]]:
    """``entry_players`` of the ledger's tournament, read once per ledger (the table and the
    page that shows it both need them)."""
    if ledger.entry_players is None:
        ledger.entry_players = entry_players(ledger.tournament)
    return ledger.entry_players


def _names(players: list[tuple[int, str]]) -> list[str]:
    return [name for _pk, name in players]


def _entry_names(ledger: Ledger) -> dict[int, tuple[str, str, list[str]]]:
    players = ledger_players(ledger)
    return {
        pk: (e.name, club_name(e), _names(players.get(pk, [])))
        for pk, e in ledger.entries.items()
    }


def _pending(ledger: Ledger) -> dict[int, int]:
    return ledger.pending


def entry_rows(ledger: Ledger) -> list[pure.Row]:
    participants = _entry_participants(ledger)
    chosen = set(participants)
    settings = standings_settings(ledger.tournament)
    games = [g for g in ledger.games if g.participant in chosen]
    return pure.standings(participants, games, settings, ledger.pure_sanctions(chosen),
                          upto_round=ledger.last_round or None)  # fmt: skip


def team_games(ledger: Ledger) -> tuple[list[int], list[pure.Game]]:
    """A team event's rounds as team games (see the module docstring)."""
    teams = [pk for pk, e in ledger.entries.items() if e.team_id is None]
    team_of = {pk: e.team_id for pk, e in ledger.entries.items() if e.team_id is not None}
    settings = standings_settings(ledger.tournament)
    per: dict[tuple[int, int], list[pure.Game]] = defaultdict(list)
    for game in ledger.games:
        team = team_of.get(game.participant)
        if team is not None:
            per[(team, game.round)].append(game)
    result: list[pure.Game] = []
    for team in teams:
        for number in ledger.rounds:
            games = per.get((team, number), [])
            played = [g for g in games if g.played]
            if played:
                opponents = [team_of.get(o) for g in played for o in g.faced()]
                opponent = max(set(opponents), key=opponents.count) if opponents else None
                ours = sum(settings.points_for(g.result) for g in games)
                theirs = sum(settings.points_for(_flip(g.result)) for g in games)
                outcome = "win" if ours > theirs else ("loss" if ours < theirs else "draw")
                result.append(pure.Game(
                    number, team, opponent, outcome,  # type: ignore[arg-type]
                    sum(g.points_for for g in games), sum(g.points_against for g in games),
                    sum(g.deals_won for g in games),
                ))  # fmt: skip
            elif games and all(g.kind == "bye" for g in games):
                result.append(pure.Game(number, team, None, settings.bye_result, played=False,
                                        kind="bye"))  # fmt: skip
            elif games and any(g.kind == "forfeit_win" for g in games):
                result.append(pure.Game(number, team, None, "win", played=False,
                                        kind="forfeit_win"))  # fmt: skip
            elif games and any(g.kind == "forfeit_loss" for g in games):
                result.append(pure.Game(number, team, None, "loss", played=False,
                                        kind="forfeit_loss"))  # fmt: skip
            elif not games or all(g.kind in ("absent", "withdrawn") for g in games):
                withdrawn = bool(games) and all(g.kind == "withdrawn" for g in games)
                kind = "withdrawn" if withdrawn else "absent"
                result.append(pure.Game(number, team, None, "loss", played=False, kind=kind))  # type: ignore[arg-type]
    return teams, result


def _flip(result: str) -> str:
    return {"win": "loss", "loss": "win"}.get(result, "draw")


def team_rows(ledger: Ledger) -> list[pure.Row]:
    teams, games = team_games(ledger)
    settings = standings_settings(ledger.tournament)
    known = set(teams)
    team_of = {pk: e.team_id for pk, e in ledger.entries.items() if e.team_id is not None}
    sanctions = []
    for s in ledger.pure_sanctions():
        team = team_of.get(s.participant, s.participant)  # a pair's sanction counts for its team
        if team in known:
            sanctions.append(pure.Sanction(team, s.round, s.points, s.game_points))
    return pure.standings(teams, games, settings, sanctions,
                          upto_round=ledger.last_round or None)  # fmt: skip


def player_rows(ledger: Ledger) -> tuple[list[pure.Row], dict[int, tuple[str, str, list[str]]]]:
    """Players of the entries, each scoring its entry's games (opponents: their players); in a
    round where a substitute sat in for a player, the substitute scores it, not the player."""
    players_of: dict[int, list[Player]] = {}
    everyone: dict[int, Player] = {}
    for pk, entry in ledger.entries.items():
        players_of[pk] = list(entry.players.all())
        everyone.update((p.pk, p) for p in players_of[pk])
    subs = lineups(tournament=ledger.tournament)
    sub_players = subs.substitutes()
    sub_entry = {s.player_id: s.entry_id for rows in subs.by_entry.values() for s in rows}

    def played(entry: int, number: int) -> list[Player]:
        swap = subs.replacements(entry, number)
        if not swap:
            return players_of.get(entry, [])
        return [sub_players[swap[p.pk]] if p.pk in swap else p for p in players_of.get(entry, [])]

    games: list[pure.Game] = []
    seen: set[tuple[int, int]] = set()  # a player in two entries would score a round twice
    for game in ledger.games:
        theirs = tuple(p.pk for o in game.faced() for p in played(o, game.round))
        for player in played(game.participant, game.round):
            if (player.pk, game.round) in seen:
                continue
            seen.add((player.pk, game.round))
            everyone.setdefault(player.pk, player)  # a substitute is in once he played
            if game.played:
                opponent = theirs[0] if theirs else None
                many = theirs if len(theirs) > 1 else ()
                games.append(game._replace(participant=player.pk, opponent=opponent,
                                           opponents=many))  # fmt: skip
            else:
                games.append(game._replace(participant=player.pk))
    sanctions = []
    for s in ledger.pure_sanctions():
        for player in played(s.participant, s.round):
            sanctions.append(pure.Sanction(player.pk, s.round, s.points, s.game_points))
    rows = pure.standings(list(everyone), games, standings_settings(ledger.tournament),
                          sanctions, upto_round=ledger.last_round or None)  # fmt: skip
    entry_of_player = {p.pk: e for e in ledger.entries.values() for p in players_of[e.pk]}
    entry_of_player.update((pk, ledger.entries[e]) for pk, e in sub_entry.items()
                           if e in ledger.entries and pk not in entry_of_player)  # fmt: skip
    names = {}
    for pk, p in everyone.items():
        entry = entry_of_player.get(pk)
        club = p.club.name if p.club else (entry.club.name if entry and entry.club else "")
        names[pk] = (p.full_name, club, [entry.name if entry else ""])
    return rows, names


def live_table(tournament: Tournament, upto_round: int | None = None, scope: str = "entries",
               ledger: Ledger | None = None) -> Table:  # fmt: skip
    """Standings computed now from the confirmed tables (a bounded number of queries)."""
    with gc_paused():
        return _live_table(tournament, upto_round, scope, ledger)


def _live_table(tournament: Tournament, upto_round: int | None, scope: str,
                ledger: Ledger | None) -> Table:  # fmt: skip
    ledger = ledger or load(tournament, upto_round, players=scope == "players", with_cells=False)
    settings = standings_settings(tournament)
    if scope == "teams":
        lines = _lines(team_rows(ledger), _entry_names(ledger), {})
    elif scope == "players":
        rows, names = player_rows(ledger)
        lines = _lines(rows, names, {})
    else:
        lines = _lines(entry_rows(ledger), _entry_names(ledger), _pending(ledger))
    return Table(tournament, ledger.last_round, scope, "live", settings.order, lines)


def default_scope(tournament: Tournament) -> str:
    return "teams" if tournament.format == Tournament.Format.TEAMS else "entries"


def table(tournament: Tournament, round_number: int | None = None,
          scope: str | None = None) -> Table:  # fmt: skip
    """The standings after ``round_number`` (the latest counted round when None): the snapshot
    when that round is finished and the table is a stored one, otherwise computed live."""
    scope = scope or default_scope(tournament)
    rounds = {r.number: r for r in tournament.round_set.filter(status__in=COUNTED)}
    if round_number is None:
        round_number = max(rounds) if rounds else 0
    round_ = rounds.get(round_number)
    if (
        round_ is not None
        and round_.status == Round.Status.FINISHED
        and scope in (Standing.Scope.ENTRIES, Standing.Scope.TEAMS)
    ):
        stored = list(
            Standing.objects.filter(round=round_, scope=scope)
            .order_by("rank")
            .values_list("rank", "entry_id", "entry__name", "entry__club__name", "metrics")
        )
        if stored:
            settings = standings_settings(tournament)
            players = entry_players(tournament)
            lines = [
                Line(rank, pk, name, club or "", metrics, 0, _names(players.get(pk, [])))
                for rank, pk, name, club, metrics in stored
            ]
            return Table(tournament, round_number, scope, "snapshot", settings.order, lines)
    return live_table(tournament, round_number or None, scope)
