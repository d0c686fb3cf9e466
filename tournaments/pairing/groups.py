"""Groups: entries split by snake seeding, a round robin (Berger tables) inside each group.
Pure: plain ids in, plain data out.

    snake(ids, groups) -> [[...], ...]     best first: 1 2 3 | 6 5 4 | 7 8 9 …  (A B C C B A …)
    group_rounds(members) -> int           how many rounds the largest group needs
    groups_round(members, number) -> RoundPairing   round ``number`` of every group's Berger
                                           schedule, the tables numbered group after group
    cross_seeds(ranked_groups, per_group) -> [ids]  the groups' best K as a knock-out's seeds:
                                           every group's winner first (in the order given),
                                           then every runner-up, …
"""

from __future__ import annotations

from collections.abc import Sequence

from .round_robin import round_robin_round
from .types import Bye, RoundPairing, Table


def snake(ids: Sequence[int], groups: int) -> list[list[int]]:
    """``ids`` in seeding order dealt to ``groups`` groups there and back again."""
    if groups < 1:
        raise ValueError("at least one group")
    if len(ids) < 2 * groups:
        raise ValueError(f"{len(ids)} entries cannot make {groups} groups of two or more")
    out: list[list[int]] = [[] for _ in range(groups)]
    for position, entry in enumerate(ids):
        lap, place = divmod(position, groups)
        out[place if lap % 2 == 0 else groups - 1 - place].append(entry)
    return out


def group_rounds(members: Sequence[Sequence[int]]) -> int:
    """A group of n plays n-1 rounds (n when n is odd: each sits out once)."""
    return max(len(g) - 1 + len(g) % 2 for g in members)


def groups_round(members: Sequence[Sequence[int]], number: int) -> RoundPairing:
    """Round ``number`` in every group; a smaller group that has played all its rounds rests."""
    tables: list[Table] = []
    byes: list[Bye] = []
    notes: list[str] = []
    for index, group in enumerate(members, 1):
        if number > group_rounds([group]):
            continue
        part = round_robin_round(list(group), number, first_table=len(tables) + 1)
        tables += [Table(t.number, t.ns, t.ew, frozenset({*t.flags, "group"})) for t in part.tables]
        byes += part.byes
        notes += [f"Group {index}: " + note for note in part.notes]
    return RoundPairing(tables=tuple(tables), byes=tuple(byes), notes=tuple(notes))


def cross_seeds(ranked_groups: Sequence[Sequence[int]], per_group: int) -> list[int]:
    """The best ``per_group`` of each group (each group ranked best first), winners first."""
    return [group[place] for place in range(per_group) for group in ranked_groups
            if place < len(group)]  # fmt: skip
