"""Each for himself: three or four players to a table (placeholder: ranked blocks, replaced by
the free-for-all algorithm's branch)."""

from __future__ import annotations

from collections.abc import Sequence

from .types import Bye, Competitor, FreeForAllOptions, RoundPairing, Table


def free_for_all(players: Sequence[Competitor], options: FreeForAllOptions) -> RoundPairing:
    order = sorted(players, key=lambda p: (p.rank, p.id))
    n = len(order)
    if n < 3:
        raise ValueError("at least three players are needed")
    threes = {0: 0, 3: 1, 2: 2, 1: 3}[n % 4]
    if threes * 3 > n:
        threes = 0
    fours = (n - 3 * threes) // 4
    seated = 4 * fours + 3 * threes
    tables, at = [], 0
    for index, size in enumerate([4] * fours + [3] * threes):
        tables.append(Table(options.first_table + index, (), (), frozenset(),
                            tuple(p.id for p in order[at:at + size])))
        at += size
    byes = tuple(Bye(p.id) for p in order[seated:])
    return RoundPairing(tables=tuple(tables), byes=byes)
