"""The order in which players are seated when each is his own entry (the individual format with
rotating partners, and the free-for-all): the standings after round 1, and in round 1 the seeds
or a lot. Pure: no database."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .types import Competitor


def players_in_order(players: Sequence[Competitor], round_number: int, first_round: str,
                     random_seed: int) -> tuple[list[Competitor], str]:  # fmt: skip
    """The players in pairing order and round 1's flag (``by_seed``/``by_lot``, else "").

    Round 1 by seed: the seeded first in seed order, then the rest by rank; by lot: shuffled by
    ``random.Random(random_seed)`` from the rank order, so the same input draws the same lot."""
    order = list(players)
    if len({p.id for p in order}) != len(order):
        raise ValueError("player ids must be unique")
    if round_number > 1:
        order.sort(key=lambda p: (p.rank, p.id))
        return order, ""
    if first_round == "seed":
        order.sort(key=lambda p: (p.seed is None, p.seed or 0, p.rank, p.id))
        return order, "by_seed"
    if first_round == "lot":
        order.sort(key=lambda p: (p.rank, p.id))
        random.Random(random_seed).shuffle(order)
        return order, "by_lot"
    raise ValueError(f"unknown first_round {first_round!r}: expected 'seed' or 'lot'")
