"""Local search over seatings of four-player tables (the individual format, ``seating``).

A move takes two tables and seats their eight players again in the best of every possible way
(35 ways to split them into two fours, three ways to pair each four); it is made when it lowers
the two tables' cost. ``Search.descend`` makes moves until no pair of tables can be improved: a
pair found unimprovable is remembered by the two seatings it held, so it is tried again only once
one of them has changed. In large fields only tables with a flaw above the seats (a repeat, a
spread) start moves, against the tables of the players ranked near them. ``Search.perturb`` then
escapes local optima (iterated local search): it seats a flawed table and a neighbour at random,
descends again, and keeps the result only if the round's whole cost went down, else puts
everything back. The random generator is seeded, so a re-run gives the same seating. The costs
are any object with ``table``, ``better_eight`` and ``defective`` (``seating.Costs``). Pure.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

Side = tuple[int, int]
Seating = tuple[Side, Side]

#: larger fields: a table is tried against the tables of players this many places around its own
NEIGHBOURHOOD = 12
#: a descent stops after this many passes over the changed tables at the latest
MAX_PASSES = 40
#: perturbations per round: this budget divided by the number of tables, at most ``MAX_KICKS``
KICK_BUDGET = 1500
MAX_KICKS = 200


class TableCosts(Protocol):
    count: int

    def table(self, ns: Side, ew: Side) -> int: ...

    def better_eight(self, eight: Sequence[int], now: int) -> tuple[Seating, Seating] | None: ...

    def defective(self, cost: int) -> bool: ...


class Search:
    def __init__(self, costs: TableCosts, tables: list[Seating], everyone: bool) -> None:
        self.costs = costs
        self.tables = list(tables)
        self.cost = [costs.table(*t) for t in self.tables]
        self.everyone = everyone
        self.ident = list(range(len(self.tables)))
        self.next_ident = len(self.tables)
        self.unimprovable: set[tuple[int, int]] = set()
        self.table_of = [0] * costs.count
        for k, t in enumerate(self.tables):
            for p in (*t[0], *t[1]):
                self.table_of[p] = k
        self.total = sum(self.cost)
        self.log: list[tuple[int, Seating, int, int]] | None = None

    def place(self, slot: int, seating: Seating, ident: int | None = None) -> None:
        if self.log is not None:
            self.log.append((slot, self.tables[slot], self.ident[slot], self.cost[slot]))
        cost = self.costs.table(*seating)
        self.total += cost - self.cost[slot]
        self.tables[slot], self.cost[slot] = seating, cost
        if ident is None:
            ident, self.next_ident = self.next_ident, self.next_ident + 1
        self.ident[slot] = ident
        for p in (*seating[0], *seating[1]):
            self.table_of[p] = slot

    def descend(self, pending: set[int] | None = None) -> None:
        todo = set(range(len(self.tables))) if pending is None else pending
        for _pass in range(MAX_PASSES):
            if not todo:
                return
            current, todo = sorted(todo), set()
            for k in current:
                if not self.everyone and not self.costs.defective(self.cost[k]):
                    continue  # large fields: only tables with a flaw above the seats start moves
                for other in self.neighbours(k):
                    a, b = self.ident[k], self.ident[other]
                    key = (a, b) if a < b else (b, a)
                    if key in self.unimprovable:
                        continue
                    now = self.cost[k] + self.cost[other]
                    better = _best_pair(self.costs, self.tables[k], self.tables[other], now)
                    if better is None:
                        self.unimprovable.add(key)
                        continue
                    self.place(k, better[0])
                    self.place(other, better[1])
                    todo.update((k, other))

    def neighbours(self, k: int) -> list[int]:
        """The tables to try table ``k`` against: all of them in small fields, else those of the
        players ranked near its own."""
        if self.everyone:
            return [m for m in range(len(self.tables)) if m != k]
        count = len(self.table_of)
        near: set[int] = set()
        for p in (*self.tables[k][0], *self.tables[k][1]):
            for q in range(max(0, p - NEIGHBOURHOOD), min(count, p + NEIGHBOURHOOD + 1)):
                near.add(self.table_of[q])
        near.discard(k)
        return sorted(near)

    def perturb(self, rng: random.Random) -> None:
        tables = len(self.tables)
        if tables < 2:
            return
        for _kick in range(min(MAX_KICKS, KICK_BUDGET // tables)):
            flawed = [k for k in range(tables) if self.costs.defective(self.cost[k])]
            if not flawed:
                return  # nothing above the seats and order left to improve
            k = rng.choice(flawed)
            other = rng.choice(self.neighbours(k))
            before = self.total
            self.log = []
            players = [*self.tables[k][0], *self.tables[k][1], *self.tables[other][0],
                       *self.tables[other][1]]  # fmt: skip
            rng.shuffle(players)
            self.place(k, ((players[0], players[1]), (players[2], players[3])))
            self.place(other, ((players[4], players[5]), (players[6], players[7])))
            self.descend({k, other})
            log, self.log = self.log, None
            if self.total >= before:
                for slot, seating, ident, _cost in reversed(log):
                    self.place(slot, seating, ident)


def _best_pair(
    costs: TableCosts, one: Seating, two: Seating, now: int
) -> tuple[Seating, Seating] | None:
    """The best seating of the eight players of two tables, if it beats ``now``."""
    return costs.better_eight((*one[0], *one[1], *two[0], *two[1]), now)
