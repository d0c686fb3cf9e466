"""Free-for-all ("each for himself"): three or four players at a table, each his own side.

The fives games (Пятёрка, Muggins) are played by three or four players, every player for himself.
Each round seats the field at tables of four; tables of three absorb the remainder so that nobody
sits out when that is possible (``table_sizes``): a remainder of 3 gives one table of three, of 2
two, of 1 three. Only five players cannot all sit: four play and one has a bye (the fewest earlier
byes first, the lowest ranked among them). Fewer than three players is an error.

A seating is judged lexicographically, most important first:

1. repeats: the number of pairs of players at one table who met before;
2. tables of three out of place: the tables of three belong at the bottom of the standings, with
   the lowest-ranked players. Out of place is each pair of a table of three and a table of four
   whose best-ranked players are the wrong way round (the four's ranks below the three's). It is
   zero, and the tables of three are numbered last, unless raising one avoids a repeat;
3. spread: the sum over tables of (highest score - lowest score) at the table;
4. blocks: how far each player sits from his natural block, the tables of the ranked order
   (1-4 at the first table, 5-8 at the second …): the sum of the distances in tables.

Players are put in pairing order (round 1: seeds then ranks, or by lot with ``random_seed``; later:
standings) and seated in the natural blocks, which cost no blocks and, the order being by score,
the least spread; round 1 stays so, since nobody has met. A local search
(``free_for_all_search``) then changes the seating while a change improves the judgement, the best
change of a pair of tables first: a swap of two players, or a move from a table of four to a table
of three (the two trade sizes).
Players of one score group swap at no spread cost, so repeats are undone within score groups where
they can be. A pair of tables is looked at again only after one of them changed, so the descent
ends at a seating no single change improves. Fields of up to ``FULL_WINDOW_TABLES`` tables try
every pair of tables; larger ones only tables at most ``WINDOW`` apart in the ranked order (a change
further away costs much spread anyway), which keeps 2,000 players to a fraction of a second.

A descent can stop where only two changes at once improve. While repeats remain, the search
kicks: one to ``KICK_STRENGTH`` random changes around a table with a repeat (the first moves a
player who met someone there), then a descent from the tables touched. The outcome is kept unless
it has more repeats, so the search wanders across seatings as good in repeats; the best seating
seen is the result. Fields of up to ``SPREAD_KICK_TABLES`` tables also kick to lower the spread
when no repeat is left. The kicks are drawn from a generator seeded by ``random_seed`` and the
round, so the same input gives the same seating, and they are bounded: ``KICKS_PER_TABLE`` a
table, at most ``MAX_KICKS`` and ``MAX_KICK_LOOKS`` pairs of tables looked at (the constants are
``free_for_all_search``'s). Local search proves nothing, but checked against every seating of
1,400 random histories of 6 to 12 players (``bench/pairing_bench.py --free-for-all``) it found the
best one each time. A large field whose players have met everyone within ``WINDOW`` tables may keep
repeats that changes between distant tables would have undone.

Within a table the best-ranked player sits N, then E, S, W; tables are numbered from
``first_table`` in the order of their best-ranked player, so the first is the leaders' table.
Pure: no database, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence

from .free_for_all_search import seat
from .order import players_in_order
from .types import Bye, Competitor, FreeForAllOptions, RoundPairing, Table


def table_sizes(count: int) -> tuple[list[int], int]:
    """The table sizes for ``count`` players, fours first, and the number of byes."""
    if count < 3:
        raise ValueError(
            f"a free-for-all round needs at least 3 players to seat a table; {count} present"
        )
    if count == 5:
        return [4], 1
    threes = -count % 4
    return [4] * ((count - 3 * threes) // 4) + [3] * threes, 0


def free_for_all(players: Sequence[Competitor], options: FreeForAllOptions) -> RoundPairing:
    """Seat one free-for-all round: tables of four (and three), each player his own side."""
    order, lead_flag = players_in_order(players, options.round_number, options.first_round,
                                         options.random_seed)
    sizes, bye_count = table_sizes(len(order))
    by_claim = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
    sitting_out = sorted(by_claim[:bye_count])
    seated = [p for i, p in enumerate(order) if i not in sitting_out]
    found = seat(seated, sizes, seed=options.random_seed * 1_000_003 + options.round_number)
    notes: list[str] = []
    members = sorted((sorted(table) for table in found), key=lambda table: table[0])
    tables = tuple(
        _table(seated, table, options.first_table + index, lead_flag, notes)
        for index, table in enumerate(members)
    )
    for i in sitting_out:
        notes.append(f"Bye: {order[i].id} (rank {order[i].rank}, {order[i].byes} earlier byes)")
    byes = tuple(Bye(order[i].id) for i in sitting_out)
    return RoundPairing(tables=tables, byes=byes, notes=tuple(notes))


def _table(
    seated: list[Competitor], members: list[int], number: int, lead_flag: str, notes: list[str]
) -> Table:
    players = [seated[i] for i in members]
    flags: set[str] = {lead_flag} if lead_flag else set()
    if len(players) == 3:
        flags.add("table_of_three")
    met = [
        (a, b)
        for k, a in enumerate(players)
        for b in players[k + 1 :]
        if b.id in a.opponents or a.id in b.opponents
    ]
    if met:
        flags.add("opponent_repeated")
        pairs = ", ".join(f"{a.id}–{b.id}" for a, b in met)
        notes.append(f"Table {number}: opponents again: {pairs}")
    return Table(
        number=number, ns=(), ew=(), flags=frozenset(flags), seated=tuple(p.id for p in players)
    )
