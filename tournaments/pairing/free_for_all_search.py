"""The local search behind ``free_for_all``: players seated at tables of four and three, changed
one swap or move at a time while the seating gets better.

What "better" means and how the search descends and kicks is told in ``free_for_all``'s
docstring; this module holds the mechanics. ``seat`` takes the players in pairing order and the
table sizes and returns the tables as lists of positions in that order. Pure: no database, no
Django.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import deque
from collections.abc import Sequence

from .types import Competitor

#: fields with up to this many tables try changes between every two tables
FULL_WINDOW_TABLES = 32
#: larger fields: changes between tables at most this many apart in the ranked order
WINDOW = 6
#: kicks while repeats remain: this many per table, at most MAX_KICKS a round
KICKS_PER_TABLE = 50
MAX_KICKS = 2000
#: and at most this many more pairs of tables looked at (about a second), whatever the field
MAX_KICK_LOOKS = 50_000
#: fields up to this many tables also kick without repeats, for a smaller spread
SPREAD_KICK_TABLES = 8
#: a kick makes 1 to this many random changes around one table
KICK_STRENGTH = 3
#: score differences below this are equal (scores are sums of small fractions)
EPSILON = 1e-9

#: repeats, tables of three out of place, spread, blocks (``free_for_all``'s docstring)
Judgement = tuple[int, int, float, int]
#: a change of the seating: (t, x, u, y) swaps position x of table t with position y of table u;
#: with y == MOVE the player at position x of t (a table of four) moves to u (a table of three)
Change = tuple[int, int, int, int]
MOVE = -1


def seat(seated: list[Competitor], sizes: list[int], seed: int) -> list[list[int]]:
    """The tables (positions into ``seated``) after the descent and the kicks; ``seed`` seeds the
    kicks."""
    window = len(sizes) if len(sizes) <= FULL_WINDOW_TABLES else WINDOW
    search = _Search(seated, sizes, window)
    search.descend(range(len(sizes)))
    spread_too = len(sizes) <= SPREAD_KICK_TABLES
    search.kick(random.Random(seed), min(MAX_KICKS, KICKS_PER_TABLE * len(sizes)), spread_too)
    return search.tables


class _Search:
    """Tables of player indices (into ``seated``, which is in pairing order) and the judgement's
    parts, kept current through every change. A table's lead is its best-ranked player."""

    def __init__(self, seated: list[Competitor], sizes: list[int], window: int) -> None:
        index = {p.id: i for i, p in enumerate(seated)}
        self.score = [p.score for p in seated]
        self.met: list[set[int]] = [set() for _ in seated]
        for i, p in enumerate(seated):
            for j in (index.get(other) for other in p.opponents):
                if j is not None and j != i:
                    self.met[i].add(j)
                    self.met[j].add(i)
        self.window = window
        self.block: list[int] = []
        self.tables: list[list[int]] = []
        for number, size in enumerate(sizes):
            self.tables.append(list(range(len(self.block), len(self.block) + size)))
            self.block.extend([number] * size)
        self.mixed = 0 < sizes.count(3) < len(sizes)
        self.log: list[Change] = []
        self.looks = 0  # pairs of tables looked at, the measure of work that bounds the kicks
        self.recount()

    def recount(self) -> None:
        """Every part of the judgement from the tables as they are."""
        self.repeats = [self._repeats(table) for table in self.tables]
        self.spread = [self._spread(table) for table in self.tables]
        self.lead = [min(table) for table in self.tables]
        self._order_leads()
        blocks = sum(self._blocks(t) for t in range(len(self.tables)))
        self.total: Judgement = (sum(self.repeats), self.misplaced, sum(self.spread), blocks)

    def _repeats(self, table: list[int]) -> int:
        return sum(b in self.met[a] for k, a in enumerate(table) for b in table[k + 1 :])

    def _spread(self, table: list[int]) -> float:
        scores = [self.score[i] for i in table]
        return max(scores) - min(scores)

    def _blocks(self, t: int) -> int:
        return sum(abs(t - self.block[i]) for i in self.tables[t])

    def _order_leads(self) -> None:
        """The tables of three and the sorted leads of the fours, and how many (three, four)
        pairs of tables are out of place: the four's lead ranks below the three's."""
        self.threes = [t for t, table in enumerate(self.tables) if len(table) == 3]
        if self.mixed:
            self.floor = min(self.lead[t] for t in self.threes)
            self.four_leads = sorted(
                self.lead[t] for t, table in enumerate(self.tables) if len(table) == 4
            )
        self.misplaced = self._misplaced(-1, 0, 0, -1, 0, 0)

    def _misplaced(self, t: int, lead_t: int, size_t: int, u: int, lead_u: int, size_u: int) -> int:
        """The (three, four) pairs out of place once tables t and u have these leads and sizes."""
        if not self.mixed:
            return 0
        changed = [
            (s, lead, size)
            for s, lead, size in ((t, lead_t, size_t), (u, lead_u, size_u))
            if s >= 0
        ]
        gone = [self.lead[s] for s, _, _ in changed if len(self.tables[s]) == 4]
        new = [lead for _, lead, size in changed if size == 4]
        threes = [self.lead[s] for s in self.threes if s != t and s != u]
        threes += [lead for _, lead, size in changed if size == 3]
        fours = self.four_leads
        count = 0
        for lead in threes:
            count += len(fours) - bisect_right(fours, lead)
            count += sum(x > lead for x in new) - sum(x > lead for x in gone)
        return count

    def _reach(self, t: int) -> range:
        return range(max(0, t - self.window), min(len(self.tables), t + self.window + 1))

    def descend(self, start: Sequence[int]) -> None:
        """Change while a change improves, looking again at a pair of tables only after one of
        them changed."""
        queue = deque(start)
        queued = [False] * len(self.tables)
        for t in queue:
            queued[t] = True
        while queue:
            t = queue.popleft()
            queued[t] = False
            for u in self._reach(t):
                change = self._best_change(t, u) if u != t else None
                if change is None:
                    continue
                self._apply(change)
                for changed in (t, u):
                    if not queued[changed]:
                        queued[changed] = True
                        queue.append(changed)

    def _best_change(self, t: int, u: int) -> Change | None:
        """The best improving change between tables ``t`` and ``u``, if any: a swap of two
        players, or a move from a table of four to a table of three (which swaps their sizes)."""
        self.looks += 1
        one, two = self.tables[t], self.tables[u]
        met, score, block, lead = self.met, self.score, self.block, self.lead
        old_spread = self.spread[t] + self.spread[u]
        # per player: meetings at his own table and at the other, and his tablemates' bounds
        own_one = [sum(b in met[a] for b in one) for a in one]
        own_two = [sum(b in met[a] for b in two) for a in two]
        cross_one = [sum(b in met[a] for b in two) for a in one]
        cross_two = [sum(b in met[a] for b in one) for a in two]
        rest_one = [_rest(score, one, x) for x in range(len(one))]
        rest_two = [_rest(score, two, y) for y in range(len(two))]
        best: Judgement = (0, 0, 0.0, 0)
        found: Change | None = None
        # between two fours whose players all rank above every table of three nothing gets out
        # of place: leave the count alone
        placing = self.mixed and (len(one) < 4 or len(two) < 4 or max(*one, *two) > self.floor)
        for x, a in enumerate(one):
            met_a, score_a, block_a = met[a], score[a], block[a]
            low_one, high_one, lead_one = rest_one[x]
            for y, b in enumerate(two):
                repeats = cross_one[x] + cross_two[y] - 2 * (b in met_a) - own_one[x] - own_two[y]
                if repeats > best[0]:
                    continue
                low_two, high_two, lead_two = rest_two[y]
                lead_t, lead_u = min(lead_one, b), min(lead_two, a)
                misplaced = 0
                if placing and (lead_t != lead[t] or lead_u != lead[u]):
                    misplaced = self._misplaced(t, lead_t, len(one), u, lead_u, len(two))
                    misplaced -= self.misplaced
                score_b = score[b]
                spread = max(high_one, score_b) - min(low_one, score_b) - old_spread
                spread += max(high_two, score_a) - min(low_two, score_a)
                blocks = abs(u - block_a) + abs(t - block[b]) - abs(t - block_a) - abs(u - block[b])
                judgement = (repeats, misplaced, spread, blocks)
                if _better(judgement, best):
                    best, found = judgement, (t, x, u, y)
        if len(one) == len(two):
            return found
        giver, taker = (t, u) if len(one) == 4 else (u, t)
        given, taking = self.tables[giver], self.tables[taker]
        own, cross, rest = (
            (own_one, cross_one, rest_one) if giver == t else (own_two, cross_two, rest_two)
        )
        low, high = min(score[b] for b in taking), max(score[b] for b in taking)
        for x, a in enumerate(given):
            low_rest, high_rest, lead_rest = rest[x]
            misplaced = self._misplaced(giver, lead_rest, 3, taker, min(lead[taker], a), 4)
            spread = high_rest - low_rest + max(high, score[a]) - min(low, score[a]) - old_spread
            blocks = abs(taker - block[a]) - abs(giver - block[a])
            judgement = (cross[x] - own[x], misplaced - self.misplaced, spread, blocks)
            if _better(judgement, best):
                best, found = judgement, (giver, x, taker, MOVE)
        return found

    def _apply(self, change: Change, undo: bool = False) -> None:
        """Make ``change`` (or take back the same change made last) and update the judgement."""
        t, x, u, y = change
        one, two = self.tables[t], self.tables[u]
        repeats, spread = self.repeats[t] + self.repeats[u], self.spread[t] + self.spread[u]
        blocks, misplaced = self._blocks(t) + self._blocks(u), self.misplaced
        if y != MOVE:
            one[x], two[y] = two[y], one[x]
        elif undo:
            one.insert(x, two.pop())
        else:
            two.append(one.pop(x))
        self.repeats[t], self.repeats[u] = self._repeats(one), self._repeats(two)
        self.spread[t], self.spread[u] = self._spread(one), self._spread(two)
        leads = self.lead[t], self.lead[u]
        self.lead[t], self.lead[u] = min(one), min(two)
        if self.mixed and (y == MOVE or leads != (self.lead[t], self.lead[u])):
            self._order_leads()
        total_repeats, total_misplaced, total_spread, total_blocks = self.total
        self.total = (
            total_repeats + self.repeats[t] + self.repeats[u] - repeats,
            total_misplaced + self.misplaced - misplaced,
            total_spread + self.spread[t] + self.spread[u] - spread,
            total_blocks + self._blocks(t) + self._blocks(u) - blocks,
        )
        if not undo:
            self.log.append(change)

    def kick(self, rng: random.Random, budget: int, spread_too: bool) -> None:
        """Escape seatings that no single change improves (``free_for_all``'s docstring): while
        repeats remain, and with ``spread_too`` also without them."""
        if len(self.tables) < 2:
            return
        best = (self.total, [list(table) for table in self.tables])
        looks = self.looks + MAX_KICK_LOOKS
        for _ in range(budget):
            conflicted = [t for t, count in enumerate(self.repeats) if count]
            calm = not spread_too or (self.total[1] == 0 and self.total[2] <= EPSILON)
            if self.looks > looks or (not conflicted and calm):
                break  # out of work, or no repeat left and nothing else sought or to gain
            on_repeat = bool(conflicted) and (not spread_too or rng.random() < 0.5)
            t = rng.choice(conflicted) if on_repeat else rng.randrange(len(self.tables))
            before, mark = self.total, len(self.log)
            touched = {t}
            for step in range(1 + rng.randrange(KICK_STRENGTH)):
                one = t if step == 0 else rng.choice(self._reach(t))
                two = rng.choice([u for u in self._reach(t) if u != one])
                self._apply(self._random_change(rng, one, two, on_repeat and step == 0))
                touched.update((one, two))
            self.descend(sorted(touched))
            if self.total[0] > before[0]:
                for done in reversed(self.log[mark:]):
                    self._apply(done, undo=True)
                self.total = before  # the same seating: drop the float drift of the undo
            elif _better(self.total, best[0]):
                best = (self.total, [list(table) for table in self.tables])
            del self.log[mark:]
        if _better(best[0], self.total):
            self.tables = best[1]
            self.recount()

    def _random_change(self, rng: random.Random, t: int, u: int, on_repeat: bool) -> Change:
        """A random change between tables t and u, moving a player who met someone at t if
        ``on_repeat``."""
        one = self.tables[t]
        if on_repeat:
            x = rng.choice([k for k, a in enumerate(one) if self.met[a].intersection(one)])
        else:
            x = rng.randrange(len(one))
        if len(one) > len(self.tables[u]) and rng.random() < 0.5:
            return (t, x, u, MOVE)
        return (t, x, u, rng.randrange(len(self.tables[u])))


def _rest(score: list[float], table: list[int], x: int) -> tuple[float, float, int]:
    """The lowest and highest score at ``table`` without its player at position ``x``, and the
    best-ranked of the others."""
    others = table[:x] + table[x + 1 :]
    scores = [score[a] for a in others]
    return min(scores), max(scores), min(others)


def _better(one: Judgement, two: Judgement) -> bool:
    """Whether judgement ``one`` is strictly better (smaller) than ``two``."""
    if one[:2] != two[:2]:
        return one[:2] < two[:2]
    if abs(one[2] - two[2]) > EPSILON:
        return one[2] < two[2]
    return one[3] < two[3]
