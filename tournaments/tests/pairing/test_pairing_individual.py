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
