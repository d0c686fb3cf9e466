"""NS/EW seat balance: what sitting on a side costs a competitor, and which side gets NS.

A competitor is due the side it has sat on less; with both sides equal, the side it did not sit on
last time. The cost grows steeply once the imbalance would pass one, so the matching balances seats
before it merely alternates them. Pure functions, no database.
"""

from __future__ import annotations

from .types import Competitor

NS = "NS"
EW = "EW"
#: the cost of one step of imbalance beyond one, and the cap on counted steps
IMBALANCE_STEP = 4
IMBALANCE_CAP = 5
#: the largest cost one competitor can carry for one seat
MAX_SEAT_COST = IMBALANCE_STEP * IMBALANCE_CAP + 1


def seat_cost(competitor: Competitor, seat: str) -> int:
    balance = competitor.ns_count - competitor.ew_count + (1 if seat == NS else -1)
    cost = IMBALANCE_STEP * min(max(0, abs(balance) - 1), IMBALANCE_CAP)
    if seat == competitor.last_seat:
        cost += 1
    return cost


def pair_seat_cost(a: Competitor, b: Competitor) -> int:
    """The seat cost of a table of ``a`` and ``b`` with the better of the two seatings."""
    return min(seat_cost(a, NS) + seat_cost(b, EW), seat_cost(a, EW) + seat_cost(b, NS))


def first_takes_ns(cost_first_ns: int, cost_second_ns: int, table_index: int) -> bool:
    """Whether the first (better-ranked) side sits NS. A tie alternates by table, as the first
    round does: the better side is NS on tables 1, 3, 5… and EW on tables 2, 4, 6…"""
    if cost_first_ns != cost_second_ns:
        return cost_first_ns < cost_second_ns
    return table_index % 2 == 0


def repeats_seat(competitor: Competitor, seat: str) -> bool:
    return competitor.last_seat == seat
