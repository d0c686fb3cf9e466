"""The individual format with rotating partners: four players to a table, partners drawn each round.

Players are ranked by standings (round 1: by seed or by lot). One to three left-over players sit
out with a bye: the fewest byes first, the lowest ranked among them. The others are seated by
``seating``, which chooses partners and opponents together. Among all seatings of the round the
one sought is the best by these tiers, each strictly outranking everything below it:

    1. partners     the fewest repeated partnerships (none whenever that is possible)
    2. winners      with the federation's practice, in round 2: round 1's winning partners do
                    not face each other
    3. block        with the federation's practice, in the last round: 1+3 against 2+4 within
                    blocks of four of the standings
    4. seat cap     nobody's NS and EW counts more than two apart
    5. opponents    the fewest pairs of opponents who were opponents before
    6. spread       the smallest sum over tables of the score spread (highest match points minus
                    lowest at the table)
    7. seats        NS/EW imbalance, or a repeated seat, that the better seating still leaves
    8. order        tables close to blocks of four of the standings seated 1+3 against 2+4 (so
                    round 1 by seed seats exactly that)

Up to 12 players every seating is tried: all tiers are exact. Larger fields: tier 1 is exact
(a matching), tiers 2–8 are reached by local search from a good start, which stops only when no
re-seating of any two tables improves them and random re-seatings no longer help. Pure: no
database.
"""

from __future__ import annotations

from collections.abc import Sequence

from .order import players_in_order
from .seating import Costs, Seating, seat
from .seats import EW, NS, first_takes_ns, repeats_seat, seat_cost
from .swiss import score_units
from .types import Bye, Competitor, IndividualOptions, RoundPairing, Table


def individual(players: Sequence[Competitor], options: IndividualOptions) -> RoundPairing:
    """Seat one round of the individual format."""
    order, lead_flag = players_in_order(players, options.round_number, options.first_round,
                                         options.random_seed)
    sitting_out = _bye_players(order)
    seated = [p for i, p in enumerate(order) if i not in sitting_out]
    federation = options.federation and options.round_number > 1
    costs = Costs(
        seated, score_units([p.score for p in seated]),
        winners_apart=federation and options.round_number == 2,
        blocks=federation and options.last_round,
    )  # fmt: skip
    seating, note = seat(costs, options.random_seed)
    notes: list[str] = [note] if note else []
    seating.sort(key=lambda t: min(*t[0], *t[1]))  # the leaders' table first
    tables = [
        _table(seated, costs, one, options.first_table + index, index, lead_flag, notes)
        for index, one in enumerate(seating)
    ]
    byes = tuple(Bye(order[i].id) for i in sorted(sitting_out))
    for i in sorted(sitting_out):
        notes.append(f"Bye: {order[i].id} (rank {order[i].rank}, {order[i].byes} earlier byes)")
    return RoundPairing(tables=tuple(tables), byes=byes, notes=tuple(notes))


def _bye_players(order: list[Competitor]) -> set[int]:
    """Indices of the players who sit out: fewest byes first, then the lowest ranked."""
    left_over = len(order) % 4
    by_claim = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
    return set(by_claim[:left_over])


def _table(
    seated: list[Competitor],
    costs: Costs,
    seating: Seating,
    number: int,
    index: int,
    lead_flag: str,
    notes: list[str],
) -> Table:
    first, second = seating
    if min(second) < min(first):  # the side with the better-ranked player first
        first, second = second, first
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
    faced = [(x, y) for x in first for y in second if y in costs.winners[x]]
    if faced:
        flags.add("winners_met")
    if costs.blocks:
        w, x, y, z = sorted((*first, *second))
        block = w % 4 == 0 and z == w + 3 and {first, second} == {(w, y), (x, z)}
        flags.add("last_round_block" if block else "last_round_moved")
    if any(repeats_seat(p, NS) for p in ns) or any(repeats_seat(p, EW) for p in ew):
        flags.add("seat_repeated")
    return Table(
        number=number,
        ns=(ns[0].id, ns[1].id),
        ew=(ew[0].id, ew[1].id),
        flags=frozenset(flags),
    )
