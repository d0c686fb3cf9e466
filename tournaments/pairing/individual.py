"""The individual format with rotating partners: four players to a table, partners drawn each round.

Players are ranked by standings (round 1: by seed or by lot) and seated in blocks of four as
federation events do: in each block 1+3 play 2+4. Two matchings settle it:

1. Partnerships. Every two players may partner, costed in tiers: a repeated partnership (only in
   the last-resort graph; otherwise a missing edge), then the distance from the block ideal (1 with
   3, 2 with 4) plus the seat cost of partners due different sides. A perfect matching without
   repeated partners exists exactly when the partners can all be new, so the matcher finds one
   whenever there is one.
2. Tables. Partnerships are paired, costed by repeated opponents first, then by how far apart the
   partnerships stand (which brings 1+3 against 2+4 when nothing is in the way) plus the seat cost
   of the better seating.

Seats and rank distance share a tier on purpose: a repeated seat weighs as much as moving a
partner ``SEAT_WEIGHT`` places away, so seats stay balanced without scattering the blocks.

One to three left-over players sit out with a bye: the fewest byes first, the lowest ranked among
them. Pure: no database.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .matching import Tiers, max_weight_matching
from .seats import EW, MAX_SEAT_COST, NS, first_takes_ns, repeats_seat, seat_cost
from .types import Bye, Competitor, IndividualOptions, RoundPairing, Table

#: fields up to this many players go straight to the complete graphs
FULL_GRAPH_LIMIT = 200
#: pruned graphs: each player's candidates within this many places either side
PRUNED_WIDTHS = (8, 32)
ORDER_CAP = 256
SEAT_WEIGHT = 6


def individual(players: Sequence[Competitor], options: IndividualOptions) -> RoundPairing:
    """Seat one round of the individual format."""
    order, lead_flag = _pairing_order(players, options)
    sitting_out = _bye_players(order)
    seated = [p for i, p in enumerate(order) if i not in sitting_out]
    notes: list[str] = []
    partnerships, partners_note = _partnerships(seated)
    if partners_note:
        notes.append(partners_note)
    matches = _tables(seated, partnerships)
    tables = [
        _table(seated, first, second, options.first_table + index, index, lead_flag, notes)
        for index, (first, second) in enumerate(matches)
    ]
    byes = tuple(Bye(order[i].id) for i in sorted(sitting_out))
    for i in sorted(sitting_out):
        notes.append(f"Bye: {order[i].id} (rank {order[i].rank}, {order[i].byes} earlier byes)")
    return RoundPairing(tables=tuple(tables), byes=byes, notes=tuple(notes))


def _pairing_order(
    players: Sequence[Competitor], options: IndividualOptions
) -> tuple[list[Competitor], str]:
    order = list(players)
    if len({p.id for p in order}) != len(order):
        raise ValueError("player ids must be unique")
    if options.round_number > 1:
        order.sort(key=lambda p: (p.rank, p.id))
        return order, ""
    if options.first_round == "seed":
        order.sort(key=lambda p: (p.seed is None, p.seed or 0, p.rank, p.id))
        return order, "by_seed"
    if options.first_round == "lot":
        order.sort(key=lambda p: (p.rank, p.id))
        random.Random(options.random_seed).shuffle(order)
        return order, "by_lot"
    raise ValueError(f"unknown first_round {options.first_round!r}: expected 'seed' or 'lot'")


def _bye_players(order: list[Competitor]) -> set[int]:
    """Indices of the players who sit out: fewest byes first, then the lowest ranked."""
    left_over = len(order) % 4
    by_claim = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
    return set(by_claim[:left_over])


def _partnerships(seated: list[Competitor]) -> tuple[list[tuple[int, int]], str]:
    n = len(seated)
    if n == 0:
        return [], ""
    if n > FULL_GRAPH_LIMIT:
        for width in PRUNED_WIDTHS:
            pairs = ((i, j) for i in range(n) for j in range(i + 1, min(n, i + width + 1)))
            mates = max_weight_matching(n, _partner_edges(seated, pairs, repeats=False))
            if len(mates) == n:
                return _pairs_of(mates), ""
    pairs = ((i, j) for i in range(n) for j in range(i + 1, n))
    mates = max_weight_matching(n, _partner_edges(seated, pairs, repeats=True))
    note = "" if n <= FULL_GRAPH_LIMIT else "the pruned partner graphs had no complete pairing"
    return _pairs_of(mates), note


def _partner_edges(
    seated: list[Competitor], pairs: Iterable[tuple[int, int]], repeats: bool
) -> list[tuple[int, int, int]]:
    tiers = Tiers((1, 2 * ORDER_CAP + SEAT_WEIGHT * 2 * MAX_SEAT_COST), len(seated) // 2)
    m_repeat, m_order = tiers.multipliers
    own = [min(seat_cost(p, NS), seat_cost(p, EW)) for p in seated]
    edges: list[tuple[int, int, int]] = []
    for i, j in pairs:
        a, b = seated[i], seated[j]
        penalty = 0
        if b.id in a.partners or a.id in b.partners:
            if not repeats:
                continue
            penalty += m_repeat
        # the block ideal: 1 with 3 and 2 with 4, i.e. the index with bit 1 flipped
        order = min(abs(j - (i ^ 2)) + abs(i - (j ^ 2)), 2 * ORDER_CAP)
        # partners sit on one side: what that costs beyond each one's own better side
        together = min(seat_cost(a, NS) + seat_cost(b, NS), seat_cost(a, EW) + seat_cost(b, EW))
        order += SEAT_WEIGHT * (together - own[i] - own[j])
        edges.append((i, j, tiers.base - penalty - order * m_order))
    return edges


def _pairs_of(mates: dict[int, int]) -> list[tuple[int, int]]:
    return sorted((i, j) for i, j in mates.items() if i < j)


def _tables(
    seated: list[Competitor], partnerships: list[tuple[int, int]]
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Partnerships paired into tables, the better partnership first, leaders' table first."""
    sides = sorted(partnerships, key=lambda p: (p[0] + p[1], p[0]))
    count = len(sides)
    if count <= FULL_GRAPH_LIMIT // 2:
        pairs: Iterable[tuple[int, int]] = (
            (k, m) for k in range(count) for m in range(k + 1, count)
        )
    else:  # consecutive sides are always candidates, so the matching is always complete
        width = PRUNED_WIDTHS[0]
        pairs = ((k, m) for k in range(count) for m in range(k + 1, min(count, k + width + 1)))
    tiers = Tiers((4, 4 * ORDER_CAP + SEAT_WEIGHT * 4 * MAX_SEAT_COST), count // 2)
    m_repeat, m_order = tiers.multipliers
    side_cost = [
        {seat: sum(seat_cost(seated[i], seat) for i in side) for seat in (NS, EW)} for side in sides
    ]
    edges: list[tuple[int, int, int]] = []
    for k, m in pairs:
        repeats = sum(
            seated[y].id in seated[x].opponents or seated[x].id in seated[y].opponents
            for x in sides[k]
            for y in sides[m]
        )
        distance = min(abs(sum(sides[k]) - sum(sides[m])), 4 * ORDER_CAP)
        seats = min(side_cost[k][NS] + side_cost[m][EW], side_cost[k][EW] + side_cost[m][NS])
        penalty = repeats * m_repeat + (distance + SEAT_WEIGHT * seats) * m_order
        edges.append((k, m, tiers.base - penalty))
    mates = max_weight_matching(count, edges)
    if len(mates) != count:  # pragma: no cover - consecutive sides are always candidates
        raise RuntimeError("partnerships could not all be paired")
    return [(sides[k], sides[m]) for k, m in _pairs_of(mates)]


def _table(
    seated: list[Competitor],
    first: tuple[int, int],
    second: tuple[int, int],
    number: int,
    index: int,
    lead_flag: str,
    notes: list[str],
) -> Table:
    one = [seated[i] for i in first]
    two = [seated[i] for i in second]
    cost_one_ns = sum(seat_cost(p, NS) for p in one) + sum(seat_cost(p, EW) for p in two)
    cost_two_ns = sum(seat_cost(p, EW) for p in one) + sum(seat_cost(p, NS) for p in two)
    ns, ew = (one, two) if first_takes_ns(cost_one_ns, cost_two_ns, index) else (two, one)
    flags: set[str] = {lead_flag} if lead_flag else set()
    for side in (ns, ew):
        if side[1].id in side[0].partners or side[0].id in side[1].partners:
            flags.add("partner_repeated")
            notes.append(f"Table {number}: {side[0].id} and {side[1].id} partner again")
    met = [(x, y) for x in ns for y in ew if y.id in x.opponents or x.id in y.opponents]
    if met:
        flags.add("rematch")
        pairs = ", ".join(f"{x.id}–{y.id}" for x, y in met)
        notes.append(f"Table {number}: opponents again: {pairs}")
    if any(repeats_seat(p, NS) for p in ns) or any(repeats_seat(p, EW) for p in ew):
        flags.add("seat_repeated")
    return Table(
        number=number,
        ns=(ns[0].id, ns[1].id),
        ew=(ew[0].id, ew[1].id),
        flags=frozenset(flags),
    )
