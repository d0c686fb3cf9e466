"""The individual format with rotating partners: four to a table, partners never repeated while it
can be avoided, byes shared fairly. Pure: no database."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import FLAGS, Competitor, IndividualOptions, RoundPairing, individual
from tournaments.pairing.simulate import field, play_round


def partnerships(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in partnerships(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def partnered(a: Competitor, b: Competitor) -> bool:
    return b.id in a.partners or a.id in b.partners


def check_round(players: list[Competitor], pairing: RoundPairing) -> None:
    by_id = {p.id: p for p in players}
    seen = [i for t in pairing.tables for i in (*t.ns, *t.ew)] + [b.id for b in pairing.byes]
    assert sorted(seen) == sorted(by_id), "everyone exactly once"
    assert len(pairing.byes) == len(players) % 4
    assert all(len(t.ns) == 2 and len(t.ew) == 2 for t in pairing.tables)
    fewest = sorted(p.byes for p in players)
    for bye in pairing.byes:
        # the byes go to the players with the fewest byes: nobody with fewer sits
        assert by_id[bye.id].byes <= fewest[len(pairing.byes) - 1]
    for table in pairing.tables:
        assert table.flags <= set(FLAGS)
        repeated = any(partnered(by_id[s[0]], by_id[s[1]]) for s in (table.ns, table.ew))
        assert ("partner_repeated" in table.flags) == repeated


@st.composite
def histories(draw: st.DrawFn) -> list[Competitor]:
    """Up to eleven players (eight seated at most) with some earlier partnerships."""
    size = draw(st.integers(4, 11))
    ids = list(range(1, size + 1))
    possible = [(a, b) for a in ids for b in ids if a < b]
    pairs = draw(st.lists(st.sampled_from(possible), unique=True, max_size=size * 2))
    partners: dict[int, set[int]] = {i: set() for i in ids}
    for a, b in pairs:
        partners[a].add(b)
        partners[b].add(a)
    byes = draw(st.lists(st.integers(0, 1), min_size=size, max_size=size))
    return [
        Competitor(id=i, rank=i, byes=byes[i - 1], partners=frozenset(partners[i])) for i in ids
    ]


@settings(max_examples=150, deadline=None)
@given(histories())
def test_partners_repeat_only_when_no_new_partnerships_exist(players: list[Competitor]) -> None:
    pairing = individual(players, IndividualOptions(round_number=3))
    check_round(players, pairing)
    by_id = {p.id: p for p in players}
    seated = sorted(i for t in pairing.tables for i in (*t.ns, *t.ew))
    fewest = min(
        sum(partnered(by_id[a], by_id[b]) for a, b in matching) for matching in partnerships(seated)
    )
    repeats = sum(partnered(by_id[s[0]], by_id[s[1]]) for t in pairing.tables for s in (t.ns, t.ew))
    assert repeats == fewest


@pytest.mark.parametrize(("size", "seed"), [(8, 1), (10, 2), (13, 3), (22, 4), (39, 5)])
def test_partners_are_never_repeated_over_a_simulated_tournament(size: int, seed: int) -> None:
    rng = random.Random(seed)
    players = field(size)
    rounds = 7 if size < 10 else 9  # eight players have exactly seven possible partners each
    for number in range(1, rounds + 1):
        pairing = individual(players, IndividualOptions(round_number=number))
        check_round(players, pairing)
        assert not any("partner_repeated" in t.flags for t in pairing.tables)
        players = play_round(players, pairing, rng)
    assert max(abs(p.ns_count - p.ew_count) for p in players) <= 2
    byes = [p.byes for p in players]
    assert max(byes) - min(byes) <= 1, "byes shared fairly"


def test_round_one_seats_blocks_of_four_one_and_three_against_two_and_four() -> None:
    pairing = individual(list(reversed(field(8))), IndividualOptions(round_number=1))
    assert [(set(t.ns), set(t.ew)) for t in pairing.tables] == [
        ({1, 3}, {2, 4}),
        ({6, 8}, {5, 7}),  # table 2: the better partnership sits EW, seats alternate by table
    ]
    assert all(t.flags == {"by_seed"} for t in pairing.tables)


def test_left_over_players_get_byes_fewest_byes_first_then_lowest_ranked() -> None:
    players = [replace(p, byes=1 if p.id in (9, 10) else 0) for p in field(10)]
    pairing = individual(players, IndividualOptions(round_number=4))
    assert sorted(b.id for b in pairing.byes) == [7, 8]
    assert all(b.flags == {"bye"} for b in pairing.byes)


def test_a_partner_repeat_that_cannot_be_avoided_is_flagged() -> None:
    players = [replace(p, partners=frozenset({1, 2, 3, 4} - {p.id})) for p in field(4)]
    pairing = individual(players, IndividualOptions(round_number=4))
    assert "partner_repeated" in pairing.tables[0].flags
    assert any("partner again" in note for note in pairing.notes)


def test_repeated_opponents_are_kept_apart_when_possible() -> None:
    # 1 met 2 and 4 before; the natural 1+3 v 2+4 would repeat both
    players = field(8)
    players[0] = replace(players[0], opponents=frozenset({2, 4}))
    players[1] = replace(players[1], opponents=frozenset({1}))
    players[3] = replace(players[3], opponents=frozenset({1}))
    pairing = individual(players, IndividualOptions(round_number=2))
    assert not any("rematch" in t.flags for t in pairing.tables)


def test_round_one_by_lot_is_deterministic_for_a_random_seed() -> None:
    players = field(16)
    options = IndividualOptions(round_number=1, first_round="lot", random_seed=3)
    assert individual(players, options) == individual(players, options)
    other = individual(players, replace(options, random_seed=4))
    assert other.tables != individual(players, options).tables
    assert all(t.flags == {"by_lot"} for t in other.tables)


def test_fewer_than_four_players_all_sit_out() -> None:
    pairing = individual(field(3), IndividualOptions(round_number=1))
    assert pairing.tables == ()
    assert sorted(b.id for b in pairing.byes) == [1, 2, 3]


def test_a_large_field_uses_the_pruned_graphs() -> None:
    rng = random.Random(9)
    players = field(243)
    for number in range(1, 4):
        pairing = individual(players, IndividualOptions(round_number=number, first_table=5))
        check_round(players, pairing)
        assert pairing.tables[0].number == 5
        assert not any("partner_repeated" in t.flags for t in pairing.tables)
        players = play_round(players, pairing, rng)
    assert Counter(p.byes for p in players)[1] == 9


def met(a: Competitor, b: Competitor) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def value(players: list[Competitor], pairing: RoundPairing) -> tuple[int, int, float]:
    """(repeated partnerships, repeated opponents, summed score spread) of a pairing."""
    by_id = {p.id: p for p in players}
    partners = opponents = 0
    spread = 0.0
    for table in pairing.tables:
        ns, ew = [by_id[i] for i in table.ns], [by_id[i] for i in table.ew]
        partners += partnered(*ns) + partnered(*ew)
        opponents += sum(met(x, y) for x in ns for y in ew)
        scores = [p.score for p in ns + ew]
        spread += max(scores) - min(scores)
    return partners, opponents, spread


def every_seating_value(players: list[Competitor], seated: list[int]) -> tuple[int, int, float]:
    """The best (partners, opponents, spread) of every seating of ``seated``, tried one by one."""
    by_id = {p.id: p for p in players}
    best: tuple[int, int, float] | None = None
    for matching in partnerships(seated):
        for tables in partnerships(list(range(len(matching)))):
            total = (0, 0, 0.0)
            for k, m in tables:
                ns, ew = [by_id[i] for i in matching[k]], [by_id[i] for i in matching[m]]
                scores = [p.score for p in ns + ew]
                total = (total[0] + partnered(*ns) + partnered(*ew),
                         total[1] + sum(met(x, y) for x in ns for y in ew),
                         total[2] + max(scores) - min(scores))  # fmt: skip
            best = total if best is None else min(best, total)
    assert best is not None
    return best


@st.composite
def rich_histories(draw: st.DrawFn) -> list[Competitor]:
    """Eight to eleven players with earlier partners, opponents and scores (seats untouched)."""
    size = draw(st.integers(8, 11))
    ids = list(range(1, size + 1))
    possible = [(a, b) for a in ids for b in ids if a < b]
    partners: dict[int, set[int]] = {i: set() for i in ids}
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    for a, b in draw(st.lists(st.sampled_from(possible), unique=True, max_size=size)):
        partners[a].add(b)
        partners[b].add(a)
    for a, b in draw(st.lists(st.sampled_from(possible), unique=True, max_size=size * 2)):
        opponents[a].add(b)
        opponents[b].add(a)
    scores = draw(st.lists(st.sampled_from([0.0, 2.0, 4.0, 6.0]), min_size=size, max_size=size))
    order = sorted(ids, key=lambda i: (-scores[i - 1], i))
    return [Competitor(id=i, rank=order.index(i) + 1, score=scores[i - 1],
                       partners=frozenset(partners[i]), opponents=frozenset(opponents[i]))
            for i in ids]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(rich_histories())
def test_small_fields_get_the_best_seating_of_all(players: list[Competitor]) -> None:
    pairing = individual(players, IndividualOptions(round_number=4))
    check_round(players, pairing)
    seated = sorted(i for t in pairing.tables for i in (*t.ns, *t.ew))
    assert value(players, pairing) == every_seating_value(players, seated)


# Round 2 of twelve players after round 1 by seed (1+3 v 2+4, 6+8 v 5+7, 9+11 v 10+12; the
# second partnership won at each table). The seating before this change chose partners first
# and set 9 against 1 again, with a spread of 2 points at all three tables, where a seating
# with no repeated opponent and a spread of 2 points in all exists.
ROUND_2_OF_12 = [
    Competitor(id=i, rank=rank, score=score, ns_count=ns, ew_count=1 - ns,
               last_seat="NS" if ns else "EW", partners=frozenset({partner}),
               opponents=frozenset(opponents))
    for rank, (i, score, ns, partner, opponents) in enumerate([
        (2, 2.0, 0, 4, {1, 3}), (4, 2.0, 0, 2, {1, 3}), (5, 2.0, 0, 7, {6, 8}),
        (7, 2.0, 0, 5, {6, 8}), (9, 2.0, 1, 11, {10, 12}), (11, 2.0, 1, 9, {10, 12}),
        (1, 0.0, 1, 3, {2, 4}), (3, 0.0, 1, 1, {2, 4}), (6, 0.0, 1, 8, {5, 7}),
        (8, 0.0, 1, 6, {5, 7}), (10, 0.0, 0, 12, {9, 11}), (12, 0.0, 0, 10, {9, 11}),
    ], start=1)
]  # fmt: skip


def test_round_two_repeats_no_opponent_when_a_seating_without_it_exists() -> None:
    pairing = individual(ROUND_2_OF_12, IndividualOptions(round_number=2))
    check_round(ROUND_2_OF_12, pairing)
    assert value(ROUND_2_OF_12, pairing) == (0, 0, 2.0)
    assert not any("rematch" in t.flags for t in pairing.tables)


def winners_of_round_one() -> list[Competitor]:
    """Eight players after round 1: 1+3 beat 2+4 and 6+8 beat 5+7."""
    first = individual(field(8), IndividualOptions(round_number=1))
    assert [(set(t.ns), set(t.ew)) for t in first.tables] == [({1, 3}, {2, 4}), ({6, 8}, {5, 7})]
    won = {1, 3, 6, 8}
    players = []
    for p in field(8):
        table = next(t for t in first.tables if p.id in (*t.ns, *t.ew))
        own, other = (table.ns, table.ew) if p.id in table.ns else (table.ew, table.ns)
        players.append(replace(p, score=2.0 if p.id in won else 0.0,
                               partners=frozenset(set(own) - {p.id}),
                               opponents=frozenset(other)))  # fmt: skip
    players.sort(key=lambda p: (-p.score, p.id))
    return [replace(p, rank=rank) for rank, p in enumerate(players, start=1)]


def test_the_federation_keeps_round_one_winning_partners_apart_in_round_two() -> None:
    players = winners_of_round_one()
    plain = individual(players, IndividualOptions(round_number=2))
    # by score alone the four winners sit together: 1 and 3 (or 6 and 8) face each other
    together = {frozenset((*t.ns, *t.ew)) for t in plain.tables}
    assert together == {frozenset({1, 3, 6, 8}), frozenset({2, 4, 5, 7})}
    federation = individual(players, IndividualOptions(round_number=2, federation=True))
    check_round(players, federation)
    for table in federation.tables:
        seated = {*table.ns, *table.ew}
        assert not {1, 3} <= seated and not {6, 8} <= seated
        assert "winners_met" not in table.flags


def test_the_federation_seats_the_last_round_in_blocks_of_four_one_and_three_against_two_and_four(
) -> None:
    # 1 met 2 and 4, 5 met 6 and 8 as opponents: the blocks would be avoided without the rule
    players = field(8)
    history = {1: {2, 4}, 2: {1}, 4: {1}, 5: {6, 8}, 6: {5}, 8: {5}}
    players = [replace(p, opponents=frozenset(history.get(p.id, set()))) for p in players]
    plain = individual(players, IndividualOptions(round_number=7))
    assert not any("rematch" in t.flags for t in plain.tables)
    last = individual(players, IndividualOptions(round_number=7, federation=True,
                                                 last_round=True))  # fmt: skip
    assert sorted((set(t.ns), set(t.ew)) in (({1, 3}, {2, 4}), ({2, 4}, {1, 3}),
                                             ({5, 7}, {6, 8}), ({6, 8}, {5, 7}))
                  for t in last.tables) == [True, True]  # fmt: skip
    assert all("last_round_block" in t.flags for t in last.tables)


def test_a_last_round_block_that_would_repeat_partners_is_moved_and_flagged() -> None:
    players = field(8)
    players[0] = replace(players[0], partners=frozenset({3}))
    players[2] = replace(players[2], partners=frozenset({1}))
    last = individual(players, IndividualOptions(round_number=7, federation=True,
                                                 last_round=True))  # fmt: skip
    check_round(players, last)
    assert not any("partner_repeated" in t.flags for t in last.tables)
    flags = {frozenset((*t.ns, *t.ew)): t.flags for t in last.tables}
    assert any("last_round_moved" in f for f in flags.values())
