"""Standings from the database: loading every round of every entry into a ``Ledger``.

    standings_settings(tournament) -> Settings        points, bye, target, tie-break order
    load(tournament, upto_round=None) -> Ledger       every round of every entry, in 7 queries
    lot_seed(tournament) -> int                       the last-resort lot, stable across imports
    gc_paused()                                       the cyclic collector off while a table
                                                      is computed

What counts. Rounds published or finished, up to ``upto_round``. A table counts when its protocol
is confirmed or a forfeit decides it; one still in play is left out (live standings show it
pending). A bye scores the tournament's ``bye_result``. An entry without a place in a counted round
was absent: by request (``EntryAbsence``), because it joined later, or, after its last place,
because it withdrew. For its opponents' Buchholz, its rounds after its last paired one count as
draws (C.07 art. 16: ``tournaments.standings``); a forfeit is a paired round. Active sanctions
deduct in their round; revoked ones count nothing.

Points. ``points_for`` is what the entry's side recorded and ``points_against`` the other side's,
except under ``losers_record_own`` («козёл»: a side records its own bad points) and in the club
games where fewer points, sticks or generals are better (all but «дворовое», ``rules.club``),
where the two are swapped, so that "more points for" is better under every preset. «Семёрка»
reads each player's place at the table (1 the last one left; ``Match.outcome``) in place of
the sticks, so its difference ranks the players by when they went out.

Each for himself (three or four sides at a table, ``tournaments.formats``): the match's winner
wins, the other players lose; a drawn match is a draw for the players level at the top and a
loss for the rest. ``points_against`` is the best opponent's total (the one to beat), so the
difference is the winner's margin over the runner-up and every other player's distance from the
winner, and the efectividad of a target match is T minus the runner-up's points for the
winner, as with two sides.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from rules import RulesError
from scoring.models import Match
from tournaments import formats
from tournaments import standings as pure
from tournaments.models import (
    Entry,
    EntryAbsence,
    PairingEntry,
    Player,
    Round,
    Sanction,
    Tournament,
)
from tournaments.results import places as places_
from tournaments.results import round_games
from tournaments.results.places import TYPED
from tournaments.results.sides import side_result as side_result  # read here by its callers
from tournaments.results.sides import swapped

COUNTED = (Round.Status.PUBLISHED, Round.Status.FINISHED)


#: every side a table's match may have: two pairs, or the seats of players each on his own
SIDES = ("NS", "EW", "N", "E", "S", "W")


def _sides_of(tournament: Tournament) -> tuple[str, ...]:
    """The sides whose totals are read: a pair format's matches have only ``NS`` and ``EW``
    (``tournaments.formats``), and reading just those keys of a big event's totals halves that
    query's work; other formats read every side."""
    return ("NS", "EW") if tournament.format in formats.PAIR_FORMATS else SIDES


def standings_settings(tournament: Tournament) -> pure.Settings:
    target: int | None = None
    try:
        rules = tournament.rules
        # the fives games always end at a target (RULES.md section 20)
        if getattr(rules, "end", "target_wins") in ("target_wins", "target_loses"):
            target = rules.target
    except RulesError:
        target = None
    order = tuple(name for name in tournament.tie_break_order() if name in pure.TIEBREAKS)
    return pure.Settings(
        win=tournament.points_win, draw=tournament.points_draw, loss=tournament.points_loss,
        bye_result=tournament.bye_result,  # type: ignore[arg-type]
        target=target, order=order or pure.SPORTS_ORDER, seed=lot_seed(tournament),
        efectividad="plain" if tournament.efectividad == "plain" else "capped",
        forfeit_win_share=tournament.forfeit_win_percent / 100,
        forfeit_loss_share=tournament.forfeit_loss_percent / 100,
        bye_share=tournament.bye_percent / 100,
    )  # fmt: skip


def lot_seed(tournament: Tournament) -> int:
    """The seed of the last-resort lot: the creation time in microseconds, which an archive
    restores exactly (a primary key would change on import and reorder tied lines)."""
    created = tournament.created_at
    return int(created.timestamp() * 1_000_000) if created else (tournament.pk or 0)


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
    result_only: bool = False  # the desk typed the final score without deals


@dataclass(slots=True)
class EntryFacts:
    """What the standings read of an entry, from plain values: ``load(players=False)`` builds
    these rather than a thousand ``Entry`` models with their clubs (12 ms of a live page)."""

    pk: int
    name: str
    status: str
    team_id: int | None
    club_name: str


def club_name(entry: Entry | EntryFacts) -> str:
    if isinstance(entry, EntryFacts):
        return entry.club_name
    return entry.club.name if entry.club else ""


@dataclass
class Ledger:
    """Everything the standings of one tournament need, loaded once."""

    tournament: Tournament
    #: ``Entry`` models with their clubs (and players), or ``EntryFacts`` (``players=False``)
    entries: dict[int, Any]
    rounds: list[int]
    games: list[pure.Game]
    sanctions: list[Sanction]
    cells: dict[int, dict[int, Cell]] = field(default_factory=dict)  # entry -> round -> cell
    pending: dict[int, int] = field(default_factory=dict)  # entry -> its tables still in play
    pending_tables: int = 0  # tables still in play (live standings)
    #: each entry's players as (id, name), read once (``tables.ledger_players``)
    entry_players: dict[int, list[tuple[int, str]]] | None = None
    #: the tables read from the places (the rounds not kept, ``round_games``): pairing ->
    #: ``places.table_places``' ``info`` (``live_state`` keeps those of the rounds in play)
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the decided matches among those tables (``places.decisions``)
    decided: dict[int, places_.Decision] = field(default_factory=dict)
    #: (entry, round) of every absence asked for
    absent: set[tuple[int, int]] = field(default_factory=set)

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


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic collector paused while a table is computed: a live table of a thousand
    entries allocates some hundred thousand tuples and rows, none of them in a cycle, and a
    collection in the middle of that found nothing to free and cost 30–40 ms of the page's 150
    (issue 16). Reference counting frees everything as usual; the collector runs again after.
    It runs at once if what was built is still held then (it counts the objects allocated and
    not yet freed): pages pause it until they have returned (``views.TournamentPage``)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load(tournament: Tournament, upto_round: int | None = None, players: bool = True,
         with_cells: bool = True, every_round: bool = False) -> Ledger:  # fmt: skip
    """Load the tournament's counted rounds (7 queries) into plain games and cells.

    ``with_cells=False`` leaves ``cells`` empty (the standings need only the games and the
    counts of tables in play; the crosstable and the exports read the cells).

    ``players=False`` leaves the entries' players unloaded and the entries as ``EntryFacts``
    (plain values: name, status, team, club's name): the entries' standings name players
    through ``entry_players`` instead, which is several times cheaper for a big field.
    """
    rounds_qs = tournament.round_set.filter(status__in=COUNTED)  # the final stage's: ``stages``
    rounds_qs = rounds_qs if every_round else rounds_qs.exclude(stage__number__gte=2)
    if upto_round is not None:
        rounds_qs = rounds_qs.filter(number__lte=upto_round)
    statuses = dict(rounds_qs.values_list("number", "status"))
    rounds = sorted(statuses)
    swap = swapped(tournament)
    sides_read = _sides_of(tournament)
    # the finished rounds' games as their last snapshot stored them (``round_games``), unless
    # the cells are wanted (only the tables have them)
    kept = {} if with_cells else round_games.kept(
        tournament, [n for n in rounds if statuses[n] == Round.Status.FINISHED],
        round_games.basis(tournament, swap, sides_read),
    )  # fmt: skip
    fresh = [n for n in rounds if n not in kept]
    entries: dict[int, Any]
    if players:
        entry_qs = tournament.entries.select_related("club").prefetch_related(
            Prefetch(
                "players",
                queryset=Player.objects.select_related("club").order_by(
                    "last_name", "first_name", "pk"
                ),
            )
        )
        entries = {e.pk: e for e in entry_qs}
    else:
        entries = {
            pk: EntryFacts(pk, name, status, team_id, club or "")
            for pk, name, status, team_id, club in tournament.entries.values_list(
                "pk", "name", "status", "team_id", "club__name")
        }  # fmt: skip
    last = rounds[-1] if rounds else 0
    places = (
        PairingEntry.objects.filter(round__tournament=tournament, round__status__in=COUNTED,
                                    round__number__in=fresh)
        .order_by("round__number", "pairing_id", "side", "position")
        .values_list("round__number", "pairing_id", "pairing__table", "entry_id", "side",
                     "pairing__match_id")
    ) if fresh else []  # fmt: skip
    scored = places_.scored_column(tournament)  # «Семёрка»: the places, not the sticks
    # the decided tables' results
    decided = {} if not fresh else places_.decisions(Match.objects.filter(
        pairing__round__tournament=tournament, pairing__round__status__in=COUNTED,
        pairing__round__number__in=fresh), sides_read, scored)  # fmt: skip
    sanctions = list(
        Sanction.objects.filter(tournament=tournament, revoked_at__isnull=True,
                                round_number__lte=last).order_by("round_number", "pk")
    )  # fmt: skip
    forfeits: dict[int, set[int]] = defaultdict(set)  # pairing -> offending entries
    for sanction in sanctions:
        if sanction.kind == Sanction.Kind.FORFEIT and sanction.pairing_id:
            forfeits[sanction.pairing_id].add(sanction.entry_id)
    absent = set(EntryAbsence.objects.filter(entry__tournament=tournament).values_list(
        "entry_id", "round_number"))  # fmt: skip

    tables: dict[int, dict[str, Any]] = {}
    for number, pairing_id, table_no, entry_id, side, match_id in places:
        info = tables.get(pairing_id)
        if info is None:
            info = tables[pairing_id] = {"round": number, "table": table_no, "match": match_id,
                                         "sides": {}, "BYE": []}  # fmt: skip
        if side == "BYE":
            info["BYE"].append(entry_id)
        else:
            info["sides"].setdefault(side, []).append(entry_id)

    # each round's games apart, joined in the order of the rounds at the end: the stored
    # rounds' and the others' then sum (floats included) in the same order as ever
    per_round: dict[int, list[pure.Game]] = {n: [] for n in rounds}
    cells: dict[int, dict[int, Cell]] = defaultdict(dict)
    placed: dict[int, dict[int, str]] = defaultdict(dict)  # entry -> round -> kind
    for pairing_id, info in tables.items():
        number = info["round"]
        add = per_round[number].append
        offenders = forfeits.get(pairing_id, set())
        typed = info["match"] in decided and decided[info["match"]][1] == TYPED
        for place in places_.table_places(info, decided.get(info["match"]), offenders, swap,
                                          tournament.bye_result):  # fmt: skip
            entry_id, kind = place.entry, place.kind
            if place.game is not None:
                add(place.game)
            placed[entry_id][number] = kind
            if not with_cells:
                continue
            if kind == "bye":
                cells[entry_id][number] = Cell(number, "bye", place.result)
            else:
                cells[entry_id][number] = Cell(
                    number, kind, place.result, place.theirs, place.partners, place.ours,
                    place.others, info["table"], info["match"], place.side, typed,
                )  # fmt: skip

    pending_tables = len({(info["round"], info["table"]) for pid, info in tables.items()
                          if info["sides"] and not forfeits.get(pid)
                          and info["match"] not in decided})  # fmt: skip
    # who had a place in each round: set operations rather than a dict per entry, since the
    # stored rounds come as whole lists (``Kept.placed``)
    seated: dict[int, set[int]] = {number: set() for number in rounds}
    pending: dict[int, int] = {}
    for entry_id, by_round in placed.items():
        for number, kind in by_round.items():
            seated[number].add(entry_id)
            if kind == "pending":
                pending[entry_id] = pending.get(entry_id, 0) + 1
    for number, stored in kept.items():
        per_round[number] = stored.games
        seated[number] = set(stored.placed)
        for entry_id in stored.pending:
            pending[entry_id] = pending.get(entry_id, 0) + 1
        pending_tables += stored.pending_tables
    games: list[pure.Game] = [game for number in rounds for game in per_round[number]]

    # rounds without a place: absent, late, or withdrawn
    counted = set(entries)
    if tournament.format == Tournament.Format.TEAMS:  # a team's rounds are its pairs'
        counted = {pk for pk, entry in entries.items() if entry.team_id is not None}
    unseated = {number: counted - seated[number] for number in rounds}
    missing = set().union(*unseated.values())
    for entry_id, entry in entries.items():
        if entry_id not in missing:
            continue
        empty = [number for number in rounds if entry_id in unseated[number]]
        withdrawn = entry.status == Entry.Status.WITHDRAWN
        for game in places_.unplaced(entry_id, withdrawn, rounds, empty, absent):
            games.append(game)
            if with_cells:
                cells[entry_id][game.round] = Cell(game.round, game.kind, "loss")
    return Ledger(tournament, entries, rounds, games, sanctions, dict(cells), pending,
                  pending_tables, tables=tables, decided=decided, absent=absent)  # fmt: skip
