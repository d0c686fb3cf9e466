"""The Baku acceleration (FIDE C.04.5.1) in the pure pairing: the rule's numbers, and eight
entries paired by hand as the rule gives them, against the same field without acceleration."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.pairing import Competitor, SwissOptions, swiss
from tournaments.pairing.acceleration import (
    accelerated_rounds,
    group_a,
    group_a_size,
    virtual_points,
)


@pytest.mark.parametrize(("rounds", "expected"), [
    (9, (5, 3)),  # the rule's example: five accelerated rounds, 1 point in rounds 1-3
    (7, (4, 2)),
    (5, (3, 2)),
    (4, (2, 1)),
    (1, (1, 1)),
])  # fmt: skip
def test_the_accelerated_rounds_are_the_first_half_and_the_full_point_the_first_half_of_those(
    rounds, expected
) -> None:
    assert accelerated_rounds(rounds) == expected


def test_virtual_points_are_a_win_then_half_a_win_then_none() -> None:
    # nine rounds, a win worth 2 match points: 2, 2, 2, 1, 1, then nothing
    assert [virtual_points(n, 9, 2) for n in range(1, 10)] == [2, 2, 2, 1, 1, 0, 0, 0, 0]
    # a win of 3 match points: half of it is 3/2, kept exact
    assert virtual_points(3, 7, 3) == Fraction(3, 2)


def test_group_a_is_the_first_half_rounded_up_to_an_even_number() -> None:
    assert group_a_size(161) == 82  # the rule's example
    assert [group_a_size(n) for n in (8, 9, 10, 12, 120)] == [4, 6, 6, 6, 60]


def test_a_late_entry_above_the_last_of_group_a_joins_it_and_the_last_stays() -> None:
    # round 1's list: 1…8 (group A 1…4); later 9 enters seeded between 2 and 3
    order = [1, 2, 9, 3, 4, 5, 6, 7, 8]
    assert group_a(order, roster=range(1, 9)) == {1, 2, 9, 3, 4}
    # a late entry below the last of group A stays in group B
    assert group_a([1, 2, 3, 4, 5, 10, 6, 7, 8], roster=range(1, 9)) == {1, 2, 3, 4}


def field(scores: dict[int, float], opponents: dict[int, set[int]]) -> list[Competitor]:
    """Entries 1…8 seeded by their number; ranks by real score, then seed (the standings)."""
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    return [Competitor(id=i, rank=ranked.index(i) + 1, score=scores[i], seed=i,
                       opponents=frozenset(opponents.get(i, set())))
            for i in scores]  # fmt: skip


def tables(pairing) -> set[frozenset[int]]:
    return {frozenset((*t.ns, *t.ew)) for t in pairing.tables}


#: five rounds, win 2: group A (seeds 1-4 of 8) has 2 virtual match points in rounds 1 and 2
GROUP_A = dict.fromkeys((1, 2, 3, 4), 2.0)


def options(number: int, virtual: dict[int, float] | None = None) -> SwissOptions:
    return SwissOptions(round_number=number, clubs="off", virtual_points=virtual or {})


def test_round_1_pairs_group_a_among_itself_and_group_b_among_itself() -> None:
    entries = field(dict.fromkeys(range(1, 9), 0.0), {})
    plain = swiss(entries, options(1))
    accelerated = swiss(entries, options(1, GROUP_A))
    # by seed, top half against bottom half: 1-5, 2-6, 3-7, 4-8
    assert tables(plain) == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))}
    # C.04.5.1: group A (pairing score 1) 1-3, 2-4; group B (0) 5-7, 6-8
    assert tables(accelerated) == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}
    assert accelerated.notes[0] == ("Accelerated (Baku): 4 entries of group A have 2 virtual "
                                    "points")  # fmt: skip
    assert all("by_seed" in t.flags for t in accelerated.tables)
    assert not any({"float_up", "float_down"} & t.flags for t in accelerated.tables)


def test_round_2_follows_the_pairing_scores() -> None:
    # round 1 as accelerated above, the higher seed winning every table (win = 2)
    met = {1: {3}, 3: {1}, 2: {4}, 4: {2}, 5: {7}, 7: {5}, 6: {8}, 8: {6}}
    scores = {1: 2, 2: 2, 3: 0, 4: 0, 5: 2, 6: 2, 7: 0, 8: 0}
    accelerated = swiss(field(scores, met), options(2, GROUP_A))
    # pairing scores: 1, 2 → 4; 3, 4 (group A, lost) and 5, 6 (group B, won) → 2; 7, 8 → 0.
    # The 2-group meets top half against bottom half: 5-3, 6-4 (C.04.5.1 with the Dutch
    # system gives the same tables: 3-5, 4-6)
    assert tables(accelerated) == {frozenset(p) for p in ((1, 2), (3, 5), (4, 6), (7, 8))}
    # the same results without acceleration: every winner has 2, every loser 0
    plain = swiss(field(scores, met), options(2))
    assert tables(plain) == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))}
    assert tables(plain) != tables(accelerated)


def test_round_2_of_a_plain_swiss_after_a_plain_round_1() -> None:
    # round 1 by seed (1-5, 2-6, 3-7, 4-8), the higher seed winning: 1, 2, 3, 4 lead with 2
    met = {1: {5}, 5: {1}, 2: {6}, 6: {2}, 3: {7}, 7: {3}, 4: {8}, 8: {4}}
    scores = {1: 2, 2: 2, 3: 2, 4: 2, 5: 0, 6: 0, 7: 0, 8: 0}
    assert tables(swiss(field(scores, met), options(2))) == {
        frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_virtual_points_never_reach_the_tables_scores_or_a_round_without_them() -> None:
    entries = field(dict.fromkeys(range(1, 9), 0.0), {})
    accelerated = swiss(entries, options(1, GROUP_A))
    # the competitors handed in are unchanged (frozen): standings never see the points
    assert all(c.score == 0 for c in entries)
    assert tables(swiss(entries, options(1, dict.fromkeys((1, 2, 3, 4), 0.0)))) == tables(
        swiss(entries, options(1)))
    assert tables(accelerated) != tables(swiss(entries, options(1)))
