"""Maximum-weight matching on integer weights, and tiers folding several rules into one weight.

Every pairing rule is a cost on an edge between two competitors (a rematch, a same-club meeting, a
score difference, a seat imbalance, a step away from the ideal opponent). The rules are ranked: no
amount of a lower cost may outweigh one unit of a higher one. ``Tiers`` turns a cost vector into a
single positive integer weight whose maximum over perfect matchings is the lexicographic minimum of
the summed costs, so one call to a blossom matcher settles all rules at once. Forbidden pairings are
simply missing edges.

The matcher is rustworkx's ``max_weight_matching`` (exact, integer weights of any size, fast on
sparse graphs). Nothing here knows about tournaments; no database, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import rustworkx as rx

#: rustworkx keeps weights and duals in signed 128-bit integers; a matching's total weight must
#: stay below this
MAX_WEIGHT = 2**126


def _identity(weight: int) -> int:
    return weight


def max_weight_matching(vertex_count: int, edges: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """The mates of a maximum-cardinality matching of maximum total weight: ``{vertex: mate}``,
    both directions, unmatched vertices absent. Weights must be integers; edges must be distinct."""
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(vertex_count))
    graph.add_edges_from(list(edges))
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    mates: dict[int, int] = {}
    for a, b in matched:
        mates[a] = b
        mates[b] = a
    return mates


class Tiers:
    """Lexicographic costs as one positive integer weight.

    ``maxima`` holds the largest cost one edge can carry in each tier, most important tier first;
    ``edges`` is how many edges a matching holds, and ``carriers`` (optional, per tier) how many
    of them can carry a cost in that tier (one for the bye, say). A tier's multiplier exceeds the
    largest possible sum of all lower tiers over a whole matching (maximum × carriers, summed with
    their multipliers), so the tiers never trade against each other. Costs above a tier's maximum
    are clamped to it. The largest edge weight is the product of (maximum × carriers + 1) over the
    tiers; a matching's total (that × edges) must stay below ``MAX_WEIGHT``.
    """

    def __init__(
        self, maxima: Sequence[int], edges: int, carriers: Sequence[int] | None = None
    ) -> None:
        counts = list(carriers) if carriers is not None else [edges] * len(maxima)
        if any(m < 0 for m in maxima) or edges < 0 or len(counts) != len(maxima):
            raise ValueError("tier maxima and edge counts must be non-negative, one per tier")
        multipliers: list[int] = []
        total = 0
        for maximum, count in zip(reversed(maxima), reversed(counts), strict=True):
            multiplier = total + 1
            multipliers.append(multiplier)
            total += multiplier * maximum * max(min(count, edges), 1)
        self.maxima = tuple(maxima)
        self.multipliers = tuple(reversed(multipliers))
        #: added to every edge so that all weights are positive
        self.base = total + 1
        if self.base * max(edges, 1) >= MAX_WEIGHT:
            raise ValueError("the tiers need weights beyond the matcher's 128-bit integers")

    def weight(self, *costs: int) -> int:
        if len(costs) != len(self.multipliers):
            raise ValueError(f"expected {len(self.multipliers)} costs, got {len(costs)}")
        penalty = 0
        for cost, maximum, multiplier in zip(costs, self.maxima, self.multipliers, strict=True):
            penalty += min(cost, maximum) * multiplier
        return self.base - penalty
