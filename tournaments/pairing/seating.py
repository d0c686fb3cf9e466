"""The local search behind ``free_for_all``: players seated at tables of four and three, changed
one swap or move at a time while the seating gets better.

What "better" means, the rule that keeps the tables of three last, and how the search descends and
kicks is told in ``free_for_all``'s docstring; this module holds the mechanics. ``seat`` takes the
players in pairing order and the table sizes and returns the tables as lists of positions in that
order. Pure: no database, no Django.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from collections.abc import Sequence

from .types import Competitor

#: fields with up to this many tables try swaps between every two tables
FULL_WINDOW_TABLES = 32
#: larger fields: swaps between tables at most this many apart in the ranked order
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
Judgement = tuple[int, float, int]


def seat(seated: list[Competitor], sizes: list[int], seed: int) -> list[list[int]]:
    """The tables (positions into ``seated``) after the descent and the kicks; ``seed`` seeds the
    kicks."""
    search = _Search(seated, sizes, _window(len(sizes)))
    search.descend(range(len(sizes)))
    spread_too = len(sizes) <= SPREAD_KICK_TABLES
    search.kick(random.Random(seed), min(MAX_KICKS, KICKS_PER_TABLE * len(sizes)), spread_too)
    return search.tables


def _window(table_count: int) -> int:
    return table_count if table_count <= FULL_WINDOW_TABLES else WINDOW


#: a change of the seating: (t, x, u, y) swaps position x of table t with position y of table u;
#: with y == MOVE the player at position x of t moves to u
Change = tuple[int, int, int, int]
MOVE = -1


class _Search:
    """Tables of player indices (into ``seated``, which is in pairing order) and the judgement's
    parts, kept current through every change."""

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
        self.log: list[Change] = []
        self.looks = 0  # pairs of tables looked at, the measure of work that bounds the kicks
        # the tables of three stay the last tables: the best-ranked player of each (its lead)
        # ranks below the lead of every table of four; the three lowest-ranked leads of fours
        # are kept at hand for the check
        self.mixed = 0 < sizes.count(3) < len(sizes)
        self.threes: list[int] = []
        self.top_fours: list[tuple[int, int]] = []
        self.recount()

    def recount(self) -> None:
        """Every part of the judgement from the tables as they are."""
        self.repeats = [self._repeats(table) for table in self.tables]
        self.spread = [self._spread(table) for table in self.tables]
        blocks = sum(self._blocks(t) for t in range(len(self.tables)))
        self.total: Judgement = (sum(self.repeats), sum(self.spread), blocks)
        self.lead = [min(table) for table in self.tables]
        self._rank()

    def _repeats(self, table: list[int]) -> int:
        return sum(b in self.met[a] for k, a in enumerate(table) for b in table[k + 1 :])

    def _spread(self, table: list[int]) -> float:
        scores = [self.score[i] for i in table]
        return max(scores) - min(scores)

    def _blocks(self, t: int) -> int:
        return sum(abs(t - self.block[i]) for i in self.tables[t])

    def _rank(self) -> None:
        if self.mixed:
            self.threes = [t for t, table in enumerate(self.tables) if len(table) == 3]
            fours = ((self.lead[t], t) for t, table in enumerate(self.tables) if len(table) == 4)
            self.top_fours = heapq.nlargest(3, fours)

    def _admissible(
        self, t: int, lead_t: int, size_t: int, u: int, lead_u: int, size_u: int
    ) -> bool:
        """Whether the tables of three are still the last ones once t and u have these leads and
        sizes."""
        if not self.mixed:
            return True
        fours = [lead for lead, s in self.top_fours if s != t and s != u][:1]
        threes = [self.lead[s] for s in self.threes if s != t and s != u]
        for lead, size in ((lead_t, size_t), (lead_u, size_u)):
            (fours if size == 4 else threes).append(lead)
        return max(fours) < min(threes)

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
        met, score, block = self.met, self.score, self.block
        old_spread = self.spread[t] + self.spread[u]
        # per player: meetings at his own table and at the other, and the bounds of his tablemates
        own_one = [sum(b in met[a] for b in one) for a in one]
        own_two = [sum(b in met[a] for b in two) for a in two]
        cross_one = [sum(b in met[a] for b in two) for a in one]
        cross_two = [sum(b in met[a] for b in one) for a in two]
        rest_one = [_rest(score, one, x) for x in range(len(one))]
        rest_two = [_rest(score, two, y) for y in range(len(two))]
        best: Judgement = (0, 0.0, 0)
        found: Change | None = None
        for x, a in enumerate(one):
            met_a, score_a, block_a = met[a], score[a], block[a]
            low_one, high_one, lead_one = rest_one[x]
            for y, b in enumerate(two):
                repeats = cross_one[x] + cross_two[y] - 2 * (b in met_a) - own_one[x] - own_two[y]
                if repeats > best[0]:
                    continue
                score_b = score[b]
                low_two, high_two, lead_two = rest_two[y]
                spread = max(high_one, score_b) - min(low_one, score_b) - old_spread
                spread += max(high_two, score_a) - min(low_two, score_a)
                blocks = abs(u - block_a) + abs(t - block[b]) - abs(t - block_a) - abs(u - block[b])
                judgement = (repeats, spread, blocks)
                if _better(judgement, best) and self._admissible(
                    t, min(lead_one, b), len(one), u, min(lead_two, a), len(two)
                ):
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
            spread = high_rest - low_rest + max(high, score[a]) - min(low, score[a]) - old_spread
            blocks = abs(taker - block[a]) - abs(giver - block[a])
            judgement = (cross[x] - own[x], spread, blocks)
            if _better(judgement, best) and self._admissible(
                giver, lead_rest, 3, taker, min(self.lead[taker], a), 4
            ):
                best, found = judgement, (giver, x, taker, MOVE)
        return found

    def _apply(self, change: Change, undo: bool = False) -> None:
        """Make ``change`` (or take back the same change made last) and update the judgement."""
        t, x, u, y = change
        one, two = self.tables[t], self.tables[u]
        repeats, spread = self.repeats[t] + self.repeats[u], self.spread[t] + self.spread[u]
        blocks = self._blocks(t) + self._blocks(u)
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
        if y == MOVE or leads != (self.lead[t], self.lead[u]):
            self._rank()
        total_repeats, total_spread, total_blocks = self.total
        self.total = (
            total_repeats + self.repeats[t] + self.repeats[u] - repeats,
            total_spread + self.spread[t] + self.spread[u] - spread,
            total_blocks + self._blocks(t) + self._blocks(u) - blocks,
        )
        if not undo:
            self.log.append(change)

    def kick(self, rng: random.Random, budget: int, spread_too: bool) -> None:
        """Escape seatings that no single change improves (module docstring): while repeats
        remain, and with ``spread_too`` also without them."""
        if len(self.tables) < 2:
            return
        best = (self.total, [list(table) for table in self.tables])
        looks = self.looks + MAX_KICK_LOOKS
        for _ in range(budget):
            if self.looks > looks:
                break
            conflicted = [t for t, count in enumerate(self.repeats) if count]
            if not conflicted and (not spread_too or self.total[1] <= EPSILON):
                break  # nothing to gain: no repeats, and no spread to lower or not looked for
            on_repeat = bool(conflicted) and (not spread_too or rng.random() < 0.5)
            t = rng.choice(conflicted) if on_repeat else rng.randrange(len(self.tables))
            before, mark = self.total, len(self.log)
            touched = {t}
            for step in range(1 + rng.randrange(KICK_STRENGTH)):
                one = t if step == 0 else rng.choice(self._reach(t))
                two = rng.choice([u for u in self._reach(t) if u != one])
                change = self._random_change(rng, one, two, on_repeat and step == 0)
                if change is not None:
                    self._apply(change)
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

    def _random_change(self, rng: random.Random, t: int, u: int, on_repeat: bool) -> Change | None:
        """A random admissible change between tables t and u (moving a player who met someone
        at t if ``on_repeat``), or None."""
        one, two = self.tables[t], self.tables[u]
        if on_repeat:
            x = rng.choice([k for k, a in enumerate(one) if self.met[a].intersection(one)])
        else:
            x = rng.randrange(len(one))
        rest = min(a for k, a in enumerate(one) if k != x)
        if len(one) > len(two) and rng.random() < 0.5:
            if self._admissible(t, rest, 3, u, min(*two, one[x]), 4):
                return (t, x, u, MOVE)
            return None
        y = rng.randrange(len(two))
        rest_two = min(b for k, b in enumerate(two) if k != y)
        lead_t, lead_u = min(rest, two[y]), min(rest_two, one[x])
        if self._admissible(t, lead_t, len(one), u, lead_u, len(two)):
            return (t, x, u, y)
        return None


def _rest(score: list[float], table: list[int], x: int) -> tuple[float, float, int]:
    """The lowest and highest score at ``table`` without its player at position ``x``, and the
    best-ranked of the others."""
    others = table[:x] + table[x + 1 :]
    scores = [score[a] for a in others]
    return min(scores), max(scores), min(others)


def _better(one: Judgement, two: Judgement) -> bool:
    """Whether judgement ``one`` is strictly better (smaller) than ``two``."""
    if one[0] != two[0]:
        return one[0] < two[0]
    if abs(one[1] - two[1]) > EPSILON:
        return one[1] < two[1]
    return one[2] < two[2]
