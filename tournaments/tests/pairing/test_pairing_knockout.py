"""The knock-out bracket (``tournaments.pairing.knockout``): seeding 1 v N, byes for the best
seeds, best of three, draws replayed, the third-place match, places."""

from __future__ import annotations

import pytest

from tournaments.pairing import knockout as ko
from tournaments.pairing.knockout import Game


def test_seed_order_keeps_the_two_best_apart_until_the_final() -> None:
    assert ko.seed_order(2) == [1, 2]
    assert ko.seed_order(4) == [1, 4, 2, 3]
    assert ko.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = ko.seed_order(16)
    assert order[:2] == [1, 16] and order.index(2) >= 8  # seed 2 in the other half
    with pytest.raises(ValueError):
        ko.seed_order(6)


def test_first_round_pairs_one_against_n_the_better_seed_at_ns() -> None:
    seeds = [101, 102, 103, 104, 105, 106, 107, 108]
    br = ko.bracket(seeds, 8, 1, False)
    tables = ko.next_games(br).tables
    assert [(t.ns, t.ew) for t in tables] == [
        ((101,), (108,)), ((104,), (105,)), ((102,), (107,)), ((103,), (106,))]
    assert all("knockout" in t.flags for t in tables)


def test_an_incomplete_bracket_gives_the_best_seeds_byes() -> None:
    br = ko.bracket([1, 2, 3, 4, 5, 6], 8, 1, False)
    first = br.levels[0]
    assert [(t.a, t.b, t.bye, t.winner) for t in first if t.bye] == [
        (1, None, True, 1), (2, None, True, 2)]
    pairing = ko.next_games(br)
    assert [(t.ns, t.ew) for t in pairing.tables] == [((4,), (5,)), ((3,), (6,))]
    assert len(pairing.notes) == 2


def test_best_of_three_goes_to_the_first_to_win_two_and_the_next_level_follows() -> None:
    br = ko.bracket([1, 2, 3, 4], 4, 3, False, [
        Game(7, 1, 4, 1), Game(7, 2, 3, 3),
        Game(8, 1, 4, 1), Game(8, 2, 3, 2),   # 1 through; 2 v 3 at one all
    ])
    assert br.levels[0][0].decided and br.levels[0][0].winner == 1
    assert not br.levels[0][1].decided
    assert [(t.ns, t.ew) for t in ko.next_games(br).tables] == [((2,), (3,))]
    br = ko.bracket([1, 2, 3, 4], 4, 3, False, [
        Game(7, 1, 4, 1), Game(7, 2, 3, 3), Game(8, 1, 4, 1), Game(8, 2, 3, 2),
        Game(9, 2, 3, 3),
    ])
    assert [(t.a, t.b) for t in br.levels[1]] == [(1, 3)]
    assert [(t.ns, t.ew) for t in ko.next_games(br).tables] == [((1,), (3,))]


def test_a_drawn_game_decides_nothing_and_is_played_again() -> None:
    br = ko.bracket([1, 2], 2, 1, False, [Game(5, 1, 2, None)])
    assert not br.finished and len(ko.next_games(br).tables) == 1
    br = ko.bracket([1, 2], 2, 1, False, [Game(5, 1, 2, None), Game(6, 1, 2, 2)])
    assert br.finished and br.champion == 2


def test_a_game_in_play_is_not_paired_again() -> None:
    br = ko.bracket([1, 2], 2, 1, False, [Game(5, 1, 2, None, done=False)])
    assert br.open_ties()[0].in_play
    with pytest.raises(ValueError):
        ko.next_games(br)


def test_third_place_is_played_with_the_final_and_places_follow_the_bracket() -> None:
    seeds = [11, 12, 13, 14, 15, 16, 17, 18]
    games = [Game(1, 11, 18, 11), Game(1, 14, 15, 15), Game(1, 12, 17, 17),
             Game(1, 13, 16, 13)]
    br = ko.bracket(seeds, 8, 1, True, games)
    assert [(t.a, t.b) for t in br.levels[1]] == [(11, 15), (17, 13)]
    games += [Game(2, 11, 15, 11), Game(2, 17, 13, 13)]
    br = ko.bracket(seeds, 8, 1, True, games)
    tables = ko.next_games(br).tables
    assert [(t.ns, t.ew, "third_place" in t.flags) for t in tables] == [
        ((11,), (13,), False), ((15,), (17,), True)]
    games += [Game(3, 11, 13, 13), Game(3, 15, 17, 17)]
    br = ko.bracket(seeds, 8, 1, True, games)
    assert br.finished and br.champion == 13
    assert ko.placings(br) == [(13, 4), (11, 3), (17, 2), (15, 2),
                               (12, 1), (14, 1), (16, 1), (18, 1)]
    assert ko.next_games(br).tables == ()


def test_a_game_outside_the_bracket_is_refused() -> None:
    with pytest.raises(ValueError):
        ko.bracket([1, 2, 3, 4], 4, 1, False, [Game(1, 1, 2, 1)])
    with pytest.raises(ValueError):
        ko.bracket([1], 2, 1, False)
