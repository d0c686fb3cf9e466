"""Accelerated Swiss pairing: FIDE C.04.5.1, the Baku acceleration. Pure: no database.

    accelerated_rounds(rounds) -> (accelerated, full)
    virtual_points(round_number, rounds, win) -> Fraction     a group A entry's, this round
    group_a_size(listed) -> int
    group_a(order, roster) -> set of ids

The rule, as C.04.5.1 says it:

- before round 1 the list of players, in pairing-number order, is split in two: group A is the
  first half rounded *up to an even number* (``2 * ceil(N / 4)``: 161 players give 82), group B
  the rest;
- the accelerated rounds are the first half (rounded up) of the rounds; in the first half
  (rounded up) of those, group A's players get one virtual point, in the rest of them half a
  point; group B never gets any, nobody does after the last accelerated round (nine rounds: five
  accelerated, 1 point in rounds 1–3, ½ in rounds 4–5; seven: 1 in rounds 1–2, ½ in 3–4);
- the pairing score, by which score groups are built, is the score plus the virtual points;
- a late entry takes its place in the list by its pairing number, and the last player of group A
  stays the one of round 1 (so group A may grow, and may become odd).

The rule is written for chess scores (1, ½, 0). Here scores are match points (2/1/0 by default,
``Tournament.points_win``…): one virtual point is the match points of a win, half a point half of
them. The virtual points only go into the pairing score (``SwissOptions.virtual_points``); the
standings and tie-breaks never see them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction


def accelerated_rounds(rounds: int) -> tuple[int, int]:
    """(accelerated rounds, of which the first with a full virtual point)."""
    accelerated = (rounds + 1) // 2
    return accelerated, (accelerated + 1) // 2


def virtual_points(round_number: int, rounds: int, win: int) -> Fraction:
    """A group A entry's virtual points before ``round_number``, in match points (``win``: the
    match points of a win, the rule's one point)."""
    accelerated, full = accelerated_rounds(rounds)
    if round_number <= full:
        return Fraction(win)
    if round_number <= accelerated:
        return Fraction(win, 2)
    return Fraction(0)


def group_a_size(listed: int) -> int:
    """The first half of ``listed`` players rounded up to an even number: 2 × ⌈N / 4⌉."""
    return 2 * -(-listed // 4)


def group_a(order: Sequence[int], roster: Iterable[int]) -> set[int]:
    """Group A: ``order`` is every id by pairing number (late entries in their places);
    ``roster`` the ids of round 1's list, which fixes the last player of group A. Everyone up to
    that player in ``order`` is in group A."""
    listed = set(roster)
    first_list = [i for i in order if i in listed]
    size = min(group_a_size(len(first_list)), len(first_list))
    if size == 0:
        return set()
    last = order.index(first_list[size - 1])
    return set(order[: last + 1])
