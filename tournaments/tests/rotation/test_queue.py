"""The queue at a «Генерал» rotation's table (RULES.md section 35), pure."""

from __future__ import annotations

from tournaments.rotation.queue import Stint, queue_after


def test_the_loser_goes_to_the_end_and_the_next_team_comes_in() -> None:
    # A and B at the table, C and D wait («команда Д, Е ждёт своей очереди»)
    assert queue_after([1, 2, 3, 4], []) == [1, 2, 3, 4]
    after_one = queue_after([1, 2, 3, 4], [Stint(1, 2, loser=2)])
    assert after_one == [1, 3, 4, 2]  # A stays, C comes in, B waits last
    after_two = queue_after([1, 2, 3, 4], [Stint(1, 2, 2), Stint(1, 3, 1)])
    assert after_two == [3, 4, 2, 1]  # C beat A: C stays, D comes in


def test_a_draw_sends_away_the_team_that_sat_longer() -> None:
    assert queue_after([1, 2, 3], [Stint(1, 2, loser=None)]) == [2, 3, 1]


def test_a_withdrawn_team_leaves_the_queue() -> None:
    assert queue_after([1, 2, 3, 4], [Stint(1, 2, 2)], active=[1, 2, 4]) == [1, 4, 2]
