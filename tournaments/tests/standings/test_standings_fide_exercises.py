"""The standings against FIDE's own worked answers: the 16-player Swiss of the C.07 tie-break
exercises after 5 rounds (Buchholz, cut-1, Sonneborn-Berger) and after 9 rounds (the direct
encounter), with every kind of unplayed round in it.

Source: IA Mario Held, *Exercises in Tie-Breaking* (FIDE Rules Commission, Rev. 2403220900,
C.07 as amended in 2023/2024), pp. 10-40: the crosstable of the Swiss tournament and the
Buchholz (exercises 1-4), Buchholz cut-1 (5-8) and Sonneborn-Berger (11-13) it states for each
player, and the ranks by points then direct encounter after round 9 (exercise 25). The
crosstables are also published as TRF files beside FIDE's TieBreakServer
(github.com/OttoMilvang/TieBreakServer, tests/fixtures/held_swiss_5.trf and held_swiss_9.trf);
only their results are transcribed here.

It is not a domino event, so it is converted the way a domino Swiss is scored: a win 2 match
points, a draw 1, a loss 0 (chess 1 / ½ / 0 doubled), and so every stated value is doubled. The
unplayed rounds keep their meaning: H (a requested half-point bye) is a requested absence scored
as a draw, Z (a requested zero-point bye) a requested absence scored as a loss, U the
pairing-allocated bye scored as a win, + and - forfeits won and lost. The answers are those of
the 2024 rules (the paper's "/V1"), which are the rules the module follows; the 2026
amendment of art. 16.4 would change players 4 and 11.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.standings import Game, Row, Settings, standings

# Each player's five rounds as in the paper's crosstable: "opponent result" for a game
# (1 win, = draw, 0 loss), "opponent +" / "opponent -" for a forfeit won / lost, and
# H, Z, U for the half-point bye, the zero-point bye and the pairing-allocated bye.
CROSSTABLE = {
    1: ("9 1", "13 =", "2 =", "15 1", "4 ="),
    2: ("10 1", "7 1", "1 =", "16 1", "3 ="),
    3: ("11 =", "6 1", "8 1", "4 =", "2 ="),
    4: ("12 1", "H", "13 1", "3 =", "1 ="),
    5: ("13 0", "15 0", "11 1", "7 =", "10 1"),
    6: ("14 0", "3 0", "U", "10 1", "8 1"),
    7: ("15 1", "2 0", "16 0", "5 =", "11 0"),
    8: ("16 =", "14 1", "3 0", "13 1", "6 0"),
    9: ("1 0", "10 0", "H", "11 -", "U"),
    10: ("2 0", "9 1", "15 0", "6 0", "5 0"),
    11: ("3 =", "16 0", "5 0", "9 +", "7 1"),
    12: ("4 0", "U", "14 +", "Z", "Z"),
    13: ("5 1", "1 =", "4 0", "8 0", "14 0"),
    14: ("6 1", "8 0", "12 -", "Z", "13 1"),
    15: ("7 0", "5 1", "10 1", "1 0", "16 0"),
    16: ("8 =", "11 1", "7 1", "2 0", "15 1"),
}

# The 9-round crosstable of exercise 25 (the same tournament, played on: it differs from the
# 5-round one in round 5, where 2 beat 3 instead of drawing).
CROSSTABLE_9 = {
    1: ("9 1", "13 =", "2 =", "15 1", "4 =", "6 =", "3 =", "16 =", "8 1"),
    2: ("10 1", "7 1", "1 =", "16 1", "3 1", "4 =", "6 0", "15 =", "5 ="),
    3: ("11 =", "6 1", "8 1", "4 =", "2 0", "16 1", "1 =", "14 1", "10 1"),
    4: ("12 1", "H", "13 1", "3 =", "1 =", "2 =", "16 =", "6 =", "15 1"),
    5: ("13 0", "15 0", "11 1", "7 =", "10 1", "14 0", "9 1", "8 0", "2 ="),
    6: ("14 0", "3 0", "U", "10 1", "8 1", "1 =", "2 1", "4 =", "16 1"),
    7: ("15 1", "2 0", "16 0", "5 =", "11 0", "10 0", "13 1", "9 1", "14 1"),
    8: ("16 =", "14 1", "3 0", "13 1", "6 0", "11 =", "15 =", "5 1", "1 0"),
    9: ("1 0", "10 0", "H", "11 -", "U", "13 1", "5 0", "7 0", "12 ="),
    10: ("2 0", "9 1", "15 0", "6 0", "5 0", "7 1", "12 1", "11 1", "3 0"),
    11: ("3 =", "16 0", "5 0", "9 +", "7 1", "8 =", "14 0", "10 0", "13 ="),
    12: ("4 0", "U", "14 +", "Z", "Z", "15 0", "10 0", "13 =", "9 ="),
    13: ("5 1", "1 =", "4 0", "8 0", "14 0", "9 0", "7 0", "12 =", "11 ="),
    14: ("6 1", "8 0", "12 -", "Z", "13 1", "5 1", "11 1", "3 0", "7 0"),
    15: ("7 0", "5 1", "10 1", "1 0", "16 0", "12 1", "8 =", "2 =", "4 0"),
    16: ("8 =", "11 1", "7 1", "2 0", "15 1", "3 0", "4 =", "1 =", "6 0"),
}
# Exercise 25: the ranks by points, then the direct encounter (players it does not separate share
# a rank), and the totals after round 9.
RANKS_AFTER_9 = "3 5 1 3 9 2 6 6 14 9 13 14 16 9 9 6"
TOTALS_AFTER_9 = "6.0 6.0 6.5 6.0 4.0 6.0 4.5 4.5 3.0 4.0 3.5 3.0 2.5 4.0 4.0 4.5"

# The paper's answers in chess points (1 / ½ / 0), player by player 1..16.
BUCHHOLZ = "12.5 13.0 15.5 15.0 8.5 12.0 14.5 13.5 9.0 13.0 13.5 11.5 14.0 11.0 12.0 12.5"
BUCHHOLZ_CUT1 = "11.0 12.0 13.0 11.5 7.5 11.0 12.5 12.0 7.5 11.5 12.0 9.5 12.0 9.0 11.0 11.0"
SONNEBORN_BERGER = (
    "8.00 9.50 10.50 9.75 4.25 6.50 3.25 5.25 2.25 1.50 5.75 4.00 4.25 4.50 3.50 7.25"
)
# The totals printed in the crosstable, to check the transcription.
TOTALS = "3.5 4.0 3.5 3.5 2.5 3.0 1.5 2.5 1.5 1.0 2.5 2.0 1.5 2.0 2.0 3.5"

RESULTS = {"1": "win", "=": "draw", "0": "loss"}
UNPLAYED = {
    "H": ("draw", "absent"),
    "Z": ("loss", "absent"),
    "U": ("win", "bye"),
    "+": ("win", "forfeit_win"),
    "-": ("loss", "forfeit_loss"),
}


def games(table: dict[int, tuple[str, ...]] = CROSSTABLE) -> list[Game]:
    out = []
    for player, rounds in table.items():
        for number, cell in enumerate(rounds, start=1):
            parts = cell.split()
            mark = parts[-1]
            if mark in RESULTS:
                out.append(Game(number, player, int(parts[0]), RESULTS[mark], end="time"))  # type: ignore[arg-type]
            else:
                result, kind = UNPLAYED[mark]
                out.append(Game(number, player, None, result, played=False, kind=kind))  # type: ignore[arg-type]
    return out


def doubled(chess_points: str) -> dict[int, Decimal]:
    return {
        player: Decimal(value) * 2
        for player, value in enumerate(chess_points.split(), start=1)
    }


@pytest.fixture(scope="module")
def rows() -> dict[int, Row]:
    ranked = standings(list(CROSSTABLE), games(), Settings())
    return {row.participant: row for row in ranked}


def test_the_crosstable_is_transcribed_as_published(rows: dict[int, Row]) -> None:
    played_twice = {(g.round, g.participant, g.opponent) for g in games() if g.played}
    assert all((r, o, p) in played_twice for r, p, o in played_twice)
    assert {p: Decimal(row.match_points) for p, row in rows.items()} == doubled(TOTALS)


@pytest.mark.parametrize(
    "metric,answers",
    [
        ("buchholz", BUCHHOLZ),
        ("buchholz_cut1", BUCHHOLZ_CUT1),
        ("sonneborn_berger", SONNEBORN_BERGER),
    ],
)
def test_every_players_tie_break_is_fides_answer(
    rows: dict[int, Row], metric: str, answers: str
) -> None:
    got = {p: Decimal(str(getattr(row, metric))) for p, row in rows.items()}
    assert got == doubled(answers)


def test_the_direct_encounter_ranks_as_fide_after_round_9() -> None:
    ranked = standings(
        list(CROSSTABLE_9), games(CROSSTABLE_9), Settings(order=("match_points", "head_to_head"))
    )
    assert {row.participant: Decimal(row.match_points) for row in ranked} == doubled(
        TOTALS_AFTER_9
    )
    # A shared rank is one more than the number of players strictly ahead on points, or level on
    # points and ranked above by the direct encounter (the lot, always appended, is left out).
    key = {row.participant: (row.match_points, row.head_to_head) for row in ranked}
    shared = {
        player: 1 + sum(1 for other in key.values() if other > mine)
        for player, mine in key.items()
    }
    expected = {player: int(rank) for player, rank in enumerate(RANKS_AFTER_9.split(), start=1)}
    assert shared == expected
