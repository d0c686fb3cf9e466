"""The groups' tables and the final round robin's table, as the stage page shows them.

    group_tables(tournament, first) -> [GroupTable]   each group in the order of the qualifying
                                                      standings (tie-breaks in force)
    final_table(tournament, stage) -> [FinalLine]     the final round robin: its own rounds, and
                                                      with ``carry_over`` "finalists" the group
                                                      games between finalists too

Both are computed by ``tournaments.results`` (the same standings arithmetic as the standings
page): a group's order is the qualifying table's order of its members; the final table is the
standings of the finalists over the games it counts. Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Stage, Tournament
from tournaments.results import Ledger, live_table, load
from tournaments.results.tables import entry_rows

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class GroupLine:
    place: int
    entry: int
    name: str
    match_points: int
    qualifies: bool


@dataclass
class GroupTable:
    name: str
    lines: list[GroupLine]


@dataclass
class FinalLine:
    place: int
    entry: int
    name: str
    match_points: int
    wins: int
    difference: int


def group_name(index: int) -> str:
    letter = LETTERS[index] if index < len(LETTERS) else str(index + 1)
    return _("Group %(name)s") % {"name": letter}


def group_tables(tournament: Tournament, first: Stage, per_group: int) -> list[GroupTable]:
    lines = {line.participant: line for line in live_table(tournament).lines}
    out = []
    for index, members in enumerate(first.members):
        ranked = sorted(members, key=lambda e: (lines[e].rank if e in lines else 10**6, e))
        out.append(GroupTable(group_name(index), [
            GroupLine(place, entry, lines[entry].name if entry in lines else "?",
                      int(lines[entry].row.get("match_points", 0)) if entry in lines else 0,
                      place <= per_group)
            for place, entry in enumerate(ranked, 1)
        ]))  # fmt: skip
    return out


def final_table(tournament: Tournament, stage: Stage) -> list[FinalLine]:
    # every round, the cells' path (a finished round's kept games are the qualifying ones)
    ledger = load(tournament, players=False, with_cells=True, every_round=True)
    finalists = set(stage.seeds)
    carry = stage.carry_over == Stage.CarryOver.BETWEEN_FINALISTS
    last_group_round = tournament.rounds
    games = [g for g in ledger.games if g.participant in finalists and (
        g.round > last_group_round
        or (carry and g.played and g.opponent in finalists))]  # fmt: skip
    rounds = sorted({g.round for g in games})
    sub = Ledger(tournament, {pk: e for pk, e in ledger.entries.items() if pk in finalists},
                 rounds, games,
                 [s for s in ledger.sanctions if s.round_number > last_group_round])  # fmt: skip
    return [FinalLine(row.rank, row.participant, ledger.entries[row.participant].name,
                      row.match_points, row.wins, row.difference)
            for row in entry_rows(sub)]  # fmt: skip
