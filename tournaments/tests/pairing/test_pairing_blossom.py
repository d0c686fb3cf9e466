"""Our own blossom matching (the tests' independent oracle) is exact: checked against brute force
on random graphs with many ties, and against rustworkx on larger ones. Pure."""

from __future__ import annotations

import random

import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.tests.pairing.blossom import max_weight_matching


def brute_force(n: int, edges: list[tuple[int, int, int]]) -> tuple[int, int]:
    """(cardinality, weight) of the best matching, trying every one."""
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}

    def best(free: list[int]) -> tuple[int, int]:
        if not free:
            return 0, 0
        v, rest = free[0], free[1:]
        found = best(rest)
        for k, u in enumerate(rest):
            if (min(u, v), max(u, v)) in weight:
                card, total = best(rest[:k] + rest[k + 1 :])
                found = max(found, (card + 1, total + weight[min(u, v), max(u, v)]))
        return found

    return best(list(range(n)))


def value(mate: list[int], edges: list[tuple[int, int, int]]) -> tuple[int, int]:
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    assert all(mate[m] == v for v, m in enumerate(mate) if m >= 0), "mates in both directions"
    chosen = [(v, m) for v, m in enumerate(mate) if m > v]
    return len(chosen), sum(weight[e] for e in chosen)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]]]:
    n = draw(st.integers(1, 9))
    top = draw(st.sampled_from([1, 3, 20]))  # small weights: many ties, many blossoms
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return n, [(i, j, draw(st.integers(0, top))) for i, j in chosen]


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_the_blossom_finds_the_heaviest_of_the_largest_matchings(
    graph: tuple[int, list[tuple[int, int, int]]],
) -> None:
    n, edges = graph
    assert value(max_weight_matching(n, edges), edges) == brute_force(n, edges)


@pytest.mark.parametrize("seed", range(6))
def test_the_blossom_agrees_with_rustworkx_on_larger_graphs(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(20, 70)
    density, top = rng.random(), rng.choice([2, 50, 10**12])
    edges = [(i, j, rng.randint(1, top)) for i in range(n) for j in range(i + 1, n)
             if rng.random() < density]  # fmt: skip
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    theirs = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    expected = len(theirs), sum(weight[min(a, b), max(a, b)] for a, b in theirs)
    assert value(max_weight_matching(n, edges), edges) == expected


def test_a_bad_edge_is_refused() -> None:
    with pytest.raises(ValueError, match="bad edge"):
        max_weight_matching(2, [(0, 2, 1)])
