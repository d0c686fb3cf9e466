"""Teams of pairs: team against team by Swiss, pair against pair on consecutive tables. Pure."""

from __future__ import annotations

import pytest

from tournaments.pairing import Competitor, SwissOptions, teams


def team(
    team_id: int,
    rank: int,
    members: tuple[int, ...],
    score: float = 0.0,
    opponents: frozenset[int] = frozenset(),
) -> Competitor:
    return Competitor(
        id=team_id, rank=rank, seed=rank, members=members, score=score, opponents=opponents
    )


def test_each_pair_meets_the_pair_of_the_same_board_and_seats_alternate() -> None:
    field = [
        team(1, 1, (11, 12, 13, 14)),
        team(2, 2, (21, 22, 23, 24)),
        team(3, 3, (31, 32, 33, 34)),
        team(4, 4, (41, 42, 43, 44)),
    ]
    pairing = teams(field, SwissOptions(round_number=1))
    assert [(t.number, t.ns, t.ew) for t in pairing.tables] == [
        (1, (11,), (31,)),
        (2, (32,), (12,)),
        (3, (13,), (33,)),
        (4, (34,), (14,)),
        (5, (41,), (21,)),
        (6, (22,), (42,)),
        (7, (43,), (23,)),
        (8, (24,), (44,)),
    ]
    assert all(t.flags == {"by_seed"} for t in pairing.tables)
    assert "Team 1 v team 3: tables 1–4" in pairing.notes


def test_a_team_bye_names_the_team_and_teams_do_not_meet_again() -> None:
    field = [
        team(1, 1, (11, 12), score=2.0, opponents=frozenset({2})),
        team(2, 2, (21, 22), score=2.0, opponents=frozenset({1})),
        team(3, 3, (31, 32)),
    ]
    pairing = teams(field, SwissOptions(round_number=2))
    # a bye for team 3 would force teams 1 and 2 to meet again: the lower of those sits out
    assert [b.id for b in pairing.byes] == [2]
    assert {frozenset((*t.ns, *t.ew)) for t in pairing.tables} == {
        frozenset({11, 31}),
        frozenset({12, 32}),
    }
    assert all("float_down" in t.flags for t in pairing.tables)


def test_extra_pairs_of_a_larger_team_sit_out_and_are_named() -> None:
    field = [team(1, 1, (11, 12, 13)), team(2, 2, (21, 22))]
    pairing = teams(field, SwissOptions(round_number=1))
    assert len(pairing.tables) == 2
    assert any("13 sit out" in note for note in pairing.notes)


def test_a_team_without_pairs_is_refused() -> None:
    with pytest.raises(ValueError, match="without pairs"):
        teams([team(1, 1, ()), team(2, 2, (21,))], SwissOptions(round_number=1))
