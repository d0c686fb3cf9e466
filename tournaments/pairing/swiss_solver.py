"""The Swiss objective as matching weights, and the staged solve that reaches its exact optimum.

``swiss`` states the objective (tiers, most important first); this module encodes it. Every
possible table is an edge; the BYE vertex (odd fields) is joined to the entries with the fewest
byes. Each tier but the worst table is an integer cost on an edge, folded by ``Tiers`` into one
weight: a tier's multiplier exceeds the largest sum the tiers below it can reach over a whole
round (largest cost per edge × tables), so no amount of a lower tier outweighs one unit of a
higher one, at every field size; ``Tiers`` refuses weights beyond the matcher's 128-bit integers.

The worst table is a bottleneck, not a sum, so it is settled by stages: the matching is solved on
the edges with a score difference up to ``D`` only. A candidate ``D`` is feasible when that
matching reaches the unrestricted optimum of the tiers above it (rematches, bye, and clubs when
strict); feasibility only grows with ``D``, so the smallest feasible ``D`` is found by trying the
lower bound (``bounds``) first, then bisecting. The solution at that ``D`` is optimal in every
tier: the tiers above are reached, the worst table cannot be smaller, and the matching minimises
the tiers below among everything left.

Fields up to ``FULL_GRAPH_LIMIT`` use the complete graph: exact by construction. Larger fields
first use pruned candidate graphs (within a group the entries nearest the ideal opponent, across
groups the boundary entries); a pruned result is accepted only when ``bounds`` proves its score
tiers optimal (no rematch, the lowest eligible bye, worst table and total at their lower bounds,
no same-club table when strict). Otherwise the complete graph settles it, which always has a
perfect matching (rematch edges are only costly there), so the optimum is always reached.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .bounds import score_bounds
from .matching import Tiers, max_weight_matching
from .seats import EW, MAX_SEAT_COST, NS, pair_seat_cost, seat_cost
from .types import Competitor

#: fields up to this size go straight to the complete graph (exact and still fast)
FULL_GRAPH_LIMIT = 300
#: the pruned graphs tried before the complete graph: (candidates nearest the ideal opponent,
#: candidates nearest it among those whose due seat fits)
PRUNED_WIDTHS = ((6, 12), (24, 48))
#: the order tier is capped: beyond this distance every candidate is equally far
ORDER_CAP = 256

OFF, AMONG_EQUALS, STRICT = "off", "among_equals", "strict"
CLUB_MODES = (OFF, AMONG_EQUALS, STRICT)


@dataclass(slots=True)
class Field:
    """Entries in pairing order with their score groups (indices into ``entries``)."""

    entries: list[Competitor]
    units: list[int]  # per entry: the score in integer units
    group: list[int]
    start: list[int]  # per group: index of its first entry
    end: list[int]  # per group: index past its last entry
    ideal: list[int]  # per entry: index of the ideal opponent within its group

    @property
    def groups(self) -> int:
        return len(self.start)

    @property
    def bye_vertex(self) -> int | None:
        return len(self.entries) if len(self.entries) % 2 else None


@dataclass(slots=True)
class Solution:
    mates: dict[int, int]
    note: str = ""


def solve(field: Field, clubs: str) -> Solution:
    """The optimal matching of ``field`` (``mates`` in both directions; the bye vertex is
    ``len(entries)``)."""
    if clubs not in CLUB_MODES:
        raise ValueError(f"unknown club avoidance {clubs!r}: expected one of {CLUB_MODES}")
    n = len(field.entries)
    if n > FULL_GRAPH_LIMIT:
        for width, fitting_width in PRUNED_WIDTHS:
            edges = _weighted(field, clubs, _pruned_pairs(field, width, fitting_width), False)
            mates = _staged(field, clubs, edges)
            if mates is not None and _certified(field, clubs, mates):
                return Solution(mates)
    edges = _weighted(field, clubs, _all_pairs(field), True)
    mates = _staged(field, clubs, edges)
    if mates is None:  # pragma: no cover - the complete graph always has a perfect matching
        raise RuntimeError("no complete pairing in the complete graph")
    note = "" if n <= FULL_GRAPH_LIMIT else "the pruned graphs could not prove the optimum"
    return Solution(mates, note)


# --- the edges and their weights -------------------------------------------------------------


@dataclass(slots=True)
class _Edges:
    """Weighted edges with what the stages read: each edge's score difference and the cost of the
    tiers above the worst table."""

    items: list[tuple[int, int, int]]
    diff: list[int]  # per edge
    top: list[int]  # per edge: the tiers above the worst table, as a weight of their own
    vertices: int


def _bye_candidates(field: Field) -> list[int]:
    """Entries that may take the bye: those with the fewest byes so far."""
    if field.bye_vertex is None:
        return []
    fewest = min(e.byes for e in field.entries)
    return [i for i, e in enumerate(field.entries) if e.byes == fewest]


def _all_pairs(field: Field) -> Iterable[tuple[int, int]]:
    n = len(field.entries)
    for i in range(n):
        for j in range(i + 1, n):
            yield i, j
    for i in _bye_candidates(field):
        yield i, n


def _pruned_pairs(field: Field, width: int, fitting_width: int) -> Iterable[tuple[int, int]]:
    """Candidate tables: within a group the ``width`` entries nearest the ideal opponent and the
    ``fitting_width`` nearest it among those whose due seat fits; across groups the boundary
    entries; the bye to the lowest-ranked entries that may take it."""
    n = len(field.entries)
    due = [_due_seat(e) for e in field.entries]
    seen: set[tuple[int, int]] = set()
    for g in range(field.groups):
        first, past = field.start[g], field.end[g]
        members = range(first, past)
        # an entry due NS fits one due EW or due neither, and the other way round
        fitting = {seat: [i for i in members if due[i] != seat] for seat in (NS, EW)}
        for i in members:
            low = max(first, min(field.ideal[i] - width // 2, past - width - 1))
            for j in range(low, min(past, low + width + 1)):
                if j != i:
                    seen.add((i, j) if i < j else (j, i))
            if due[i]:
                others = fitting[due[i]]
                at = bisect_left(others, field.ideal[i])
                for j in others[max(0, at - fitting_width // 2) : at + fitting_width // 2 + 1]:
                    if j != i:
                        seen.add((i, j) if i < j else (j, i))
        # floats: the tail of this group against whoever follows it, across small groups too
        reach = width + fitting_width
        for i in range(max(first, past - reach), past):
            for j in range(past, min(n, past + reach)):
                seen.add((i, j))
    yield from seen
    candidates = _bye_candidates(field)
    for i in candidates[-(width + fitting_width) :]:
        yield i, n


def _due_seat(entry: Competitor) -> str:
    """The seat this entry would rather have ("" if neither)."""
    ns, ew = seat_cost(entry, NS), seat_cost(entry, EW)
    return "" if ns == ew else NS if ns < ew else EW


def met(a: Competitor, b: Competitor) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def same_club(a: Competitor, b: Competitor) -> bool:
    return a.club is not None and a.club == b.club


def _weighted(
    field: Field, clubs: str, pairs: Iterable[tuple[int, int]], with_rematches: bool
) -> _Edges:
    entries, units, group = field.entries, field.units, field.group
    start, end, ideal = field.start, field.end, field.ideal
    n = len(entries)
    spread = max(units) - min(units)
    strict, equal = int(clubs == STRICT), int(clubs == AMONG_EQUALS)
    # most important first: rematch, bye, club (strict), total, club (among equals), seat, order
    tables = (n + 1) // 2
    maxima = (1, n, strict, spread, equal, 2 * MAX_SEAT_COST, 2 * ORDER_CAP)
    tiers = Tiers(maxima, tables, (tables, 1, *[tables] * 5))  # one edge carries the bye
    m_rematch, m_bye, m_strict, m_total, m_equal, m_seat, m_order = tiers.multipliers
    # the tiers above the worst table, weighted on their own to compare stages
    top_tiers = Tiers((1, n, strict), tables, (tables, 1, tables))
    t_rematch, t_bye, t_strict = top_tiers.multipliers
    candidates = _bye_candidates(field)
    bye_cost = {i: len(candidates) - 1 - k for k, i in enumerate(candidates)}
    items: list[tuple[int, int, int]] = []
    diff: list[int] = []
    top: list[int] = []
    for i, j in pairs:
        if j == n:  # the bye: the lowest eligible entry
            items.append((i, j, tiers.base - bye_cost[i] * m_bye))
            diff.append(0)
            top.append(bye_cost[i] * t_bye)
            continue
        a, b = entries[i], entries[j]
        rematch = met(a, b)
        if rematch and not with_rematches:
            continue
        club = same_club(a, b)
        distance = abs(units[i] - units[j])
        gi, gj = group[i], group[j]
        if gi == gj:
            order = abs(j - ideal[i]) + abs(i - ideal[j])
        else:  # a float takes the last of the upper group and the first of the lower
            order = (end[gi] - 1 - i) + (j - start[gj])
        penalty = (
            rematch * m_rematch
            + club * (strict * m_strict + equal * m_equal)
            + distance * m_total
            + pair_seat_cost(a, b) * m_seat
            + min(order, 2 * ORDER_CAP) * m_order
        )
        items.append((i, j, tiers.base - penalty))
        diff.append(distance)
        top.append(rematch * t_rematch + club * strict * t_strict)
    return _Edges(items, diff, top, n + (n % 2))


# --- the stages -------------------------------------------------------------------------------


def _top_cost(edges: _Edges, mates: dict[int, int]) -> int:
    chosen = {(i, j) for i, j in mates.items() if i < j}
    return sum(edges.top[k] for k, (i, j, _w) in enumerate(edges.items) if (i, j) in chosen)


def _restricted(edges: _Edges, limit: int) -> dict[int, int] | None:
    """The best perfect matching using tables with a score difference up to ``limit``."""
    kept = [edge for edge, d in zip(edges.items, edges.diff, strict=True) if d <= limit]
    mates = max_weight_matching(edges.vertices, kept)
    return mates if len(mates) == edges.vertices else None


def _staged(field: Field, clubs: str, edges: _Edges) -> dict[int, int] | None:
    """The optimum over ``edges`` with the worst table settled by stages (None: no perfect
    matching in ``edges``)."""
    levels = sorted(set(edges.diff))
    if not levels:
        mates = max_weight_matching(edges.vertices, edges.items)
        return mates if len(mates) == edges.vertices else None
    # the best the tiers above the worst table can do: no rematch, the lowest eligible bye and
    # (strict) no same-club table; a stage reaching it needs no comparison with the full graph
    floor = _bound_on_worst(field, clubs)
    first = levels[min(bisect_left(levels, floor), len(levels) - 1)]
    mates = _restricted(edges, first)
    if mates is not None and _top_cost(edges, mates) == 0:
        return mates
    best = max_weight_matching(edges.vertices, edges.items)
    if len(best) != edges.vertices:
        return None
    goal = _top_cost(edges, best)
    # the bound assumed the best tiers above; they are out of reach, so every level is open,
    # except that feasibility only grows with the level and ``first`` has been tried
    found, low, high = best, 0, len(levels) - 2
    at = levels.index(first)
    if mates is not None and _top_cost(edges, mates) == goal:
        found, high = mates, at - 1
    else:
        low = at + 1
    while low <= high:
        middle = (low + high) // 2
        trial = _restricted(edges, levels[middle])
        if trial is not None and _top_cost(edges, trial) == goal:
            found, high = trial, middle - 1
        else:
            low = middle + 1
    return found


def _allowed(field: Field, clubs: str) -> Callable[[int, int], bool]:
    """The tables a pairing at the best of the tiers above the worst table may hold: no rematch,
    and no same-club table when avoidance is strict."""
    entries = field.entries
    strict = clubs == STRICT

    def allowed(i: int, j: int) -> bool:
        a, b = entries[i], entries[j]
        return not met(a, b) and not (strict and same_club(a, b))

    return allowed


def _bound_on_worst(field: Field, clubs: str) -> int:
    """A lower bound on the worst table of pairings at the best of the tiers above it."""
    candidates = _bye_candidates(field)
    bye = candidates[-1] if candidates else None
    return score_bounds(field.units, bye, _allowed(field, clubs)).worst


def _certified(field: Field, clubs: str, mates: dict[int, int]) -> bool:
    """Whether ``bounds`` proves this pruned-graph result optimal down to the total."""
    entries, units = field.entries, field.units
    n = len(entries)
    candidates = _bye_candidates(field)
    bye = mates.get(n) if field.bye_vertex is not None else None
    if candidates and bye != candidates[-1]:
        return False
    allowed = _allowed(field, clubs)
    tables = [(i, j) for i, j in mates.items() if i < j < n]
    if not all(allowed(i, j) for i, j in tables):
        return False
    bounds = score_bounds(units, bye, allowed)
    diffs = [abs(units[i] - units[j]) for i, j in tables]
    return max(diffs, default=0) == bounds.worst and sum(diffs) == bounds.total
