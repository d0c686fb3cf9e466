"""Standings from the database: the bridge between the tables and the pure ``standings`` package.

    standings_settings(tournament) -> Settings        points, bye, target, tie-break order
    load(tournament, upto_round=None) -> Ledger       every round of every entry, in 7 queries
    live_table(tournament, upto_round=None) -> Table  computed now (entries, teams, players)
    table(tournament, round_number=None) -> Table     a finished round's snapshot, else live
    finish_round(user, round_id) -> Round             every table decided: snapshot, ``finished``
    record_sanction(user, tournament_id, ...) / revoke_sanction(user, sanction_id, reason)
    results_stamp(tournament) -> str                  changes whenever the standings may

What counts. Rounds that are published or finished, up to ``upto_round``. A table counts when its
protocol is confirmed, or when a forfeit decides it; a table still in play is left out (live
standings show it as pending). A bye scores as the tournament's ``bye_result``. An entry without a
place in a counted round was absent: by request (``EntryAbsence``), because it joined later, or,
after its last place, because it withdrew (``withdrawn``, which its opponents' Buchholz counts as a
draw). Active sanctions deduct in their round; revoked ones count nothing.

Points. ``points_for`` is what the entry's side recorded and ``points_against`` the other side's,
except under ``losers_record_own`` («козёл»: a side records its own bad points) where the two
are swapped, so that "more points for" is better under every preset.

Teams and players. In a team event the entries are the pairs; a team's round is its pairs' games
against one other team: it wins the team match when its pairs scored more match points, and its
points are the sum of its pairs'. Players of pairs and teams get their own table: each player
scores the games of its entry (opponents: the other side's players).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, OuterRef, Prefetch, Q, Subquery, Sum
from django.db.models.fields.json import KT
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.roles import CHIEF_REFEREE, has_role
from rules import RulesError
from scoring.models import Match
from tournaments import standings as pure
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import (
    Entry,
    EntryAbsence,
    PairingEntry,
    Player,
    Round,
    Sanction,
    Standing,
    Tournament,
)
from tournaments.services import User, can_manage

COUNTED = (Round.Status.PUBLISHED, Round.Status.FINISHED)
SIDES = ("NS", "EW")
END_KINDS = {"target": "target", "instant": "target", "time": "time", "deals": "deals"}


def standings_settings(tournament: Tournament) -> pure.Settings:
    target: int | None = None
    try:
        rules = tournament.rules
        if rules.end in ("target_wins", "target_loses"):
            target = rules.target
    except RulesError:
        target = None
    order = tuple(name for name in tournament.tie_break_order() if name in pure.TIEBREAKS)
    return pure.Settings(
        win=tournament.points_win, draw=tournament.points_draw, loss=tournament.points_loss,
        bye_result=tournament.bye_result,  # type: ignore[arg-type]
        target=target, order=order or pure.SPORTS_ORDER, seed=lot_seed(tournament),
    )  # fmt: skip


def lot_seed(tournament: Tournament) -> int:
    """The seed of the last-resort lot: the creation time in microseconds, which an archive
    restores exactly (a primary key would change on import and reorder tied lines)."""
    created = tournament.created_at
    return int(created.timestamp() * 1_000_000) if created else (tournament.pk or 0)


def _swapped(tournament: Tournament) -> bool:
    try:
        return tournament.rules.scoring == "losers_record_own"
    except RulesError:
        return False


# --- loading ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Cell:
    """One entry's round as the crosstable and the player pages show it."""

    round: int
    kind: str  # "" played, "pending", or an unplayed kind (bye, forfeit_win, absent, …)
    result: str = ""  # win, draw, loss ("" while pending)
    opponents: tuple[int, ...] = ()
    partners: tuple[int, ...] = ()
    points_for: int = 0
    points_against: int = 0
    table: int | None = None
    match: int | None = None
    side: str = ""


@dataclass
class Ledger:
    """Everything the standings of one tournament need, loaded once."""

    tournament: Tournament
    entries: dict[int, Entry]
    rounds: list[int]
    games: list[pure.Game]
    sanctions: list[Sanction]
    cells: dict[int, dict[int, Cell]] = field(default_factory=dict)  # entry -> round -> cell

    @property
    def last_round(self) -> int:
        return self.rounds[-1] if self.rounds else 0

    def pure_sanctions(self, participants: set[int] | None = None) -> list[pure.Sanction]:
        result = []
        for sanction in self.sanctions:
            if sanction.entry_id not in self.entries or sanction.round_number > self.last_round:
                continue
            if participants is not None and sanction.entry_id not in participants:
                continue
            if sanction.match_points or sanction.game_points:
                result.append(
                    pure.Sanction(
                        sanction.entry_id,
                        sanction.round_number,
                        sanction.match_points,
                        sanction.game_points,
                    )
                )
        return result


def _key(column: str, key: str) -> KT:
    """A key of a JSON column as text, read by the database (no JSON decoding here)."""
    return KT(f"{column}__{key}")


def _result(winner: str, side: str) -> str:
    if winner == "draw":
        return "draw"
    return "win" if winner == side else "loss"


def load(tournament: Tournament, upto_round: int | None = None, players: bool = True) -> Ledger:
    """Load the tournament's counted rounds (7 queries) into plain games and cells.

    ``players=False`` leaves the entries' players unloaded (``entry.players.all()`` would then
    query): the entries' standings name players through ``entry_players`` instead, which is
    several times cheaper for a big field.
    """
    rounds_qs = tournament.round_set.filter(status__in=COUNTED)
    if upto_round is not None:
        rounds_qs = rounds_qs.filter(number__lte=upto_round)
    rounds = sorted(rounds_qs.values_list("number", flat=True))
    entry_qs = tournament.entries.select_related("club")
    if players:
        entry_qs = entry_qs.prefetch_related(
            Prefetch(
                "players",
                queryset=Player.objects.select_related("club").order_by(
                    "last_name", "first_name", "pk"
                ),
            )
        )
    entries = {e.pk: e for e in entry_qs}
    last = rounds[-1] if rounds else 0
    places = (
        PairingEntry.objects.filter(round__tournament=tournament, round__status__in=COUNTED,
                                    round__number__lte=last)
        .order_by("round__number", "pairing_id", "side", "position")
        .values_list("round__number", "pairing_id", "pairing__table", "entry_id", "side",
                     "pairing__match_id")
    )  # fmt: skip
    # the decided tables' results, the JSON keys read as text by the database
    decided: dict[int, tuple[str, str, int, int, int, int]] = {
        pk: (winner, end, int(ns or 0), int(ew or 0), int(won_ns or 0), int(won_ew or 0))
        for pk, winner, end, ns, ew, won_ns, won_ew in Match.objects.filter(
            pairing__round__tournament=tournament, pairing__round__status__in=COUNTED,
            pairing__round__number__lte=last, status=Match.Status.CONFIRMED,
        ).exclude(winner="").values_list(
            "pk", "winner", "end", _key("totals", "NS"), _key("totals", "EW"),
            _key("deals_won", "NS"), _key("deals_won", "EW"),
        )
    }  # fmt: skip
    sanctions = list(
        Sanction.objects.filter(tournament=tournament, revoked_at__isnull=True,
                                round_number__lte=last).order_by("round_number", "pk")
    )  # fmt: skip
    forfeits: dict[int, set[int]] = defaultdict(set)  # pairing -> offending entries
    for sanction in sanctions:
        if sanction.kind == Sanction.Kind.FORFEIT and sanction.pairing_id:
            forfeits[sanction.pairing_id].add(sanction.entry_id)
    absent = set(
        EntryAbsence.objects.filter(entry__tournament=tournament).values_list(
            "entry_id", "round_number"
        )
    )

    tables: dict[int, dict[str, Any]] = {}
    for number, pairing_id, table_no, entry_id, side, match_id in places:
        info = tables.get(pairing_id)
        if info is None:
            info = tables[pairing_id] = {"round": number, "table": table_no, "match": match_id,
                                         "NS": [], "EW": [], "BYE": []}  # fmt: skip
        info[side].append(entry_id)

    swap = _swapped(tournament)
    games: list[pure.Game] = []
    cells: dict[int, dict[int, Cell]] = defaultdict(dict)
    for pairing_id, info in tables.items():
        number = info["round"]
        for entry_id in info["BYE"]:
            result = tournament.bye_result
            games.append(pure.Game(number, entry_id, None, result, played=False, kind="bye"))
            cells[entry_id][number] = Cell(number, "bye", result)
        offenders = forfeits.get(pairing_id, set())
        for side in SIDES:
            other = "EW" if side == "NS" else "NS"
            mine, theirs = tuple(info[side]), tuple(info[other])
            for entry_id in mine:
                partners = tuple(e for e in mine if e != entry_id)
                base = Cell(
                    number,
                    "",
                    "",
                    theirs,
                    partners,
                    table=info["table"],
                    match=info["match"],
                    side=side,
                )
                if offenders:
                    lost = bool(offenders & set(mine))
                    kind = "forfeit_loss" if lost else "forfeit_win"
                    base.kind, base.result = kind, ("loss" if lost else "win")
                    games.append(
                        pure.Game(
                            number,
                            entry_id,
                            None,
                            base.result,  # type: ignore[arg-type]
                            played=False,
                            kind=kind,
                        )
                    )  # type: ignore[arg-type]
                elif info["match"] in decided:
                    winner, end, ns, ew, won_ns, won_ew = decided[info["match"]]
                    ours, others = (ns, ew) if side == "NS" else (ew, ns)
                    if swap:
                        ours, others = others, ours
                    base.result = _result(winner, side)
                    base.points_for, base.points_against = ours, others
                    games.append(pure.Game(
                        number, entry_id, theirs[0] if theirs else None,
                        base.result,  # type: ignore[arg-type]
                        ours, others, won_ns if side == "NS" else won_ew,
                        end=END_KINDS.get(end, ""),  # type: ignore[arg-type]
                        opponents=theirs if len(theirs) > 1 else (),
                    ))  # fmt: skip
                else:
                    base.kind = "pending"
                cells[entry_id][number] = base

    # rounds without a place: absent, late, or withdrawn
    last_place: dict[int, int] = {}
    for entry_id, by_round in cells.items():
        last_place[entry_id] = max(by_round)
    for entry_id, entry in entries.items():
        if entry.team_id is None and tournament.format == Tournament.Format.TEAMS:
            continue  # a team's rounds are its pairs'
        for number in rounds:
            if number in cells[entry_id]:
                continue
            withdrawn = entry.status == Entry.Status.WITHDRAWN and number > last_place.get(
                entry_id, 0
            )
            kind = "withdrawn" if withdrawn and (entry_id, number) not in absent else "absent"
            games.append(pure.Game(number, entry_id, None, "loss", played=False, kind=kind))  # type: ignore[arg-type]
            cells[entry_id][number] = Cell(number, kind, "loss")
    return Ledger(tournament, entries, rounds, games, sanctions, dict(cells))


# --- tables -------------------------------------------------------------------------------------


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


def _row_dict(row: pure.Row) -> dict[str, Any]:
    data = {name: getattr(row, name) for name in row.__slots__}  # type: ignore[attr-defined]
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
        lines.append(Line(row.rank, row.participant, name, club, _row_dict(row),
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


def _names(players: list[tuple[int, str]]) -> list[str]:
    return [name for _pk, name in players]


def _entry_names(ledger: Ledger) -> dict[int, tuple[str, str, list[str]]]:
    players = entry_players(ledger.tournament)
    return {
        pk: (e.name, e.club.name if e.club else "", _names(players.get(pk, [])))
        for pk, e in ledger.entries.items()
    }


def _pending(ledger: Ledger) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for entry_id, by_round in ledger.cells.items():
        counts[entry_id] += sum(1 for cell in by_round.values() if cell.kind == "pending")
    return counts


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
    """Players of the entries, each scoring its entry's games (opponents: their players)."""
    players_of: dict[int, list[Player]] = {}
    everyone: dict[int, Player] = {}
    for pk, entry in ledger.entries.items():
        players_of[pk] = list(entry.players.all())
        everyone.update((p.pk, p) for p in players_of[pk])
    games: list[pure.Game] = []
    seen: set[tuple[int, int]] = set()  # a player in two entries would score a round twice
    for game in ledger.games:
        theirs = tuple(p.pk for o in game.faced() for p in players_of.get(o, []))
        for player in players_of.get(game.participant, []):
            if (player.pk, game.round) in seen:
                continue
            seen.add((player.pk, game.round))
            if game.played:
                opponent = theirs[0] if theirs else None
                many = theirs if len(theirs) > 1 else ()
                games.append(game._replace(participant=player.pk, opponent=opponent,
                                           opponents=many))  # fmt: skip
            else:
                games.append(game._replace(participant=player.pk))
    sanctions = []
    for s in ledger.pure_sanctions():
        for player in players_of.get(s.participant, []):
            sanctions.append(pure.Sanction(player.pk, s.round, s.points, s.game_points))
    rows = pure.standings(list(everyone), games, standings_settings(ledger.tournament),
                          sanctions, upto_round=ledger.last_round or None)  # fmt: skip
    club_of = {
        p.pk: (p.club.name if p.club else (e.club.name if e.club else ""))
        for e in ledger.entries.values() for p in players_of[e.pk]
    }  # fmt: skip
    entry_of = {p.pk: e.name for e in ledger.entries.values() for p in players_of[e.pk]}
    names = {pk: (p.full_name, club_of.get(pk, ""), [entry_of.get(pk, "")])
             for pk, p in everyone.items()}  # fmt: skip
    return rows, names


def live_table(tournament: Tournament, upto_round: int | None = None, scope: str = "entries",
               ledger: Ledger | None = None) -> Table:  # fmt: skip
    """Standings computed now from the confirmed tables (a bounded number of queries)."""
    ledger = ledger or load(tournament, upto_round, players=scope == "players")
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


# --- what the standings depend on ---------------------------------------------------------------


def _per_tournament(queryset: Any, path: str, **aggregates: Any) -> dict[str, Subquery]:
    """Aggregates of ``queryset`` for the outer tournament, as subqueries of one query."""
    grouped = queryset.filter(**{path: OuterRef("pk")}).order_by().values(path)
    return {
        name: Subquery(grouped.annotate(value=aggregate).values("value")[:1])
        for name, aggregate in aggregates.items()
    }


def results_stamp(tournament: Tournament) -> str:
    """A fingerprint of everything a tournament's standings are computed from, in one query:
    the settings that score and order them, its rounds' statuses, every match's last change
    (the scoring services save each change, bumping ``updated_at``), sanctions, entries,
    absences and snapshots. Pages may cache what they computed under it; a new result, round,
    sanction, withdrawal or snapshot changes it. Renaming a player or an entry does not: caches
    keyed by it must also expire (see ``crosstable.CACHE_SECONDS``)."""
    t = tournament
    published, finished = Round.Status.PUBLISHED, Round.Status.FINISHED
    parts = {
        **_per_tournament(Round.objects, "tournament", s_rounds=Count("pk"),
                          s_last_round=Max("number"),
                          s_published=Count("pk", filter=Q(status=published)),
                          s_finished=Count("pk", filter=Q(status=finished)),
                          s_statuses=Max("status")),
        **_per_tournament(Match.objects, "pairing__round__tournament", s_matches=Count("pk"),
                          s_match_top=Max("pk"), s_changed=Max("updated_at"),
                          s_versions=Sum("version")),
        **_per_tournament(Sanction.objects, "tournament", s_sanctions=Count("pk"),
                          s_sanction_top=Max("pk"), s_revoked=Max("revoked_at")),
        **_per_tournament(Entry.objects, "tournament", s_entries=Count("pk"), s_entry_top=Max("pk"),
                          s_withdrawn=Count("pk", filter=Q(status=Entry.Status.WITHDRAWN))),
        **_per_tournament(EntryAbsence.objects, "entry__tournament", s_absences=Count("pk"),
                          s_absence_top=Max("pk")),
        **_per_tournament(Standing.objects, "round__tournament", s_standings=Count("pk"),
                          s_standing_top=Max("pk")),
    }  # fmt: skip
    values = Tournament.objects.filter(pk=t.pk).annotate(**parts).values(*parts).first()
    settings = (
        t.pk, t.created_at, t.format, t.rules_preset, t.rules_options, t.points_win,
        t.points_draw, t.points_loss, t.bye_result, t.tie_breaks,
    )  # fmt: skip
    raw = repr((settings, values))
    return hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()


# --- finishing a round --------------------------------------------------------------------------


def _locked_round(user: User, round_id: int) -> Round:
    round_ = (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_id)
    )
    if not can_manage(user, round_.tournament):
        raise NotAllowed.one("not_allowed", _("You do not manage this tournament."))
    return round_


def take_snapshot(round_: Round) -> int:
    """Write the standings after ``round_`` (replacing any earlier snapshot of it)."""
    tournament = round_.tournament
    ledger = load(tournament, round_.number)
    Standing.objects.filter(round=round_).delete()
    rows: list[Standing] = []
    scopes: list[tuple[str, list[pure.Row]]] = [(Standing.Scope.ENTRIES, entry_rows(ledger))]
    if tournament.format == Tournament.Format.TEAMS:
        scopes.append((Standing.Scope.TEAMS, team_rows(ledger)))
    for scope, ranked in scopes:
        rows += [Standing(round=round_, entry_id=row.participant, scope=scope, rank=row.rank,
                          match_points=row.match_points, metrics=_row_dict(row))
                 for row in ranked]  # fmt: skip
    Standing.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def finish_round(user: User, round_id: int) -> Round:
    """Close a published round whose every table is confirmed or forfeited; take the snapshot."""
    with transaction.atomic():
        round_ = _locked_round(user, round_id)
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
    return round_


def refresh_snapshots(tournament: Tournament, from_round: int) -> None:
    """Retake the snapshots of finished rounds from ``from_round`` on (after a correction or a
    sanction changed them)."""
    finished = tournament.round_set.filter(status=Round.Status.FINISHED, number__gte=from_round)
    for round_ in finished.order_by("number"):
        take_snapshot(round_)


# --- discipline ---------------------------------------------------------------------------------


def can_judge(user: User, tournament: Tournament) -> bool:
    return can_manage(user, tournament) or has_role(user, CHIEF_REFEREE)


def record_sanction(
    user: User, tournament_id: int, *, entry_id: int, round_number: int, kind: str,
    reason: str, player_id: int | None = None, match_points: int = 0, game_points: int = 0,
    table: int | None = None,
) -> Sanction:  # fmt: skip
    """Record a deduction, a card or a forfeit; it flows into the standings at once."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not can_judge(user, tournament):
            raise NotAllowed.one("not_allowed", _("Only the chief referee records sanctions."))
        problems = []
        entry = tournament.entries.filter(pk=entry_id).first()
        if entry is None:
            problems.append(("bad_entry", _("No such entry in this tournament."), "entry"))
        if kind not in Sanction.Kind.values:
            problems.append(("bad_kind", _("Unknown kind of sanction."), "kind"))
        if not (reason or "").strip():
            problems.append(("reason_required", _("Say why."), "reason"))
        if not 1 <= round_number <= tournament.rounds:
            problems.append(("bad_round", _("The round must be between 1 and %(n)s.")
                             % {"n": tournament.rounds}, "round_number"))  # fmt: skip
        if match_points < 0 or game_points < 0:
            problems.append(("bad_points", _("A deduction cannot be negative."), "game_points"))
        if kind == Sanction.Kind.DEDUCTION and not (match_points or game_points):
            problems.append(("bad_points", _("Give the points to deduct."), "game_points"))
        player = None
        if player_id is not None and entry is not None:
            player = entry.players.filter(pk=player_id).first()
            if player is None:
                problems.append(("bad_player", _("The player does not play for this entry."),
                                 "player"))  # fmt: skip
        pairing = None
        if kind == Sanction.Kind.FORFEIT and entry is not None:
            place = (
                PairingEntry.objects.select_related("pairing")
                .filter(entry=entry, round__number=round_number, round__status__in=COUNTED,
                        pairing__table__isnull=False)
                .first()
            )  # fmt: skip
            if place is None:
                problems.append(("no_table", _("The entry has no table in round %(n)s.")
                                 % {"n": round_number}, "round_number"))  # fmt: skip
            elif table is not None and place.pairing.table != table:
                problems.append(("bad_table", _("The entry plays at table %(t)s.")
                                 % {"t": place.pairing.table}, "table"))  # fmt: skip
            else:
                pairing = place.pairing
        if problems:
            raise TournamentError([{"code": c, "message": str(m), "field": f}
                                   for c, m, f in problems])  # fmt: skip
        if kind == Sanction.Kind.YELLOW:
            game_points = game_points or tournament.yellow_card_points
        elif kind == Sanction.Kind.RED:
            game_points = game_points or tournament.red_card_points
        sanction = Sanction.objects.create(
            tournament=tournament, entry=entry, player=player, round_number=round_number,
            kind=kind, match_points=match_points, game_points=game_points, pairing=pairing,
            reason=reason.strip(), created_by=user if user.is_authenticated else None,
        )  # fmt: skip
        if kind == Sanction.Kind.BLACK and entry is not None:
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])
        refresh_snapshots(tournament, round_number)
    return sanction


def revoke_sanction(user: User, sanction_id: int, reason: str) -> Sanction:
    with transaction.atomic():
        sanction = (
            Sanction.objects.select_for_update().select_related("tournament").get(pk=sanction_id)
        )
        if not can_judge(user, sanction.tournament):
            raise NotAllowed.one("not_allowed", _("Only the chief referee revokes sanctions."))
        if not (reason or "").strip():
            raise TournamentError.one("reason_required", _("Say why."), "reason")
        if sanction.revoked_at is not None:
            raise Conflict.one("already_revoked", _("The sanction was already revoked."))
        sanction.revoked_at = timezone.now()
        sanction.revoked_by = user if user.is_authenticated else None  # type: ignore[assignment]
        sanction.revoke_reason = reason.strip()
        sanction.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
        refresh_snapshots(sanction.tournament, sanction.round_number)
    return sanction


def sanctions_of(tournament: Tournament) -> Iterable[Sanction]:
    return tournament.sanctions.select_related("entry", "player", "pairing", "created_by",
                                               "revoked_by")  # fmt: skip


__all__ = [
    "Cell", "Ledger", "Line", "Table", "finish_round", "live_table", "load", "record_sanction",
    "refresh_snapshots", "revoke_sanction", "standings_settings", "table", "take_snapshot",
]  # fmt: skip
