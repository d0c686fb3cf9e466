"""The two rules of FIDE's C.07 (2024) the standings follow since issue 16, on small events
checked by hand: opponents' unplayed rounds (art. 16) and the direct encounter applied again to
the sub-groups it leaves tied, with its rule for groups whose members have not all met."""

from __future__ import annotations

from tournaments.standings import Game, Row, Settings, standings
from tournaments.standings.types import Result


def played(rnd: int, a: int, b: int, result: Result) -> list[Game]:
    other: Result = {"win": "loss", "loss": "win", "draw": "draw"}[result]  # type: ignore[assignment]
    return [Game(rnd, a, b, result, end="time"), Game(rnd, b, a, other, end="time")]


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {row.participant: row for row in rows}


def test_fides_example_an_opponents_last_unplayed_round_counts_as_a_draw() -> None:
    # R1: 1 beats 2, 3 has the bye. R2: 1 and 3 draw, 2 does not play (it did not ask to be
    # absent and is not withdrawn: the ledger labels that round "absent").
    games = [
        *played(1, 1, 2, "win"),
        Game(1, 3, None, "win", played=False, kind="bye"),
        *played(2, 1, 3, "draw"),
        Game(2, 2, None, "loss", played=False, kind="absent"),
    ]
    rows = by_id(standings([1, 2, 3], games, Settings()))
    # 2 shows 0 + 1 (its unplayed last round a draw), 3 shows 2 + 1: FIDE's reference gives 4
    assert rows[1].buchholz == 4
    assert rows[1].match_points == 3
    # Sonneborn-Berger: a win over 2 (1) and half of 3's 3
    assert rows[1].sonneborn_berger == 1 + 1.5


def test_an_opponents_forfeit_loss_in_its_last_round_stands() -> None:
    """Checked by hand (issue 30): 2 loses to 1, then loses its last round by forfeit. That
    round was paired (4 was its opponent and won it), so its 0 stands in 1's Buchholz; only
    rounds without an opponent after the last one it played count as draws (16.2.5)."""
    games = [
        *played(1, 1, 2, "win"),
        *played(1, 3, 4, "win"),
        *played(2, 1, 3, "win"),
        Game(2, 2, 4, "loss", played=False, kind="forfeit_loss"),
        Game(2, 4, 2, "win", played=False, kind="forfeit_win"),
    ]
    rows = by_id(standings([1, 2, 3, 4], games, Settings()))
    # 2: 0 + 0 (not 0 + 1), 3: 2 + 0
    assert rows[1].buchholz == (0 + 0) + (2 + 0)
    # 1 beat both: Sonneborn-Berger is their whole adjusted scores
    assert rows[1].sonneborn_berger == 0 + 2
    # 4's forfeit win is its last round: nothing after it to count as a draw
    assert rows[3].buchholz == 2 + 4


def test_an_absence_after_the_last_game_is_a_draw_and_a_forfeit_after_it_stands() -> None:
    """2 plays round 1, is absent in round 2 (0, no opponent) and loses round 3 by forfeit:
    round 2 counts as a draw for its opponents, round 3 as the 0 it scored."""
    games = [
        *played(1, 1, 2, "win"),
        *played(1, 3, 4, "draw"),
        *played(2, 1, 3, "draw"),
        Game(2, 2, None, "loss", played=False, kind="absent"),
        Game(2, 4, None, "win", played=False, kind="bye"),
        *played(3, 1, 4, "win"),
        Game(3, 2, 3, "loss", played=False, kind="forfeit_loss"),
        Game(3, 3, 2, "win", played=False, kind="forfeit_win"),
    ]
    rows = by_id(standings([1, 2, 3, 4], games, Settings()))
    two, three, four = 0 + 1 + 0, 1 + 1 + 2, 1 + 2 + 0
    assert rows[1].buchholz == two + three + four


def four_all_met() -> list[Game]:
    """Four tied on 6 match points (2/1/0), every two of them met. Among them: 1 beat 2, 2 beat
    3 and 4, 3 beat 4 and 1, 4 beat 1; outside, 1 and 4 beat 5 and 6, 2 beat 5, 3 beat 6."""
    return [
        *played(1, 1, 2, "win"),
        *played(1, 3, 4, "win"),
        *played(2, 2, 3, "win"),
        *played(2, 4, 1, "win"),
        *played(3, 2, 4, "win"),
        *played(3, 3, 1, "win"),
        *played(4, 1, 5, "win"),
        *played(4, 4, 6, "win"),
        *played(5, 1, 6, "win"),
        *played(5, 4, 5, "win"),
        *played(6, 2, 5, "win"),
        *played(6, 3, 6, "win"),
    ]


def test_direct_encounter_is_applied_again_to_the_sub_group_it_leaves_tied() -> None:
    games = four_all_met()
    mp = {r.participant: r.match_points for r in standings(range(1, 7), games, Settings())}
    assert [mp[p] for p in (1, 2, 3, 4)] == [6, 6, 6, 6]
    # inside the group 2 and 3 scored 4, 1 and 4 scored 2; again inside each pair: 2 beat 3,
    # 4 beat 1
    for seed in range(20):
        rows = standings(range(1, 7), games, Settings(order=("match_points", "head_to_head"),
                                                       seed=seed))  # fmt: skip
        assert [r.participant for r in rows][:4] == [2, 3, 4, 1], seed
        assert [r.head_to_head for r in rows][:4] == [3, 2, 1, 0]


def test_the_issues_example_two_on_two_inside_four_the_winner_of_their_game_first() -> None:
    # four tied, all met; 1 and 2 each scored 2 in those games and 1 beat 2: 1 above 2,
    # whatever the lot
    games = [
        *played(1, 1, 2, "win"),
        *played(1, 3, 4, "draw"),
        *played(2, 1, 3, "loss"),
        *played(2, 2, 4, "win"),
        *played(3, 1, 4, "loss"),
        *played(3, 2, 3, "loss"),
    ]
    for seed in range(20):
        rows = standings([1, 2, 3, 4], games, Settings(order=("head_to_head",), seed=seed))
        order = [r.participant for r in rows]
        # 3: beat 1 and 2, drew 4 = 5; 4: drew 3, beat 1 = 3; 1 and 2: 2 each
        assert order == [3, 4, 1, 2], seed


def test_a_member_who_met_all_others_and_cannot_be_caught_is_ranked_first() -> None:
    # 1 beat 2 and 3; 2 and 3 have not met: 1 has 4, the others at most 0 + 2
    games = [*played(1, 1, 2, "win"), *played(2, 1, 3, "win")]
    for seed in range(10):
        rows = standings([1, 2, 3], games, Settings(order=("head_to_head",), seed=seed))
        assert rows[0].participant == 1
        assert rows[0].head_to_head == 2
        assert {r.head_to_head for r in rows[1:]} == {0}


def test_a_member_who_could_still_be_caught_is_not_separated() -> None:
    # 1 beat 2; 3 met neither: 3 could reach 4 > 1's 2, so nobody is separated, and the
    # lot orders them (each seed its own way)
    games = [*played(1, 1, 2, "win"), *played(1, 3, 4, "win"), *played(2, 3, 4, "loss"),
             *played(2, 1, 4, "loss"), *played(3, 2, 4, "win")]  # fmt: skip
    orders = set()
    for seed in range(30):
        rows = standings([1, 2, 3], games[:2], Settings(order=("head_to_head",), seed=seed))
        assert all(r.head_to_head == 0 for r in rows)
        orders.add(tuple(r.participant for r in rows))
    assert len(orders) > 1


def test_plain_efectividad_is_points_for_minus_points_against() -> None:
    games = [
        Game(1, 1, 2, "win", 200, 150, end="target"),
        Game(1, 2, 1, "loss", 150, 200, end="target"),
        Game(2, 1, 2, "win", 230, 40, end="target"),
        Game(2, 2, 1, "loss", 40, 230, end="target"),
    ]
    capped = by_id(standings([1, 2], games, Settings(target=200)))
    plain = by_id(standings([1, 2], games, Settings(target=200, efectividad="plain")))
    assert capped[1].efectividad == (200 - 150) + (200 - 40)
    assert plain[1].efectividad == (200 - 150) + (230 - 40)
    assert plain[2].efectividad == -plain[1].efectividad


def test_the_shares_of_the_target_for_forfeits_and_byes_are_settings() -> None:
    games = [
        Game(1, 1, None, "win", played=False, kind="forfeit_win"),
        Game(1, 2, None, "loss", played=False, kind="forfeit_loss"),
        Game(1, 3, None, "win", played=False, kind="bye"),
    ]
    default = by_id(standings([1, 2, 3], games, Settings(target=200)))
    assert [default[p].efectividad for p in (1, 2, 3)] == [100, -200, 100]
    custom = Settings(target=200, forfeit_win_share=1.0, forfeit_loss_share=0.5, bye_share=0.25)
    rows = by_id(standings([1, 2, 3], games, custom))
    assert [rows[p].efectividad for p in (1, 2, 3)] == [200, -100, 50]


def test_plain_efectividad_of_a_whole_event_as_femundo_sheets_report_it() -> None:
    # the issue's FEMUNDO/FEDEDODO line: 4,441 for, 2,745 against, efectividad 1,696; plain
    # efectividad is the totals' difference however the points split into games (these seven
    # are made up to reach those totals), the capped one is not
    scores = [(230, 120), (200, 199), (215, 30), (150, 200), (900, 500), (1600, 1001),
              (1146, 695)]  # fmt: skip
    games = []
    for rnd, (ours, theirs) in enumerate(scores, start=1):
        result: Result = "win" if ours > theirs else "loss"
        other: Result = "loss" if ours > theirs else "win"
        games += [Game(rnd, 1, 2, result, ours, theirs, end="target"),
                  Game(rnd, 2, 1, other, theirs, ours, end="target")]  # fmt: skip
    row = by_id(standings([1, 2], games, Settings(target=200, efectividad="plain")))[1]
    assert (row.points_for, row.points_against, row.efectividad) == (4441, 2745, 1696)
    capped = by_id(standings([1, 2], games, Settings(target=200)))[1]
    assert capped.efectividad < row.efectividad
