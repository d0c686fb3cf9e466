"""Each metric of the pure standings on small events computed by hand (no database)."""

from __future__ import annotations

import pytest

from tournaments.standings import (
    Game,
    Row,
    Sanction,
    Settings,
    game_efectividad,
    standings,
)
from tournaments.standings.types import End, Result, Unplayed

T = 200


def match(
    rnd: int,
    winner: int,
    loser: int,
    score: tuple[int, int],
    end: End = "time",
    *,
    draw: bool = False,
) -> list[Game]:
    """Both sides of a played match; ``score`` is (winner's points, loser's points)."""
    first: Result = "draw" if draw else "win"
    second: Result = "draw" if draw else "loss"
    return [
        Game(rnd, winner, loser, first, score[0], score[1], 0, True, "", end),
        Game(rnd, loser, winner, second, score[1], score[0], 0, True, "", end),
    ]


def unplayed(rnd: int, pid: int, kind: Unplayed) -> Game:
    result: Result = "win" if kind in ("bye", "forfeit_win") else "loss"
    return Game(rnd, pid, None, result, played=False, kind=kind)


def event_a() -> list[Game]:
    """Five participants, three rounds, with byes, a forfeit and an absence.

    R1: 1 beats 2 at the target 200-150; 3 and 4 draw 100-100 on time; 5 bye.
    R2: 1 beats 3 at the target 210-80; 5 beats 2 on time 150-120; 4 bye.
    R3: 5 beats 1 on time 130-90; 2 wins by forfeit (4 did not show up); 3 absent.
    """
    return [
        *match(1, 1, 2, (200, 150), "target"),
        *match(1, 3, 4, (100, 100), draw=True),
        unplayed(1, 5, "bye"),
        *match(2, 1, 3, (210, 80), "target"),
        *match(2, 5, 2, (150, 120)),
        unplayed(2, 4, "bye"),
        *match(3, 5, 1, (130, 90)),
        unplayed(3, 2, "forfeit_win"),
        unplayed(3, 4, "forfeit_loss"),
        unplayed(3, 3, "absent"),
    ]


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {row.participant: row for row in rows}


@pytest.fixture
def rows_a() -> dict[int, Row]:
    return by_id(standings([1, 2, 3, 4, 5], event_a(), Settings(target=T)))


def test_match_points_count_byes_and_forfeit_wins_as_wins(rows_a: dict[int, Row]) -> None:
    assert {p: r.match_points for p, r in rows_a.items()} == {1: 4, 2: 2, 3: 1, 4: 3, 5: 6}


def test_wins_include_unplayed_wins_and_games_won_only_over_the_table(
    rows_a: dict[int, Row],
) -> None:
    assert {p: (r.wins, r.games_won, r.draws, r.losses) for p, r in rows_a.items()} == {
        1: (2, 2, 0, 1),
        2: (1, 0, 0, 2),
        3: (0, 0, 1, 2),
        4: (1, 0, 1, 1),
        5: (3, 2, 0, 0),
    }


def test_points_difference_and_deals(rows_a: dict[int, Row]) -> None:
    assert {p: (r.points_for, r.points_against, r.difference) for p, r in rows_a.items()} == {
        1: (500, 360, 140),
        2: (270, 350, -80),
        3: (180, 310, -130),
        4: (100, 100, 0),
        5: (280, 210, 70),
    }


def test_deals_won_are_summed() -> None:
    games = [
        Game(1, 1, 2, "win", 200, 100, 5),
        Game(1, 2, 1, "loss", 100, 200, 3),
        Game(2, 1, None, "win", played=False, kind="bye"),
    ]
    rows = by_id(standings([1, 2], games, Settings()))
    assert (rows[1].deals_won, rows[2].deals_won) == (5, 3)


def test_efectividad_target_time_forfeit_bye_and_absence(rows_a: dict[int, Row]) -> None:
    # 1: +(200-150) +(200-80) -40 ; 2: -(200-150) -30 +100 ; 3: 0 -(200-80) 0 ;
    # 4: 0 +100 -200 ; 5: +100 +30 +40
    assert {p: r.efectividad for p, r in rows_a.items()} == {
        1: 130.0,
        2: 20.0,
        3: -120.0,
        4: -100.0,
        5: 170.0,
    }


def test_own_unplayed_rounds_count_against_a_dummy_with_the_own_score(
    rows_a: dict[int, Row],
) -> None:
    # Opponents see 3's absence (its last round, after its last game, no opponent) as a draw:
    # 3 shows 1 + 0 + 1 = 2. 4's forfeit loss was paired (2 won it): its 0 stands, 4 shows
    # 1 + 2 + 0 = 3 (C.07 art. 16; issue 30: read as a draw it was one point too many).
    # 1: 2 (2), 3 (2), 5 (6); 2: 1 (4), 5 (6), forfeit win vs dummy (2);
    # 3: 4 (3), 1 (4), dummy (1); 4: 3 (2), bye dummy (3), dummy (3)
    assert {p: r.buchholz for p, r in rows_a.items()} == {1: 10, 2: 12, 3: 8, 4: 8, 5: 12}


def test_cut1_cuts_voluntary_unplayed_rounds_first(rows_a: dict[int, Row]) -> None:
    # 4 cuts its forfeit loss (3), not its lowest opponent (1); 2's forfeit win is not voluntary;
    # 3 cuts its absence (1)
    assert {p: r.buchholz_cut1 for p, r in rows_a.items()} == {1: 8, 2: 10, 3: 7, 4: 5, 5: 10}


def test_median_cuts_the_voluntary_round_then_the_highest(rows_a: dict[int, Row]) -> None:
    assert {p: r.median_buchholz for p, r in rows_a.items()} == {1: 2, 2: 4, 3: 3, 4: 2, 5: 4}


def test_sonneborn_berger_weights_opponents_by_the_result(rows_a: dict[int, Row]) -> None:
    # 1: wins over 2 (2) and 3 (2); 3: half of 4's 3 for the draw; 4: half of 3's 2 plus the
    # bye dummy's 3; 5: 6 + 2 + 4
    assert {p: r.sonneborn_berger for p, r in rows_a.items()} == {
        1: 4.0,
        2: 2.0,
        3: 1.5,
        4: 4.0,
        5: 12.0,
    }


def test_progressive_sums_cumulative_scores(rows_a: dict[int, Row]) -> None:
    assert {p: r.progressive for p, r in rows_a.items()} == {1: 10, 2: 2, 3: 3, 4: 7, 5: 12}


def test_upto_round_ignores_later_rounds() -> None:
    rows = by_id(standings([1, 2, 3, 4, 5], event_a(), Settings(target=T), upto_round=1))
    assert {p: r.match_points for p, r in rows.items()} == {1: 2, 2: 0, 3: 1, 4: 1, 5: 2}
    assert rows[5].efectividad == 100.0
    assert rows[1].buchholz == 0  # 2 had scored nothing after round 1


def event_b() -> list[Game]:
    """Four participants; 4 withdraws after round 2.

    R1: 1 beats 2, 3 beats 4. R2: 3 beats 1, 2 beats 4. R3: 2 beats 1, 3 bye, 4 withdrawn.
    Scores: 1 has 2, 2 has 4, 3 has 6, 4 has 0.
    """
    return [
        *match(1, 1, 2, (200, 100)),
        *match(1, 3, 4, (200, 100)),
        *match(2, 3, 1, (200, 100)),
        *match(2, 2, 4, (200, 100)),
        *match(3, 2, 1, (200, 100)),
        unplayed(3, 3, "bye"),
        unplayed(3, 4, "withdrawn"),
    ]


def test_an_opponents_rounds_after_withdrawing_count_as_draws() -> None:
    rows = by_id(standings([1, 2, 3, 4], event_b(), Settings()))
    assert rows[4].match_points == 0
    # 4 shows 1 (a draw for its withdrawn round) to 3 and 2; 3's bye is a dummy with 3's own 4
    assert rows[3].buchholz == 1 + 2 + 6
    assert rows[2].buchholz == 2 + 1 + 2
    # 4's own withdrawn round: dummy with its own 0, voluntary, so cut first
    assert (rows[4].buchholz, rows[4].buchholz_cut1) == (6 + 4 + 0, 10)


def test_an_opponents_unplayed_rounds_after_its_last_game_count_as_draws_whatever_why() -> None:
    # R4: 1 beats 2; 3 is absent (it asked to be, and is not withdrawn), 4 still withdrawn
    games = [*event_b(), *match(4, 1, 2, (200, 0)), unplayed(4, 3, "absent")]
    games.append(unplayed(4, 4, "withdrawn"))
    rows = by_id(standings([1, 2, 3, 4], games, Settings()))
    # 3's absence is after its last game (R3 was a bye, which counts as played): a draw in the
    # score its opponents see, 6 + 1; 2 has 4, 4 shows two draws (0 + 0 + 1 + 1)
    assert rows[1].buchholz == 4 + 7 + 4 + 4
    assert rows[3].buchholz == 2 + 4 + 6 + 6  # own rounds use the dummy with 3's own 6


def test_an_opponents_unplayed_round_before_a_later_game_counts_as_scored() -> None:
    # 2 is absent in round 1 and plays round 2 (loses to 1): its round 1 stays a loss (0), so
    # 1's Buchholz sees 2's score 0; had the absence come last it would have counted 1
    games = [unplayed(1, 2, "absent"), *match(1, 1, 3, (200, 0)), *match(2, 1, 2, (200, 0)),
             unplayed(2, 3, "bye")]  # fmt: skip
    rows = by_id(standings([1, 2, 3], games, Settings()))
    assert rows[1].buchholz == 2 + 0  # 3: a loss then a bye (2); 2: an early absence, a loss


def test_sanctions_deduct_from_score_progressive_and_what_opponents_see() -> None:
    rows = by_id(standings([1, 2, 3, 4], event_b(), Settings(), [Sanction(1, 2, 2)]))
    assert rows[1].match_points == 0
    assert rows[1].progressive == 2 + 0 + 0
    assert rows[2].buchholz == 0 + 1 + 0
    assert rows[3].buchholz == 1 + 0 + 6
    assert rows[3].sonneborn_berger == 1 + 0 + 6


def test_sanction_in_a_later_round_is_ignored_before_it() -> None:
    rows = by_id(standings([1, 2, 3, 4], event_b(), Settings(), [Sanction(1, 3, 2)], 2))
    assert rows[1].match_points == 2


def test_bye_scoring_follows_the_settings() -> None:
    games = [unplayed(1, 1, "bye"), *match(1, 2, 3, (200, 10))]
    rows = by_id(standings([1, 2, 3], games, Settings(bye_result="draw")))
    assert (rows[1].match_points, rows[1].wins, rows[1].draws) == (1, 0, 1)
    assert rows[1].sonneborn_berger == 0.5


def test_match_points_follow_the_settings() -> None:
    games = [*match(1, 1, 2, (200, 10)), *match(2, 1, 2, (100, 100), draw=True)]
    rows = by_id(standings([1, 2], games, Settings(win=3, draw=1, loss=0)))
    assert (rows[1].match_points, rows[2].match_points) == (4, 1)
    assert rows[1].sonneborn_berger == pytest.approx(1 + 1 / 3)


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (Game(1, 1, 2, "win", 215, 120, end="target"), 80.0),
        (Game(1, 1, 2, "loss", 120, 215, end="target"), -80.0),
        # both past the target (a fives match checked once a deal is scored): capped at T, a
        # win is never negative
        (Game(1, 1, 2, "win", 230, 210, end="target"), 0.0),
        (Game(1, 1, 2, "loss", 210, 230, end="target"), 0.0),
        (Game(1, 1, 2, "win", 230, 190, end="target"), 10.0),
        (Game(1, 1, 2, "win", 150, 110, end="time"), 40.0),
        (Game(1, 1, 2, "loss", 110, 150, end="deals"), -40.0),
        (Game(1, 1, 2, "draw", 90, 90, end="time"), 0.0),
        (Game(1, 1, None, "win", played=False, kind="bye"), 100.0),
        (Game(1, 1, None, "win", played=False, kind="forfeit_win"), 100.0),
        (Game(1, 1, None, "loss", played=False, kind="forfeit_loss"), -200.0),
        (Game(1, 1, None, "loss", played=False, kind="absent"), 0.0),
        (Game(1, 1, None, "loss", played=False, kind="withdrawn"), 0.0),
    ],
)
def test_efectividad_of_one_round(game: Game, expected: float) -> None:
    assert game_efectividad(game, Settings(target=200)) == expected


def test_efectividad_without_a_target_is_the_difference() -> None:
    settings = Settings(target=None)
    assert game_efectividad(Game(1, 1, 2, "win", 215, 120, end="target"), settings) == 95.0
    assert game_efectividad(Game(1, 1, None, "win", played=False, kind="bye"), settings) == 0.0


def test_several_opponents_use_their_mean_score_and_head_to_head_sees_each():
    """Individual event: 1+2 beat 3+4 (round 1); 1+3 beat 2+4 (round 2).

    Scores: 1 has 4, 2 and 3 have 2 each, 4 has 0. Buchholz of 1: round 1 mean(2, 0) = 1,
    round 2 mean(2, 0) = 1, so 2. Buchholz of 4: mean(4, 2) = 3 twice, so 6.
    """
    def table(rnd: int, ns: tuple[int, int], ew: tuple[int, int]) -> list[Game]:
        games = [Game(rnd, p, ew[0], "win", 100, 50, opponents=ew) for p in ns]
        return games + [Game(rnd, p, ns[0], "loss", 50, 100, opponents=ns) for p in ew]

    games = table(1, (1, 2), (3, 4)) + table(2, (1, 3), (2, 4))
    rows = {r.participant: r for r in standings([1, 2, 3, 4], games, Settings())}
    assert rows[1].match_points == 4 and rows[4].match_points == 0
    assert rows[1].buchholz == 2.0
    assert rows[4].buchholz == 6.0
    assert rows[2].buchholz == rows[3].buchholz == 4.0  # mean(2, 0) + mean(4, 0)
    assert [r.participant for r in standings([1, 2, 3, 4], games, Settings())][0] == 1


def test_game_point_deduction_comes_off_points_difference_and_efectividad():
    games = match(1, 1, 2, (200, 150), end="target")
    plain = {r.participant: r for r in standings([1, 2], games, Settings(target=T))}
    fined = {
        r.participant: r
        for r in standings([1, 2], games, Settings(target=T), [Sanction(1, 1, 0, game_points=40)])
    }
    assert fined[1].points_for == plain[1].points_for - 40 == 160
    assert fined[1].difference == plain[1].difference - 40 == 10
    assert fined[1].efectividad == plain[1].efectividad - 40 == 10.0
    assert fined[1].match_points == plain[1].match_points == 2
    assert fined[2] == plain[2]
