"""The Swiss system for fixed pairs (and for teams as entries): the exact optimum of one objective.

Entries are put in pairing order (round 1: by seed or by lot; later: by score, then standings) and
split into score groups. Scores are match points; a table's score difference is the difference of
its two sides' match points. Among all pairings of the round, the one chosen is the best by these
tiers, each strictly outranking everything below it:

    1. rematch      the fewest tables whose sides met before (none whenever that is possible)
    2. bye          an odd field's bye to the lowest entry, in pairing order, among those with
                    the fewest byes so far (nobody gets a second bye while others have none)
    3. clubs        strict club avoidance only: the fewest same-club tables
    4. worst table  the smallest largest score difference at one table
    5. total        the smallest sum of the score differences of all tables
    6. clubs        avoidance among equals only (the default): the fewest same-club tables
    7. seats        NS/EW imbalance, or a repeated seat, that the better seating still leaves
    8. order        within a group the top half meets the bottom half (1 v h+1, 2 v h+2…); a
                    float takes the last of the upper group and the first of the lower

With club avoidance off, tiers 3 and 6 are left out. The options say which club mode applies to
this round (the tournament may be strict in its first rounds only). ``swiss_solver`` encodes the
tiers as integer weights with proven bounds and settles the worst table by stages; ``bounds``
proves optimality where a large field is first paired on a pruned candidate graph. Tiers 1 to 6
are optimal at every field size; 7 and 8 are optimal on the complete graph (fields up to
``swiss_solver.FULL_GRAPH_LIMIT``) and nearly so on the pruned one.

Every table carries flags (``types.FLAGS``) saying why it came out as it did. Pure: no database.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from math import lcm

from .seats import EW, NS, first_takes_ns, repeats_seat, seat_cost
from .swiss_solver import AMONG_EQUALS, OFF, STRICT, Field, met, same_club, solve
from .types import Bye, Competitor, RoundPairing, SwissOptions, Table

#: the flag of a table whose sides are of one club, by the club mode of the round
CLUB_FLAGS = {STRICT: "same_club", AMONG_EQUALS: "same_club_kept", OFF: "same_club_allowed"}


def swiss(competitors: Sequence[Competitor], options: SwissOptions) -> RoundPairing:
    """Pair one Swiss round. Entries in ``options.ids_excluded`` are left out entirely.

    An accelerated round (``options.virtual_points``) pairs by the pairing score: each entry's
    score plus its virtual points (``acceleration``); round 1 then has score groups too, each
    in seed (or lot) order."""
    virtual = {i: v for i, v in options.virtual_points.items() if v}
    competitors = [replace(c, score=c.score + virtual[c.id]) if c.id in virtual else c
                   for c in competitors]  # fmt: skip
    entries, lead_flag = _pairing_order(competitors, options)
    if not entries:
        return RoundPairing(tables=())
    field = make_field(entries, by_score=options.round_number > 1 or bool(virtual))
    solution = solve(field, options.clubs)
    notes = [solution.note] if solution.note else []
    given = [e for e in entries if e.id in virtual]
    if given:
        # one amount for everyone in a round; read back by ``rounds.notes`` in words
        notes.insert(0, f"Accelerated (Baku): {len(given)} entries of group A have "
                        f"{virtual[given[0].id]:g} virtual points")
    return _result(field, solution.mates, options, lead_flag, notes)


def _pairing_order(
    competitors: Sequence[Competitor], options: SwissOptions
) -> tuple[list[Competitor], str]:
    entries = [c for c in competitors if c.id not in options.ids_excluded]
    if len({c.id for c in entries}) != len(entries):
        raise ValueError("competitor ids must be unique")
    if options.round_number > 1:
        entries.sort(key=lambda c: (-c.score, c.rank, c.id))
        return entries, ""
    if options.first_round == "seed":
        # accelerated: group A (the higher pairing score) first, each group in seed order
        entries.sort(key=lambda c: (-c.score if options.virtual_points else 0, c.seed is None,
                                    c.seed or 0, c.rank, c.id))  # fmt: skip
        return entries, "by_seed"
    if options.first_round == "lot":
        entries.sort(key=lambda c: (c.rank, c.id))
        random.Random(options.random_seed).shuffle(entries)
        if options.virtual_points:  # accelerated: the lot inside each score group
            entries.sort(key=lambda c: -c.score)
        return entries, "by_lot"
    raise ValueError(f"unknown first_round {options.first_round!r}: expected 'seed' or 'lot'")


def score_units(scores: Sequence[float]) -> list[int]:
    """Scores as integers in one common unit (match points are whole; halves and the like are
    scaled up exactly), so that differences add up without rounding."""
    fractions = [Fraction(s).limit_denominator(10**6) for s in scores]
    scale = lcm(*(f.denominator for f in fractions)) if fractions else 1
    return [int(f * scale) for f in fractions]


def make_field(entries: list[Competitor], by_score: bool) -> Field:
    """Entries (in pairing order) with their score units, groups and ideal opponents."""
    group: list[int] = []
    start: list[int] = []
    end: list[int] = []
    for index, entry in enumerate(entries):
        if not start or (by_score and entry.score != entries[index - 1].score):
            if start:
                end.append(index)
            start.append(index)
        group.append(len(start) - 1)
    end.append(len(entries))
    ideal: list[int] = []
    for index in range(len(entries)):
        first, past = start[group[index]], end[group[index]]
        half = (past - first) // 2
        position = index - first
        ideal.append(first + (position + half if position < half else position - half))
    units = score_units([e.score for e in entries])
    return Field(entries, units, group, start, end, ideal)


def _result(
    field: Field, mates: dict[int, int], options: SwissOptions, lead_flag: str, notes: list[str]
) -> RoundPairing:
    entries = field.entries
    n = len(entries)
    pairs = sorted((i, j) for i, j in mates.items() if i < j < n)
    tables: list[Table] = []
    for index, (i, j) in enumerate(pairs):
        a, b = entries[i], entries[j]
        number = options.first_table + index
        a_ns = first_takes_ns(
            seat_cost(a, NS) + seat_cost(b, EW), seat_cost(a, EW) + seat_cost(b, NS), index
        )
        ns, ew = (a, b) if a_ns else (b, a)
        flags = _table_flags(field, i, j, options.clubs, lead_flag, number, notes)
        if repeats_seat(ns, NS) or repeats_seat(ew, EW):
            flags.add("seat_repeated")
        tables.append(Table(number=number, ns=(ns.id,), ew=(ew.id,), flags=frozenset(flags)))
    byes: list[Bye] = []
    for i, mate in sorted(mates.items()):
        if mate == n:
            bye = entries[i]
            byes.append(Bye(bye.id))
            notes.append(f"Bye: {bye.id} (rank {bye.rank}, {bye.byes} earlier byes)")
    return RoundPairing(tables=tuple(tables), byes=tuple(byes), notes=tuple(notes))


def _table_flags(
    field: Field, i: int, j: int, clubs: str, lead_flag: str, number: int, notes: list[str]
) -> set[str]:
    a, b = field.entries[i], field.entries[j]
    flags: set[str] = {lead_flag} if lead_flag else set()
    if field.group[i] != field.group[j]:
        flags.update(("float_down", "float_up"))
        notes.append(f"Table {number}: {a.id} ({a.score:g}) floats down to {b.id} ({b.score:g})")
    if met(a, b):
        flags.add("rematch")
        notes.append(f"Table {number}: {a.id} and {b.id} meet again: no rematch-free pairing")
    for player, opponent in ((i, j), (j, i)):
        natural = field.ideal[player]
        natural_id = field.entries[natural].id
        if natural not in (player, opponent) and natural_id in field.entries[player].opponents:
            flags.add("rematch_avoided")
            notes.append(
                f"Table {number}: {field.entries[player].id} already met {natural_id}, "
                "its natural opponent"
            )
    if same_club(a, b):
        flags.add(CLUB_FLAGS[clubs])
        notes.append(f"Table {number}: {a.id} and {b.id} are both of club {a.club}")
    return flags
