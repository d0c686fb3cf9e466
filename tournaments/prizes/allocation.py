"""Who wins which prize: plain data in, plain data out (no Django, no database).

    allocate(overall, lists, prizes, priority, ties) -> Allocation

Each entry wins one prize at most, the one of more value (Swiss-Manager's and Sharly Chess's
rule). The prizes are handed out from the most valuable down: each list (the overall standings,
or one category's) gives its prizes in the order of their places, and the next prize handed out
is the most valuable of the lists' next ones; it goes to the best placed entry of its list that
has no prize yet. Of two prizes of equal value the organiser's ``priority`` decides: the overall
one first, or the category one first (between two categories, the order they are listed in).
So a woman second overall and first among women takes whichever of the two is worth more, and
the other goes to the next entry of its list.

Shared places (``ties`` = "split", as Sharly Chess does, for the overall list only): the entries
of the overall standings level on their score (the tie-breaks ignored) pool the overall prizes
they won and share them equally with those of them who won nothing else; a share is rounded
down to the cent. A cup is not cut: its text stays with the entry the tie-breaks put first.
With "tiebreak" the standings' order (tie-breaks in force) decides every place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Place:
    """A line of a standings list: the entry, its rank, its score (ties are on the score)."""

    entry: int
    rank: int
    score: float = 0


@dataclass(frozen=True)
class PrizeSpec:
    id: int
    category: int | None  # None: the overall list
    place: int
    amount: Decimal


@dataclass
class Award:
    """What one entry receives: a prize (None for a share of a pool it won no prize of), the
    money it gets, and the entries it shares with (empty: not shared)."""

    entry: int
    prize: PrizeSpec | None
    amount: Decimal
    shared_with: tuple[int, ...] = ()


@dataclass
class Allocation:
    awards: list[Award] = field(default_factory=list)
    unawarded: list[PrizeSpec] = field(default_factory=list)  # no entry left in its list

    def of_entry(self) -> dict[int, Award]:
        return {award.entry: award for award in self.awards}

    def of_prize(self) -> dict[int, Award]:
        return {a.prize.id: a for a in self.awards if a.prize is not None}


def category_places(overall: Sequence[Place], members: set[int] | frozenset[int]) -> list[Place]:
    """The overall lines of ``members``, ranked again among themselves: an entry's rank is one
    more than the members placed strictly better overall (a tie stays a tie)."""
    chosen = [p for p in overall if p.entry in members]
    out = []
    for index, place in enumerate(chosen):
        rank = index + 1
        if index and chosen[index - 1].rank == place.rank:
            rank = out[-1].rank
        out.append(Place(place.entry, rank, place.score))
    return out


def allocate(overall: Sequence[Place], lists: Mapping[int, Sequence[Place]],
             prizes: Sequence[PrizeSpec], priority: str = "overall",
             ties: str = "tiebreak") -> Allocation:  # fmt: skip
    """Hand out ``prizes`` (see the module's docstring). ``lists`` are the categories' standings
    in the order the categories are listed; a prize of a category not in ``lists`` goes to
    nobody."""
    standings: dict[int | None, Sequence[Place]] = {None: overall, **lists}
    order = {None: -1, **{key: i for i, key in enumerate(lists)}}
    queues: dict[int | None, list[PrizeSpec]] = {}
    for prize in sorted(prizes, key=lambda p: p.place):
        queues.setdefault(prize.category, []).append(prize)

    def urgency(prize: PrizeSpec) -> tuple[Decimal, int, int]:
        overall_first = priority != "category"
        kind = 0 if (prize.category is None) == overall_first else 1
        # the most valuable first; at equal value the preferred kind, then the lists' order
        return (-prize.amount, kind, order.get(prize.category, len(order)))

    result = Allocation()
    won: dict[int, Award] = {}
    while queues:
        key = min(queues, key=lambda k: urgency(queues[k][0]))
        prize = queues[key].pop(0)
        if not queues[key]:
            del queues[key]
        winner = next((p.entry for p in standings.get(key, ()) if p.entry not in won), None)
        if winner is None:
            result.unawarded.append(prize)
            continue
        won[winner] = Award(winner, prize, prize.amount)
    if ties == "split":
        _split(overall, won)
    result.awards = sorted(won.values(), key=_award_order)
    return result


def _award_order(award: Award) -> tuple[int, int, int, int]:
    prize = award.prize
    if prize is None:
        return (0, 0, 10**6, award.entry)
    return (0 if prize.category is None else 1, prize.category or 0, prize.place, award.entry)


def _split(overall: Sequence[Place], won: dict[int, Award]) -> None:
    """Entries level on score share the overall prizes they won with those of them who won
    nothing (``won`` is changed in place)."""
    groups: dict[float, list[int]] = {}
    for place in overall:
        groups.setdefault(place.score, []).append(place.entry)
    for entries in groups.values():
        if len(entries) < 2:
            continue
        pooled = [won[e] for e in entries
                  if e in won and won[e].prize is not None
                  and won[e].prize.category is None]  # type: ignore[union-attr]  # fmt: skip
        if not pooled:
            continue
        sharers = tuple(e for e in entries if e not in won or won[e] in pooled)
        if len(sharers) < 2:
            continue
        total = sum((a.amount for a in pooled), Decimal(0))
        share = (total / len(sharers)).quantize(CENT, rounding=ROUND_DOWN)
        for entry in sharers:
            award = won.get(entry) or Award(entry, None, Decimal(0))
            award.amount = share
            award.shared_with = sharers
            won[entry] = award
