"""The individual format's objective and its search: four players to a table, partners and
opponents chosen together.

A seating is a list of tables ``((a, b), (c, d))``: partners a+b against c+d (indices into the
seated players, in standings order). A table's cost has these tiers, most important first, each
strictly outranking all below it (``Costs.table`` folds them into one integer; ``Tiers`` makes
each multiplier exceed what all lower tiers can add up to over the whole round):

    1. partners     partnerships that were partnerships before
    2. winners      round 2 with the federation's practice: round 1's winning partners facing
                    each other at one table
    3. block        the last round with the federation's practice: a table that is not a block of
                    four of the standings (1–4, 5–8 …) seated 1+3 against 2+4
    4. seat cap     players whose NS and EW counts would differ by more than ``SEAT_CAP``
    5. opponents    pairs of opponents who were opponents before
    6. spread       the score spread at the table: highest match points minus lowest
    7. seats        NS/EW imbalance or repeated seats the better of the two seatings still leaves
    8. order        how far the table strays from a block of four seated 1+3 against 2+4

Up to ``EXACT_LIMIT`` players ``seat`` tries every seating, so the optimum is exact. Beyond, it
builds a first seating from two matchings (partners by the tiers that concern a partnership,
then partnerships into tables by the whole table cost) and improves it by ``local_search``: two
tables are seated again in the best of every possible way until no pair of tables can be
improved, then random re-seatings that are kept only when the round's cost falls. Partners are
never repeated when a seating without it exists (the first matching finds one, and no move
makes tier 1 worse); opponents and spread are decided together with the partners, not after
them. Pure: no database.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from .local_search import Search, Seating, Side
from .matching import Tiers, max_weight_matching
from .seats import EW, MAX_SEAT_COST, NS, seat_cost
from .types import Competitor

#: fields up to this many players go straight to the complete graphs
FULL_GRAPH_LIMIT = 200
#: pruned graphs: each player's candidates within this many places either side
PRUNED_WIDTHS = (8, 32)
ORDER_CAP = 64
#: nobody is seated so that his NS and EW counts differ by more than this, while it can be avoided
SEAT_CAP = 2
#: more than the seat costs of one table can add up to
SEAT_SPAN = 4 * MAX_SEAT_COST + 1
#: the best seatings of this many fours are remembered at most
FOURS_REMEMBERED = 200_000
#: fields up to this many seated players are seated by trying every seating
EXACT_LIMIT = 12
#: fields up to this many players try every pair of tables in the local search
EVERY_PAIR_LIMIT = 48


class Costs:
    """The tiers of one round, with what they read precomputed per player."""

    def __init__(
        self, seated: Sequence[Competitor], units: Sequence[int], winners_apart: bool,
        blocks: bool,
    ) -> None:  # fmt: skip
        self.count = len(seated)
        index = {p.id: i for i, p in enumerate(seated)}
        self.partners = [{index[q] for q in p.partners if q in index} for p in seated]
        self.opponents = [{index[q] for q in p.opponents if q in index} for p in seated]
        for i in range(len(seated)):  # histories may be one-sided: read both ways
            for j in self.partners[i]:
                self.partners[j].add(i)
            for j in self.opponents[i]:
                self.opponents[j].add(i)
        self.winners = [set[int]() for _ in seated]
        if winners_apart:
            won = _winners(seated)
            for i in range(len(seated)):
                self.winners[i] = {j for j in self.partners[i] if won[i] and won[j]}
        self.blocks = blocks
        self.units = list(units)
        # a player's seat cost per side, with a player pushed past the imbalance cap counted in
        # units of SEAT_SPAN above it (``_seats`` splits the two apart)
        self.seat = [
            (seat_cost(p, NS) + SEAT_SPAN * (abs(p.ns_count + 1 - p.ew_count) > SEAT_CAP),
             seat_cost(p, EW) + SEAT_SPAN * (abs(p.ns_count - p.ew_count - 1) > SEAT_CAP))
            for p in seated
        ]  # fmt: skip
        tables = max(1, self.count // 4)
        spread = max(self.units, default=0) - min(self.units, default=0)
        maxima = (2, 4, 1, 4, 4, spread, SEAT_SPAN - 1, ORDER_CAP + 1)
        self.tiers = Tiers(maxima, tables)
        self.spread_tier = 5  # the index of the spread in ``maxima``
        self._fours: dict[tuple[int, ...], tuple[int, Seating]] = {}
        self._eights: dict[tuple[int, ...], tuple[int, tuple[Seating, Seating] | None]] = {}

    def table(self, ns: Side, ew: Side) -> int:
        """The cost of one table as one integer (smaller is better)."""
        partners, opponents, winners = self.partners, self.opponents, self.winners
        a, b = ns
        c, d = ew
        repeated = (b in partners[a]) + (d in partners[c])
        met = (c in opponents[a]) + (d in opponents[a]) + (c in opponents[b]) + (d in opponents[b])
        faced = (c in winners[a]) + (d in winners[a]) + (c in winners[b]) + (d in winners[b])
        units = self.units
        low = min(units[a], units[b], units[c], units[d])
        high = max(units[a], units[b], units[c], units[d])
        seat = self.seat
        over, seats = divmod(min(seat[a][0] + seat[b][0] + seat[c][1] + seat[d][1],
                                 seat[a][1] + seat[b][1] + seat[c][0] + seat[d][0]), SEAT_SPAN)
        w, _x, y, z = sorted((a, b, c, d))
        # 1+3 against 2+4: the lowest index partners the third
        partner_of_w = b if a == w else a if b == w else d if c == w else c
        split_ok = partner_of_w == y
        order = min(z - w - 3 + (not split_ok), ORDER_CAP)
        block = int(self.blocks and not (w % 4 == 0 and z == w + 3 and split_ok))
        m = self.tiers.multipliers
        return (repeated * m[0] + faced * m[1] + block * m[2] + over * m[3] + met * m[4]
                + (high - low) * m[5] + seats * m[6] + order * m[7])  # fmt: skip

    def best_of_four(self, four: Sequence[int]) -> tuple[int, Seating]:
        """The best of the three ways to pair four players: ``table`` of each, computed at once
        from the six pairs (the search's inner loop), and remembered."""
        key = tuple(sorted(four))
        found = self._fours.get(key)
        if found is not None:
            return found
        w, x, y, z = key
        partners, opponents, winners, seat = self.partners, self.opponents, self.winners, self.seat
        pairs = ((w, x), (w, y), (w, z), (x, y), (x, z), (y, z))
        repeated = [q in partners[p] for p, q in pairs]
        met = [q in opponents[p] for p, q in pairs]
        faced = [q in winners[p] for p, q in pairs]
        all_met, all_faced = sum(met), sum(faced)
        units = self.units
        spread = max(units[w], units[x], units[y], units[z]) - min(
            units[w], units[x], units[y], units[z])  # fmt: skip
        span = z - w - 3
        in_block = self.blocks and w % 4 == 0 and span == 0
        m = self.tiers.multipliers
        common = spread * m[5]
        found = None
        # (partnerships as indices into ``pairs``, the seating): 1+3 v 2+4 first
        for (one, two), seating in (((1, 4), ((w, y), (x, z))), ((2, 3), ((w, z), (x, y))),
                                    ((0, 5), ((w, x), (y, z)))):  # fmt: skip
            (a, b), (c, d) = seating
            ideal = one == 1
            over, seats = divmod(min(seat[a][0] + seat[b][0] + seat[c][1] + seat[d][1],
                                     seat[a][1] + seat[b][1] + seat[c][0] + seat[d][0]), SEAT_SPAN)
            cost = (
                (repeated[one] + repeated[two]) * m[0]
                + (all_faced - faced[one] - faced[two]) * m[1]
                + (not (in_block and ideal)) * self.blocks * m[2]
                + over * m[3]
                + (all_met - met[one] - met[two]) * m[4]
                + common + seats * m[6] + min(span + (not ideal), ORDER_CAP) * m[7]
            )
            if found is None or cost < found[0]:
                found = (cost, seating)
        assert found is not None
        if len(self._fours) >= FOURS_REMEMBERED:
            self._fours.clear()
        self._fours[key] = found
        return found

    def better_eight(self, eight: Sequence[int], now: int) -> tuple[Seating, Seating] | None:
        """The best way to seat eight players at two tables if it costs less than ``now``.
        Remembered like the fours: the exact best, or that nothing costs less than a bound."""
        key = tuple(sorted(eight))
        known = self._eights.get(key)
        if known is not None:
            cost, seatings = known
            if seatings is not None or now <= cost:
                return seatings if seatings is not None and cost < now else None
        best: tuple[int, tuple[Seating, Seating]] | None = None
        bound = now
        first, rest = key[0], key[1:]
        for trio in combinations(rest, 3):
            cost_a, seating_a = self.best_of_four((first, *trio))
            if cost_a >= bound:
                continue
            cost_b, seating_b = self.best_of_four([p for p in rest if p not in trio])
            if cost_a + cost_b < bound:
                bound, best = cost_a + cost_b, (cost_a + cost_b, (seating_a, seating_b))
        if len(self._eights) >= FOURS_REMEMBERED:
            self._eights.clear()
        # the best found, or the knowledge that nothing costs less than ``now``
        self._eights[key] = best if best is not None else (now, None)
        return best[1] if best is not None else None

    def defective(self, cost: int) -> bool:
        """Whether a table of this cost leaves anything to improve above the seats."""
        return cost >= self.tiers.multipliers[self.spread_tier]


def _winners(seated: Sequence[Competitor]) -> list[bool]:
    """Round 2: who won round 1 (scored more than its round-1 opponents)."""
    scores = {p.id: p.score for p in seated}
    won = []
    for player in seated:
        others = [scores[q] for q in player.opponents if q in scores]
        won.append(bool(others) and player.score > max(others))
    return won


def seat(costs: Costs, random_seed: int = 0) -> tuple[list[Seating], str]:
    """The seating of ``costs.count`` players (a multiple of four), and a note for the organiser
    when the pruned partner graphs had to give way to the complete one."""
    if costs.count == 0:
        return [], ""
    if costs.count <= EXACT_LIMIT:
        return _every_seating(costs), ""
    sides, note = _partnerships(costs)
    search = Search(costs, _tables(costs, sides), everyone=costs.count <= EVERY_PAIR_LIMIT)
    search.descend()
    search.perturb(random.Random(random_seed))
    return search.tables, note


def _every_seating(costs: Costs) -> list[Seating]:
    """The best seating found by trying every one (small fields: 5,775 ways to make three
    tables of twelve players, each four seated the best of its three ways)."""

    def best(players: tuple[int, ...]) -> tuple[int, list[Seating]]:
        if not players:
            return 0, []
        first, rest = players[0], players[1:]
        found: tuple[int, list[Seating]] | None = None
        for trio in combinations(rest, 3):
            cost, seating = costs.best_of_four((first, *trio))
            if found is not None and cost >= found[0]:
                continue
            others_cost, others = best(tuple(p for p in rest if p not in trio))
            if found is None or cost + others_cost < found[0]:
                found = (cost + others_cost, [seating, *others])
        assert found is not None
        return found

    return best(tuple(range(costs.count)))[1]


def _partnerships(costs: Costs) -> tuple[list[Side], str]:
    n = costs.count
    tiers = Tiers((1, costs.tiers.maxima[costs.spread_tier], 2 * ORDER_CAP), n // 2)
    m_repeat, m_units, m_order = tiers.multipliers

    def edges(pairs: Iterable[tuple[int, int]], repeats: bool) -> list[tuple[int, int, int]]:
        found = []
        for i, j in pairs:
            repeated = j in costs.partners[i]
            if repeated and not repeats:
                continue
            # the block ideal: 1 with 3 and 2 with 4, i.e. the index with bit 1 flipped
            order = min(abs(j - (i ^ 2)) + abs(i - (j ^ 2)), 2 * ORDER_CAP)
            distance = abs(costs.units[i] - costs.units[j])
            found.append((i, j, tiers.base - repeated * m_repeat - distance * m_units
                          - order * m_order))  # fmt: skip
        return found

    if n > FULL_GRAPH_LIMIT:
        for width in PRUNED_WIDTHS:
            pairs = ((i, j) for i in range(n) for j in range(i + 1, min(n, i + width + 1)))
            mates = max_weight_matching(n, edges(pairs, repeats=False))
            if len(mates) == n:
                return _pairs_of(mates), ""
    mates = max_weight_matching(n, edges(combinations(range(n), 2), repeats=True))
    note = "" if n <= FULL_GRAPH_LIMIT else "the pruned partner graphs had no complete pairing"
    return _pairs_of(mates), note


def _pairs_of(mates: dict[int, int]) -> list[Side]:
    return sorted((i, j) for i, j in mates.items() if i < j)


def _tables(costs: Costs, sides: list[Side]) -> list[Seating]:
    """Partnerships paired into tables by the whole table cost (the better seating of the two
    sides), the better partnership first."""
    sides = sorted(sides, key=lambda s: (s[0] + s[1], s[0]))
    count = len(sides)
    if costs.count <= FULL_GRAPH_LIMIT:
        pairs: Iterable[tuple[int, int]] = combinations(range(count), 2)
    else:  # consecutive sides are always candidates, so the matching is always complete
        width = PRUNED_WIDTHS[0]
        pairs = ((k, m) for k in range(count) for m in range(k + 1, min(count, k + width + 1)))
    biggest = costs.tiers.base
    edges = [(k, m, biggest - costs.table(sides[k], sides[m])) for k, m in pairs]
    mates = max_weight_matching(count, edges)
    if len(mates) != count:  # pragma: no cover - consecutive sides are always candidates
        raise RuntimeError("partnerships could not all be paired")
    return [(sides[k], sides[m]) for k, m in _pairs_of(mates)]
