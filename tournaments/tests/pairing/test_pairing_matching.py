"""The matching helper: tiered weights order cost vectors lexicographically, and the matcher
finds the best complete matching (checked against brute force). Pure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.matching import Tiers, max_weight_matching

MAXIMA = (1, 3, 5)


def complete(vertices: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not vertices:
        yield []
        return
    first, rest = vertices[0], vertices[1:]
    for k, other in enumerate(rest):
        for tail in complete(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


costs = st.tuples(*(st.integers(0, m) for m in MAXIMA))


@settings(max_examples=80, deadline=None)
@given(st.lists(costs, min_size=28, max_size=28))
def test_the_best_matching_minimises_the_costs_tier_by_tier(
    edge_costs: list[tuple[int, ...]],
) -> None:
    vertices = list(range(8))
    pairs = [(a, b) for a in vertices for b in vertices if a < b]
    tiers = Tiers(MAXIMA, len(vertices) // 2)
    cost_of = dict(zip(pairs, edge_costs, strict=True))
    mates = max_weight_matching(8, [(a, b, tiers.weight(*cost_of[a, b])) for a, b in pairs])
    assert all(mates[mates[v]] == v for v in vertices)
    chosen = [(a, b) for a, b in mates.items() if a < b]

    def summed(matching: list[tuple[int, int]]) -> tuple[int, ...]:
        return tuple(sum(cost_of[p][t] for p in matching) for t in range(len(MAXIMA)))

    assert summed(chosen) == min(summed(m) for m in complete(vertices))


def test_a_missing_edge_is_never_used_and_an_incomplete_graph_leaves_vertices_out() -> None:
    assert max_weight_matching(4, [(0, 1, 5), (1, 2, 50)]) == {1: 2, 2: 1}
    # cardinality first: two light edges beat one heavy one
    assert max_weight_matching(4, [(0, 1, 1), (1, 2, 50), (2, 3, 1)]) == {0: 1, 1: 0, 2: 3, 3: 2}


def test_costs_above_a_tier_maximum_are_clamped() -> None:
    tiers = Tiers((1, 2), 3)
    assert tiers.weight(0, 9) == tiers.weight(0, 2) > tiers.weight(1, 0)


def test_tiers_refuse_weights_beyond_the_matchers_integers() -> None:
    Tiers((1,) * 8, 1000)  # eight yes/no tiers over 1,000 tables still fit
    with pytest.raises(ValueError, match="128-bit"):
        Tiers((10**6,) * 8, 1000)
