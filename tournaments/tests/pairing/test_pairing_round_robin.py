"""Round robin by Berger tables: everyone meets everyone once, seats alternate. Pure."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import round_robin, round_robin_round


def test_six_entries_follow_the_printed_berger_tables() -> None:
    assert round_robin([1, 2, 3, 4, 5, 6]) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@given(st.lists(st.integers(1, 10_000), min_size=2, max_size=30, unique=True))
def test_the_schedule_meets_everyone_exactly_once(ids: list[int]) -> None:
    schedule = round_robin(ids)
    size = len(ids) + len(ids) % 2
    assert len(schedule) == size - 1
    meetings: Counter[frozenset[int | None]] = Counter()
    seats: dict[int, int] = Counter()
    for tables in schedule:
        playing = [side for table in tables for side in table]
        assert len(playing) == len(set(playing)) == size, "nobody twice in a round"
        for ns, ew in tables:
            meetings[frozenset((ns, ew))] += 1
            if ns is not None and ew is not None:
                seats[ns] += 1
                seats[ew] -= 1
    assert set(meetings) == {frozenset(p) for p in combinations([*ids, None][:size], 2)}
    assert set(meetings.values()) == {1}
    # Berger seats: NS and EW differ by at most one (by none with an odd count and its byes)
    assert all(abs(balance) <= (len(ids) + 1) % 2 for balance in seats.values())


def test_an_odd_count_gives_each_entry_one_bye() -> None:
    ids = [11, 12, 13, 14, 15]
    byes = [b.id for number in range(1, 6) for b in round_robin_round(ids, number).byes]
    assert sorted(byes) == ids
    one = round_robin_round(ids, 1, first_table=3)
    assert [t.number for t in one.tables] == [3, 4]
    assert one.byes[0].flags == {"bye"}


def test_a_round_outside_the_schedule_is_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        round_robin_round([1, 2, 3, 4], 4)


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="unique"):
        round_robin([1, 1])
