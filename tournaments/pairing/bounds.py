"""Lower bounds on the score cost of any Swiss pairing: the certificate that a pairing found on a
pruned candidate graph is as good as the best one on the complete graph.

Scores are integer units (match points, scaled to integers), entries in pairing order (highest
score first). Cut the scores between two neighbouring levels: ``above`` is every entry at the
upper level or higher. A table crosses the cut when one side is above it and the other below.
Entries above the cut that do not cross are paired among themselves, and at most ``2 ν`` of them
can be, ``ν`` being the largest matching of allowed tables (no rematch) inside ``above``; so at
least ``|above| - 2ν`` tables cross, and likewise from below. Every crossing table spans the gap
between the two levels, so

    total score difference  ≥  Σ over cuts  gap × (fewest crossing tables)
    worst table             ≥  the shortest allowed table across any cut that must be crossed,
                               and each entry's shortest allowed table

A pairing without rematches whose bye goes to the lowest eligible entry and whose worst table and
total meet these bounds is therefore optimal in every tier down to the total (``swiss`` states the
tiers). ``ν`` is computed exactly for small sides of a cut; a large side gets the parity bound
``|side| mod 2``, which is weaker but still a bound. Pure: no database.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .matching import max_weight_matching

#: sides of a cut up to this size get an exact largest matching (a small complete graph)
EXACT_SIDE_LIMIT = 80

Allowed = Callable[[int, int], bool]


@dataclass(frozen=True, slots=True)
class ScoreBounds:
    worst: int
    total: int


def score_bounds(units: Sequence[int], bye: int | None, allowed: Allowed) -> ScoreBounds:
    """Bounds for entries with scores ``units`` (non-increasing) when ``bye`` (an index, or None)
    sits out; ``allowed(i, j)`` says whether ``i`` and ``j`` may meet (``i < j``)."""
    players = [i for i in range(len(units)) if i != bye]
    if len(players) < 2:
        return ScoreBounds(0, 0)
    worst = max(_nearest_allowed(units, players, k, allowed) for k in range(len(players)))
    total = 0
    cuts = [k for k in range(1, len(players)) if units[players[k - 1]] != units[players[k]]]
    for k in cuts:
        above, below = players[:k], players[k:]
        crossing = max(_unpaired(above, allowed), _unpaired(below, allowed))
        if crossing:
            total += (units[above[-1]] - units[below[0]]) * crossing
            worst = max(worst, _shortest_across(units, above, below, allowed))
    return ScoreBounds(worst, total)


def _unpaired(side: list[int], allowed: Allowed) -> int:
    """The fewest entries of ``side`` left without a partner inside it."""
    if len(side) > EXACT_SIDE_LIMIT:
        return len(side) % 2
    edges = [(a, b, 1) for x, a in enumerate(side) for b in side[x + 1 :] if allowed(a, b)]
    index = {entry: k for k, entry in enumerate(side)}
    mates = max_weight_matching(len(side), [(index[a], index[b], w) for a, b, w in edges])
    return len(side) - len(mates)


def _nearest_allowed(units: Sequence[int], players: list[int], k: int, allowed: Allowed) -> int:
    """The smallest score difference of any allowed table for ``players[k]``."""
    me = players[k]
    best: int | None = None
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(players):
            other = players[j]
            gap = abs(units[me] - units[other])
            if best is not None and gap >= best:
                break
            if allowed(min(me, other), max(me, other)):
                best = gap
                break
            j += step
    return 0 if best is None else best


def _shortest_across(
    units: Sequence[int], above: list[int], below: list[int], allowed: Allowed
) -> int:
    """The smallest score difference of an allowed table across the cut (levels nearest the cut
    first, so the search stops early)."""
    best: int | None = None
    for a in reversed(above):
        if best is not None and units[a] - units[below[0]] >= best:
            break
        for b in below:
            gap = units[a] - units[b]
            if best is not None and gap >= best:
                break
            if allowed(a, b):
                best = gap
                break
    return 0 if best is None else best
