"""A finished round's games, kept so that the live standings of later rounds need not re-read
every table of every earlier round.

    keep(round_, games, cells, basis)             after ``take_snapshot`` computed its ledger
    kept(tournament, numbers, basis) -> {number: Kept}   the stored rounds among ``numbers``
    basis(tournament, swap, sides) -> str         the settings the games are derived under

Why. The live standings after round 9 of a 1,000-pair Swiss loaded 9,000 places and 4,500
matches and turned them into games: about 110 ms of the page's 280 (issue 16), of which the
eight finished rounds were nearly all. Their games do not change until a correction or a
sanction retakes their snapshot, so they are stored then, as plain lists, and read back in one
query.

What is kept: the games the round's tables gave (played matches, byes, forfeits), the entries
whose table was still in play, and how many such tables. The rounds an entry had no place in
(absent, withdrawn) are not kept: they depend on the entry's status now and on its later
rounds, and ``ledger.load`` works them out each time.

Kept exact: ``snapshots.take_snapshot`` calls ``keep`` every time it writes a snapshot, that is
when the round is finished and whenever ``refresh_snapshots`` retakes it (a corrected protocol,
a sanction recorded or revoked); ``basis`` records the settings the games were derived under
(the bye's result, points swapped under «козёл», the sides read), and a round stored under
another basis is read from its tables again, as is a finished round stored before this
existed.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tournaments import standings as pure
from tournaments.models import Round, RoundGames, Tournament

#: the kinds of a game that a table gave (the others are worked out at each load)
PLACED_KINDS = frozenset({"", "bye", "forfeit_win", "forfeit_loss"})


@dataclass(frozen=True, slots=True)
class Kept:
    games: list[pure.Game]
    pending: list[int]  # entries whose table was still in play
    pending_tables: int
    placed: list[int]  # every entry with a place in the round (its games' and ``pending``)


#: the version of ``marshal``'s format the games are written in (stable across Python 3)
MARSHAL_VERSION = 4


def basis(tournament: Tournament, swap: bool, sides: tuple[str, ...]) -> str:
    """The format and the settings stored games are valid under: the bye's result (a bye's
    game carries it), points swapped under «козёл» and the sides whose totals are read."""
    return f"m{MARSHAL_VERSION}:{tournament.bye_result}:{int(swap)}:{','.join(sides)}"


def keep(round_: Round, games_: Iterable[pure.Game], cells: Mapping[int, Mapping[int, Any]],
         basis_: str) -> None:  # fmt: skip
    """Store the games ``round_``'s tables gave, from a ledger's games and cells (entry ->
    round -> ``ledger.Cell``; a ledger loaded with its cells)."""
    number = round_.number
    games = [tuple(g) for g in games_ if g.round == number and g.kind in PLACED_KINDS]
    pending = []
    tables = set()
    for entry_id, by_round in cells.items():
        cell = by_round.get(number)
        if cell is not None and cell.kind == "pending":
            pending.append(entry_id)
            tables.add(cell.table)
    placed = sorted({g[1] for g in games} | set(pending))
    data = marshal.dumps((games, sorted(pending), len(tables), placed), MARSHAL_VERSION)
    # one statement (an upsert): the snapshot is retaken in the transaction of every correction
    RoundGames.objects.bulk_create([RoundGames(round=round_, basis=basis_, data=data)],
                                   update_conflicts=True, unique_fields=["round"],
                                   update_fields=["basis", "data"])  # fmt: skip


def kept(tournament: Tournament, numbers: list[int], basis_: str) -> dict[int, Kept]:
    """The stored games of the finished rounds ``numbers`` whose basis is ``basis_`` (one
    query); a round missing here is to be read from its tables."""
    if not numbers:
        return {}
    rows = RoundGames.objects.filter(
        round__tournament=tournament, round__number__in=numbers,
        round__status=Round.Status.FINISHED, basis=basis_,
    ).values_list("round__number", "data")  # fmt: skip
    result: dict[int, Kept] = {}
    make = pure.Game._make
    for number, data in rows:
        # written by ``keep`` alone, from this database: not outside input
        games, pending, pending_tables, placed = marshal.loads(bytes(data))  # noqa: S302
        result[number] = Kept(list(map(make, games)), pending, pending_tables, placed)
    return result
