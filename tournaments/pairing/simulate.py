"""Simulated tournaments for tests and benchmarks: random results folded into the next input.

``play_round`` takes the competitors a pairing was made for and the pairing, draws a random result
at every table and returns the competitors as the next round will see them: new scores, opponents,
partners, seats, byes and ranks (by score, then by the previous rank). It knows nothing of the
rules engine or the database; scores are match points (win, draw, loss) and a bye scores a win.
At a free-for-all table (``Table.seated``) the players finish in a random order and score by
place, ``PLACE_POINTS`` at four and evenly spaced from it at three (3, 1.5, 0); a bye scores as
first place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from .types import Competitor, RoundPairing

WIN, DRAW, LOSS = 2.0, 1.0, 0.0
#: free-for-all: the points of first, second, third and fourth place at a table of four
PLACE_POINTS = (3.0, 2.0, 1.0, 0.0)


def field(size: int, clubs: int = 0, rng: random.Random | None = None) -> list[Competitor]:
    """``size`` fresh competitors with ids 1…size, seeded and ranked in id order; with ``clubs``,
    each belongs to a random club 1…clubs."""
    draw = rng or random.Random(0)
    return [
        Competitor(id=i, rank=i, seed=i, club=draw.randint(1, clubs) if clubs else None)
        for i in range(1, size + 1)
    ]


def play_round(
    competitors: Sequence[Competitor], pairing: RoundPairing, rng: random.Random, draws: float = 0.1
) -> list[Competitor]:
    """The competitors after playing ``pairing`` with random results (``draws`` is the chance of a
    draw). Every table's sides are tuples of ids: one id for pairs, two partners for individuals;
    a free-for-all table has its players in ``seated`` instead."""
    gained: dict[int, float] = {}
    met: dict[int, set[int]] = {}
    partnered: dict[int, set[int]] = {}
    seat: dict[int, str] = {}
    for table in pairing.tables:
        if table.seated:
            _place(table.seated, rng, gained, met)
            continue
        roll = rng.random()
        ns_points, ew_points = (
            (DRAW, DRAW) if roll < draws else (WIN, LOSS) if roll < (1 + draws) / 2 else (LOSS, WIN)
        )
        for side, other, points, name in (
            (table.ns, table.ew, ns_points, "NS"),
            (table.ew, table.ns, ew_points, "EW"),
        ):
            for member in side:
                gained[member] = points
                met[member] = set(other)
                partnered[member] = {p for p in side if p != member}
                seat[member] = name
    byes = {b.id for b in pairing.byes}
    free_for_all = any(t.seated for t in pairing.tables)
    for member in byes:
        gained[member] = PLACE_POINTS[0] if free_for_all else WIN
    updated: list[Competitor] = []
    for c in competitors:
        if c.id not in gained:
            updated.append(c)
            continue
        updated.append(
            replace(
                c,
                score=c.score + gained[c.id],
                byes=c.byes + (c.id in byes),
                ns_count=c.ns_count + (seat.get(c.id) == "NS"),
                ew_count=c.ew_count + (seat.get(c.id) == "EW"),
                last_seat=seat.get(c.id, c.last_seat),
                opponents=c.opponents | met.get(c.id, set()),
                partners=c.partners | partnered.get(c.id, set()),
            )
        )
    updated.sort(key=lambda c: (-c.score, c.rank, c.id))
    return [replace(c, rank=rank) for rank, c in enumerate(updated, start=1)]


def _place(
    seated: tuple[int, ...],
    rng: random.Random,
    gained: dict[int, float],
    met: dict[int, set[int]],
) -> None:
    """A random finishing order at a free-for-all table, scored by place."""
    finish = list(seated)
    rng.shuffle(finish)
    top, last = PLACE_POINTS[0], PLACE_POINTS[-1]
    step = (top - last) / (len(finish) - 1)
    for place, member in enumerate(finish):
        gained[member] = PLACE_POINTS[place] if len(finish) == 4 else top - place * step
        met[member] = set(seated) - {member}
