"""Tie-break order, head-to-head and the seeded lot of the pure standings (no database)."""

from __future__ import annotations

import pytest

from tournaments.standings import (
    INTERNATIONAL_ORDER,
    SPORTS_ORDER,
    Game,
    Row,
    Settings,
    direct_encounter,
    lot,
    standings,
)
from tournaments.standings.types import Result


def match(rnd: int, winner: int, loser: int, score: tuple[int, int] = (200, 100)) -> list[Game]:
    return [
        Game(rnd, winner, loser, "win", score[0], score[1], end="time"),
        Game(rnd, loser, winner, "loss", score[1], score[0], end="time"),
    ]


def unplayed(rnd: int, pid: int, result: Result = "win") -> Game:
    return Game(rnd, pid, None, result, played=False, kind="bye")


def round_robin() -> list[Game]:
    """Four participants: 2 and 3 finish on 4, 1 and 4 on 2; 2 beat 3 and 4 beat 1."""
    return [
        *match(1, 1, 2, (200, 190)),
        *match(1, 3, 4, (200, 0)),
        *match(2, 3, 1, (200, 0)),
        *match(2, 2, 4, (200, 190)),
        *match(3, 4, 1, (200, 190)),
        *match(3, 2, 3, (200, 190)),
    ]


def ranking(rows: list[Row]) -> list[int]:
    return [row.participant for row in rows]


def test_defaults_are_the_sports_and_international_orders() -> None:
    assert Settings().order == ("match_points", "difference", "buchholz", "head_to_head")
    assert SPORTS_ORDER == Settings().order
    assert INTERNATIONAL_ORDER == ("wins", "efectividad", "points")


def test_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-breaks"):
        Settings(order=("match_points", "elo"))


def test_head_to_head_breaks_ties_between_participants_who_met() -> None:
    rows = standings([1, 2, 3, 4], round_robin(), Settings(order=("match_points", "head_to_head")))
    assert ranking(rows) == [2, 3, 4, 1]
    assert [row.rank for row in rows] == [1, 2, 3, 4]
    # the value: how many of the tied the direct encounter ranks below
    assert [row.head_to_head for row in rows] == [1.0, 0.0, 1.0, 0.0]
    assert [row.tiebreaks[:2] for row in rows] == [(4, 1), (4, 0), (2, 1), (2, 0)]


def test_sports_order_uses_difference_before_head_to_head() -> None:
    # 3: +200 +200 -10 = 390 beats 2's -10 +10 +10 = 10 although 2 won their game
    rows = standings([1, 2, 3, 4], round_robin(), Settings())
    assert ranking(rows) == [3, 2, 4, 1]


def test_the_order_of_the_settings_decides() -> None:
    games = [
        *match(1, 1, 2, (200, 150)),
        *match(1, 3, 4, (200, 0)),
        *match(2, 2, 1, (200, 190)),
        *match(2, 4, 3, (200, 190)),
    ]
    # everybody has 2 match points; differences 1: 40, 2: -40, 3: 190, 4: -190
    by_difference = standings([1, 2, 3, 4], games, Settings(order=("difference",)))
    assert ranking(by_difference) == [3, 1, 2, 4]
    # points for: 1: 390, 2: 350, 3: 390, 4: 200; 1 and 3 tie and the lot decides
    by_points = standings([1, 2, 3, 4], games, Settings(order=("points", "difference")))
    assert ranking(by_points) == [3, 1, 2, 4]
    by_points_only = standings([1, 2, 3, 4], games, Settings(order=("points",), seed=7))
    assert set(ranking(by_points_only)[:2]) == {1, 3}
    assert ranking(by_points_only)[2:] == [2, 4]


def test_international_order_wins_then_efectividad_then_points() -> None:
    settings = Settings(order=INTERNATIONAL_ORDER, target=200)
    games = [
        Game(1, 1, 2, "win", 200, 150, end="target"),  # +50
        Game(1, 2, 1, "loss", 150, 200, end="target"),
        Game(1, 3, 4, "win", 200, 20, end="target"),  # +180
        Game(1, 4, 3, "loss", 20, 200, end="target"),
        Game(2, 1, 3, "win", 120, 100, end="time"),  # +20
        Game(2, 3, 1, "loss", 100, 120, end="time"),
        Game(2, 2, 4, "win", 300, 0, end="time"),  # +300
        Game(2, 4, 2, "loss", 0, 300, end="time"),
    ]
    rows = standings([1, 2, 3, 4], games, settings)
    # wins 1: 2, 2: 1, 3: 1, 4: 0; efectividad 2: -50+300 = 250, 3: 180-20 = 160
    assert ranking(rows) == [1, 2, 3, 4]
    assert [row.tiebreaks[:2] for row in rows] == [(2, 70), (1, 250), (1, 160), (0, -480)]


def test_direct_encounter_of_a_group_not_all_met_separates_nobody_who_could_be_caught() -> None:
    games: dict[int, list[Game]] = {1: match(1, 1, 2)[:1], 2: match(1, 1, 2)[1:], 3: []}
    # 1 has 2 from its game with 2, but 3 (who met nobody) could still reach 4: nobody placed
    assert sorted(map(sorted, direct_encounter([1, 2, 3], games, Settings()))) == [[1, 2, 3]]
    assert direct_encounter([1, 2], games, Settings()) == [[1], [2]]


def test_direct_encounter_counts_only_games_inside_the_group() -> None:
    games_list = round_robin()
    games = {pid: [g for g in games_list if g.participant == pid] for pid in (1, 2, 3, 4)}
    # 1 beat 2, 2 beat 3, 3 beat 1: a cycle, 2 each; nobody is separated
    assert [sorted(g) for g in direct_encounter([1, 2, 3], games, Settings())] == [[1, 2, 3]]


def test_lot_is_a_seeded_permutation() -> None:
    first = lot([5, 3, 9, 1], seed=42)
    assert sorted(first.values()) == [1, 2, 3, 4]
    assert lot([1, 9, 3, 5], seed=42) == first
    seeds = {tuple(sorted(lot(range(8), seed).items())) for seed in range(10)}
    assert len(seeds) > 1


def test_ties_everywhere_are_broken_by_the_lot_and_never_shared() -> None:
    games = [unplayed(1, pid) for pid in range(1, 7)]
    rows = standings(range(1, 7), games, Settings(seed=3))
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5, 6]
    assert [row.lot for row in rows] == [6, 5, 4, 3, 2, 1]
    assert rows[0].tiebreaks[-1] == 6
    again = standings(range(1, 7), games, Settings(seed=3))
    assert ranking(again) == ranking(rows)


def test_explicit_lot_in_the_middle_is_not_repeated() -> None:
    rows = standings([1, 2], [], Settings(order=("lot", "match_points")))
    assert len(rows[0].tiebreaks) == 2


def test_participants_without_games_are_ranked() -> None:
    rows = standings([1, 2, 3], match(1, 1, 2), Settings())
    assert ranking(rows)[0] == 1
    assert {row.participant: row.match_points for row in rows} == {1: 2, 2: 0, 3: 0}


def test_no_participants_no_rows() -> None:
    assert standings([], [], Settings()) == []


def test_games_of_unknown_participants_are_a_bug() -> None:
    with pytest.raises(ValueError, match="unknown participant"):
        standings([1], match(1, 1, 2), Settings())
