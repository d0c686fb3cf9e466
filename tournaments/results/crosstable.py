"""The crosstable (шахматка): a cell per participant and round, as plain data.

    crosstable(tournament, round_number=None, scope=None) -> Crosstable

Cells. A round of a participant is ``played`` (win/draw/loss with the points recorded, the table
and the match), ``pending`` (the table is still in play), ``bye``, ``forfeit_win`` (+),
``forfeit_loss`` (−), ``absent`` or ``withdrawn``; a round where it has no place at all is None.
Opponents are named by their rank in the same table, so a reader can follow them down the rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import (
    Tournament,
)
from tournaments.results import tables
from tournaments.results.display import Results, results_table
from tournaments.results.ledger import Cell, Ledger


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
    #: a final score typed without deals: marked «‡» here and in the exports (a legend says it)
    result_only: bool = False

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
        if self.kind != "played":
            return ""
        return f"{self.points_for}:{self.points_against}" + (TYPED if self.result_only else "")

    @property
    def ranks(self) -> str:
        return ",".join(str(o.rank) if o.rank is not None else "?" for o in self.opponents)

    @property
    def text(self) -> str:
        """One line for an export: "3 W 120:80", "bye", "+"."""
        return " ".join(part for part in (self.ranks, self.mark, self.score) if part)


#: the sign after a score typed at the desk without deals
TYPED = "‡"


@dataclass
class CrossRow:
    line: tables.Line
    cells: list[CrossCell | None]


@dataclass
class Crosstable:
    results: Results
    rounds: list[int]  # the rounds shown (up to the chosen one)
    rows: list[CrossRow]

    @property
    def table(self) -> tables.Table:
        return self.results.table


def _cell(
    cell: Cell,
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
        cell.result_only,
    )


def _entry_cells(
    ledger: Ledger, rank: dict[int, int], names: dict[int, str]
) -> dict[int, dict[int, CrossCell]]:
    out: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for entry_id, by_round in ledger.cells.items():
        for number_, cell in by_round.items():
            kind = cell.kind or "played"
            out[entry_id][number_] = _cell(cell, kind, cell.opponents, cell.partners, rank, names)
    return out


def _team_cells(
    ledger: Ledger, rank: dict[int, int], names: dict[int, str]
) -> dict[int, dict[int, CrossCell]]:
    teams, games = tables.team_games(ledger)
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
    ledger: Ledger, rank: dict[int, int], names: dict[int, str]
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
