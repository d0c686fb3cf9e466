"""The exact optimum of a Swiss round, computed independently of ``tournaments.pairing``: by brute
force over every pairing (up to 12 entries), or by our own blossom matching (``blossom``) solved
in stages. Used by the tests and by ``bench/pairing_quality.py``.

The objective is the one ``tournaments.pairing.swiss`` states, restated here from the issue:
no rematch; the bye to the lowest entry (in pairing order) among those with the fewest byes; in
strict club mode the fewest same-club tables; the smallest worst table (largest score difference
at one table); the smallest total score difference; among equals, the fewest same-club tables.
``Value`` holds these numbers for one pairing; the optimum is the smallest ``Value``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from tournaments.pairing import Competitor, RoundPairing
from tournaments.tests.pairing.blossom import max_weight_matching

BRUTE_FORCE_LIMIT = 12
#: sides of a cut up to this size get an exact largest matching in ``lower_bound``
LOWER_BOUND_SIDE_LIMIT = 80


@dataclass(frozen=True, order=True)
class Value:
    rematches: int
    bye: int  # eligible entries ranked below the one with the bye (0: the lowest got it)
    strict_clubs: int
    worst: Fraction
    total: Fraction
    equal_clubs: int


class Problem:
    """One round to pair: entries in pairing order (score, then rank) and the club mode."""

    def __init__(self, entries: Sequence[Competitor], clubs: str) -> None:
        self.entries = sorted(entries, key=lambda c: (-c.score, c.rank, c.id))
        self.clubs = clubs
        self.n = len(self.entries)
        fewest = min((e.byes for e in self.entries), default=0)
        eligible = [i for i, e in enumerate(self.entries) if e.byes == fewest]
        #: the bye's cost per eligible index: how many eligible entries rank below it
        self.bye_cost = {i: len(eligible) - 1 - k for k, i in enumerate(eligible)} if (
            self.n % 2) else {}  # fmt: skip
        self.position = {e.id: i for i, e in enumerate(self.entries)}

    def table(self, i: int, j: int) -> tuple[int, int, int, Fraction, int]:
        """(rematch, strict club, equal club, score difference, 0) of a table of i and j."""
        a, b = self.entries[i], self.entries[j]
        rematch = int(b.id in a.opponents or a.id in b.opponents)
        club = int(a.club is not None and a.club == b.club)
        diff = abs(Fraction(a.score) - Fraction(b.score))
        return rematch, club * (self.clubs == "strict"), club * (self.clubs == "among_equals"), \
            diff, 0  # fmt: skip

    def value(self, tables: Sequence[tuple[int, int]], bye: int | None) -> Value:
        parts = [self.table(i, j) for i, j in tables]
        diffs = [p[3] for p in parts]
        return Value(
            rematches=sum(p[0] for p in parts),
            bye=self.bye_cost[bye] if bye is not None else 0,
            strict_clubs=sum(p[1] for p in parts),
            worst=max(diffs, default=Fraction(0)),
            total=sum(diffs, Fraction(0)),
            equal_clubs=sum(p[2] for p in parts),
        )

    def value_of(self, pairing: RoundPairing) -> Value:
        """The value of a pairing made by ``tournaments.pairing`` (one id per side)."""
        tables = [(self.position[t.ns[0]], self.position[t.ew[0]]) for t in pairing.tables]
        byes = [self.position[b.id] for b in pairing.byes]
        if len(byes) > 1 or any(i not in self.bye_cost for i in byes):
            raise AssertionError(f"byes {byes} are not one eligible entry")
        return self.value(tables, byes[0] if byes else None)


def _matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in _matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def brute_force(round_: Problem) -> Value:
    if round_.n > BRUTE_FORCE_LIMIT:
        raise ValueError("too many entries to try every pairing")
    everyone = list(range(round_.n))
    byes: list[int | None] = list(round_.bye_cost) if round_.n % 2 else [None]
    return min(
        round_.value(tables, bye)
        for bye in byes
        for tables in _matchings([i for i in everyone if i != bye])
    )


def _solve(round_: Problem, cost: dict[tuple[int, int], int]) -> tuple[int, list[tuple[int, int]]]:
    """The perfect matching of least total ``cost`` (bye vertex ``n``), by our blossom."""
    vertices = round_.n + round_.n % 2
    biggest = max(cost.values()) + 1
    mate = max_weight_matching(vertices, [(i, j, biggest - c) for (i, j), c in cost.items()])
    if any(m == -1 for m in mate):
        return -1, []
    chosen = [(v, m) for v, m in enumerate(mate) if v < m]
    return sum(cost[e] for e in chosen), chosen


def blossom_optimum(round_: Problem) -> Value:
    """The optimum in stages: the tiers above the worst table; then the smallest score difference
    ``D`` that still reaches them; then everything with tables up to ``D``."""
    n = round_.n
    tables = {(i, j): round_.table(i, j) for i in range(n) for j in range(i + 1, n)}
    scale = lcm(*(t[3].denominator for t in tables.values()))
    big = (n + 2) ** 2

    def top(key: tuple[int, int]) -> int:
        if key[1] == n:
            return round_.bye_cost[key[0]] * big
        rematch, strict, _equal, _diff, _ = tables[key]
        return rematch * big * big + strict

    keys = list(tables) + [(i, n) for i in round_.bye_cost]
    goal, _ = _solve(round_, {k: top(k) for k in keys})
    levels = sorted({t[3] for t in tables.values()}) or [Fraction(0)]
    worst = levels[-1]
    for level in levels:
        allowed = [k for k in keys if k[1] == n or tables[k][3] <= level]
        reached, _ = _solve(round_, {k: top(k) for k in allowed})
        if reached == goal:
            worst = level
            break
    allowed = [k for k in keys if k[1] == n or tables[k][3] <= worst]
    spread = int(max(levels) * scale) * n + 1

    def full(key: tuple[int, int]) -> int:
        if key[1] == n:
            return top(key) * spread * big
        _rematch, _strict, equal, diff, _ = tables[key]
        return (top(key) * spread + int(diff * scale)) * big + equal

    _, chosen = _solve(round_, {k: full(k) for k in allowed})
    bye = next((i for i, j in chosen if j == n), None)
    return round_.value([(i, j) for i, j in chosen if j != n], bye)


def lower_bound(round_: Problem) -> tuple[Fraction, Fraction]:
    """(worst, total) that no pairing without rematches and with the bye at the lowest eligible
    entry can beat. A table crossing the cut between two score levels spans their gap; at least
    |side| − 2ν(side) tables cross it, ν being the largest rematch-free matching inside one side
    (our blossom; sides too large for it get the parity |side| mod 2)."""
    n = round_.n
    bye = next((i for i, cost in round_.bye_cost.items() if cost == 0), None)
    players = [i for i in range(n) if i != bye]
    score = [Fraction(round_.entries[i].score) for i in players]
    entries = round_.entries

    def allowed(x: int, y: int) -> bool:  # positions in ``players``
        a, b = entries[players[x]], entries[players[y]]
        return b.id not in a.opponents and a.id not in b.opponents

    def nearest(x: int, candidates: range) -> Fraction | None:
        best: Fraction | None = None
        for y in candidates:
            gap = abs(score[x] - score[y])
            if best is not None and gap >= best:
                break
            if y != x and allowed(x, y):
                best = gap
        return best

    worst, total = Fraction(0), Fraction(0)
    count = len(players)
    for x in range(count):  # each entry's nearest allowed opponent, looking both ways
        found = [g for g in (nearest(x, range(x - 1, -1, -1)), nearest(x, range(x + 1, count)))
                 if g is not None]  # fmt: skip
        worst = max(worst, min(found, default=Fraction(0)))
    for k in range(1, count):
        if score[k] == score[k - 1]:
            continue
        crossing = 0
        for side in (range(k), range(k, count)):
            if len(side) > LOWER_BOUND_SIDE_LIMIT:
                crossing = max(crossing, len(side) % 2)
                continue
            edges = [(a - side[0], b - side[0], 1) for a in side for b in side
                     if a < b and allowed(a, b)]  # fmt: skip
            crossing = max(crossing, sum(m == -1 for m in max_weight_matching(len(side), edges)))
        if crossing:
            total += (score[k - 1] - score[k]) * crossing
            shortest = min(g for g in (nearest(x, range(k, count)) for x in range(k - 1, -1, -1))
                           if g is not None)  # fmt: skip
            worst = max(worst, shortest)
    return worst, total


def optimum(entries: Sequence[Competitor], clubs: str = "among_equals") -> Value:
    round_ = Problem(entries, clubs)
    if round_.n <= BRUTE_FORCE_LIMIT:
        return brute_force(round_)
    return blossom_optimum(round_)
