"""The Swiss pairing for fixed pairs: properties decided by brute force on small fields, and the
behaviour over simulated tournaments. Pure: no database."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import FLAGS, Competitor, RoundPairing, SwissOptions, swiss
from tournaments.pairing.simulate import field, play_round

# the module that holds the graph limits
solver = importlib.import_module("tournaments.pairing.swiss_solver")


def perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def met(a: Competitor, b: Competitor) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def fewest_rematches(entries: list[Competitor]) -> int:
    """The fewest rematches of any pairing that gives the bye (if any) to a fewest-byes entry."""
    by_id = {e.id: e for e in entries}
    ids = sorted(by_id)
    fewest_byes = min(e.byes for e in entries)
    best = len(ids)
    bye_choices: list[int | None] = (
        [i for i in ids if by_id[i].byes == fewest_byes] if len(ids) % 2 else [None]
    )
    for bye in bye_choices:
        rest = [i for i in ids if i != bye]
        for matching in perfect_matchings(rest):
            best = min(best, sum(met(by_id[a], by_id[b]) for a, b in matching))
            if best == 0:
                return 0
    return best


@st.composite
def histories(draw: st.DrawFn, max_size: int = 10) -> tuple[list[Competitor], int]:
    """A small field after a few rounds: scores, symmetric opponents, byes, seats, clubs."""
    size = draw(st.integers(2, max_size))
    ids = list(range(1, size + 1))
    possible = [(a, b) for a in ids for b in ids if a < b]
    games = draw(st.lists(st.sampled_from(possible), unique=True, max_size=size * 3))
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    for a, b in games:
        opponents[a].add(b)
        opponents[b].add(a)
    scores = draw(
        st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 6.0]), min_size=size, max_size=size)
    )
    byes = draw(st.lists(st.integers(0, 1), min_size=size, max_size=size))
    seats = draw(st.lists(st.sampled_from(["", "NS", "EW"]), min_size=size, max_size=size))
    ns = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
    clubs = draw(st.lists(st.sampled_from([None, 1, 2]), min_size=size, max_size=size))
    order = sorted(ids, key=lambda i: (-scores[i - 1], i))
    entries = [
        Competitor(
            id=i,
            rank=order.index(i) + 1,
            score=scores[i - 1],
            seed=i,
            club=clubs[i - 1],
            byes=byes[i - 1],
            ns_count=ns[i - 1],
            ew_count=ns[i - 1] + (1 if seats[i - 1] == "EW" else -1 if seats[i - 1] == "NS" else 0),
            last_seat=seats[i - 1],
            opponents=frozenset(opponents[i]),
        )
        for i in ids
    ]
    entries = [replace(e, ew_count=max(0, e.ew_count)) for e in entries]
    return entries, draw(st.integers(2, 9))


def seated_once(pairing: RoundPairing, ids: set[int]) -> None:
    seen = [i for t in pairing.tables for i in (*t.ns, *t.ew)] + [b.id for b in pairing.byes]
    assert sorted(seen) == sorted(ids), "everyone exactly once"


def check_round(entries: list[Competitor], pairing: RoundPairing, round_number: int) -> None:
    by_id = {e.id: e for e in entries}
    seated_once(pairing, set(by_id))
    assert len(pairing.byes) == len(entries) % 2
    for bye in pairing.byes:
        assert by_id[bye.id].byes == min(e.byes for e in entries), "no second bye before others"
        assert bye.flags == {"bye"}
    rematches = 0
    for number, table in enumerate(pairing.tables, start=1):
        a, b = by_id[table.ns[0]], by_id[table.ew[0]]
        assert table.number == number
        assert table.flags <= set(FLAGS)
        assert ("rematch" in table.flags) == met(a, b)
        assert ("float_up" in table.flags) == (round_number > 1 and a.score != b.score)
        rematches += met(a, b)
    assert rematches == fewest_rematches(entries)


@settings(max_examples=150, deadline=None)
@given(histories())
def test_no_rematch_while_a_rematch_free_pairing_exists(case: tuple[list[Competitor], int]) -> None:
    entries, round_number = case
    check_round(entries, swiss(entries, SwissOptions(round_number=round_number)), round_number)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_the_pruned_graph_and_its_fallback_keep_the_same_guarantees(
    case: tuple[list[Competitor], int],
) -> None:
    entries, round_number = case
    narrow = ((1, 1), (2, 2))  # so narrow that the fallback to the complete graph is exercised
    with (
        mock.patch.object(solver, "FULL_GRAPH_LIMIT", 0),
        mock.patch.object(solver, "PRUNED_WIDTHS", narrow),
    ):
        pairing = swiss(entries, SwissOptions(round_number=round_number))
    check_round(entries, pairing, round_number)


def test_round_one_by_seed_puts_the_top_half_against_the_bottom_half() -> None:
    entries = field(10)
    pairing = swiss(list(reversed(entries)), SwissOptions(round_number=1))
    assert [(set(t.ns) | set(t.ew)) for t in pairing.tables] == [
        {1, 6},
        {2, 7},
        {3, 8},
        {4, 9},
        {5, 10},
    ]
    assert all(t.flags == {"by_seed"} for t in pairing.tables)
    # seats alternate by table: the better seed sits NS on tables 1, 3, 5
    assert [t.ns[0] for t in pairing.tables] == [1, 7, 3, 9, 5]


def test_round_one_with_an_odd_count_gives_the_bye_to_the_last_seed() -> None:
    pairing = swiss(field(7), SwissOptions(round_number=1))
    assert [b.id for b in pairing.byes] == [7]
    assert [(t.ns[0], t.ew[0]) for t in pairing.tables][0] in {(1, 4), (4, 1)}


def test_round_one_by_lot_is_deterministic_for_a_random_seed() -> None:
    entries = field(20)
    first = swiss(entries, SwissOptions(round_number=1, first_round="lot", random_seed=7))
    again = swiss(entries, SwissOptions(round_number=1, first_round="lot", random_seed=7))
    other = swiss(entries, SwissOptions(round_number=1, first_round="lot", random_seed=8))
    assert first == again
    assert first.tables != other.tables
    assert all(t.flags == {"by_lot"} for t in first.tables)
    seated_once(first, {e.id for e in entries})


def test_unknown_first_round_is_refused() -> None:
    with pytest.raises(ValueError, match="first_round"):
        swiss(field(4), SwissOptions(round_number=1, first_round="coin"))


def test_same_club_pairings_are_avoided_unless_avoidance_is_off() -> None:
    # seeds 1-4 of club 1 and 5-8 of club 2: by seed, 1-5, 2-6… all cross clubs anyway, so put
    # the clubs in halves that the seed order would pair within: 1,2,5,6 club 1; 3,4,7,8 club 2
    clubs = {1: 1, 2: 1, 5: 1, 6: 1, 3: 2, 4: 2, 7: 2, 8: 2}
    entries = [replace(e, club=clubs[e.id]) for e in field(8)]
    for mode in ("strict", "among_equals"):  # round 1: every score is equal
        avoided = swiss(entries, SwissOptions(round_number=1, clubs=mode))
        assert all(clubs[t.ns[0]] != clubs[t.ew[0]] for t in avoided.tables)
    plain = swiss(entries, SwissOptions(round_number=1, clubs="off"))
    assert {frozenset((*t.ns, *t.ew)) for t in plain.tables} == {
        frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))
    }
    assert {t.flags for t in plain.tables} == {frozenset({"by_seed", "same_club_allowed"})}


def test_unavoidable_same_club_is_flagged_by_the_mode_that_kept_it() -> None:
    entries = [replace(e, club=1) for e in field(4)]
    for mode, flag in (("strict", "same_club"), ("among_equals", "same_club_kept"),
                       ("off", "same_club_allowed")):  # fmt: skip
        pairing = swiss(entries, SwissOptions(round_number=1, clubs=mode))
        assert all(flag in t.flags for t in pairing.tables)


def test_an_unknown_club_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="club avoidance"):
        swiss(field(4), SwissOptions(round_number=1, clubs="sometimes"))


def test_score_groups_of_even_size_pair_within_themselves() -> None:
    entries = [
        replace(e, score=4.0 if e.id <= 4 else 2.0 if e.id <= 10 else 0.0) for e in field(12)
    ]
    pairing = swiss(entries, SwissOptions(round_number=2))
    score = {e.id: e.score for e in entries}
    assert all(score[t.ns[0]] == score[t.ew[0]] for t in pairing.tables)
    assert not any("float_up" in t.flags for t in pairing.tables)
    # leaders first: table 1 holds the top group
    assert score[pairing.tables[0].ns[0]] == 4.0


def test_an_odd_group_floats_its_last_entry_to_the_top_of_the_next() -> None:
    entries = [replace(e, score=4.0 if e.id <= 3 else 2.0) for e in field(8)]
    pairing = swiss(entries, SwissOptions(round_number=2))
    floats = [t for t in pairing.tables if "float_down" in t.flags]
    assert len(floats) == 1
    assert set(floats[0].ns + floats[0].ew) == {3, 4}
    assert any("floats down" in note for note in pairing.notes)


def test_a_rematch_of_the_natural_opponent_is_avoided_and_flagged() -> None:
    entries = field(4)
    entries[0] = replace(entries[0], opponents=frozenset({3}))
    entries[2] = replace(entries[2], opponents=frozenset({1}))
    pairing = swiss(entries, SwissOptions(round_number=2))
    assert {frozenset(t.ns + t.ew) for t in pairing.tables} == {
        frozenset({1, 4}),
        frozenset({2, 3}),
    }
    assert all("rematch_avoided" in t.flags for t in pairing.tables)


def test_excluded_entries_are_left_out_and_tables_start_where_asked() -> None:
    pairing = swiss(
        field(6), SwissOptions(round_number=1, ids_excluded=frozenset({1, 2}), first_table=3)
    )
    seated_once(pairing, {3, 4, 5, 6})
    assert [t.number for t in pairing.tables] == [3, 4]


def test_an_empty_field_gives_an_empty_round() -> None:
    assert swiss([], SwissOptions(round_number=1)) == RoundPairing(tables=())


def simulate(size: int, rounds: int, seed: int) -> list[list[Competitor]]:
    rng = random.Random(seed)
    entries = field(size)
    states = [entries]
    for number in range(1, rounds + 1):
        pairing = swiss(entries, SwissOptions(round_number=number))
        check_simulated(entries, pairing)
        entries = play_round(entries, pairing, rng)
        states.append(entries)
    return states


def check_simulated(entries: list[Competitor], pairing: RoundPairing) -> None:
    by_id = {e.id: e for e in entries}
    seated_once(pairing, set(by_id))
    for table in pairing.tables:
        assert not met(by_id[table.ns[0]], by_id[table.ew[0]])
    for bye in pairing.byes:
        assert by_id[bye.id].byes == min(e.byes for e in entries)


@pytest.mark.parametrize(("size", "seed"), [(16, 1), (37, 2), (120, 3)])
def test_simulated_tournaments_balance_seats_and_share_byes(size: int, seed: int) -> None:
    final = simulate(size, 9, seed)[-1]
    assert max(abs(e.ns_count - e.ew_count) for e in final) <= 1
    byes = [e.byes for e in final]
    assert max(byes) - min(byes) <= 1
    assert sum(byes) == 9 * (size % 2)


def test_a_large_field_uses_the_pruned_graph_without_rematches() -> None:
    final = simulate(solver.FULL_GRAPH_LIMIT + 101, 5, 4)[-1]
    assert max(abs(e.ns_count - e.ew_count) for e in final) <= 1
