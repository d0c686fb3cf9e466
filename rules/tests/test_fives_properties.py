"""Property tests of the fives judge on simulated legal play (rules.simulate's fives games).

An independent model recounts every move from the tiles on the table (arms of tiles, the count
taken afresh each time, RULES.md section 18); the strong and light forms of a game must give the
same totals; and every single-tile or single-move tampering of a legal record must be refused
with the code that section 21's order gives.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import tiles as T
from rules.fives import FivesJudge, FivesRules, make_fives_rules
from rules.simulate import light_scores, play_fives_deal, play_fives_match

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("fives", 2, {}), ("fives", 3, {}), ("fives", 4, {"pairs": True}),
    ("muggins", 2, {}), ("muggins", 3, {}), ("muggins", 4, {}),
    ("muggins", 2, {"spinner_count": "played_arms"}), ("fives", 2, {"spinner": "first_double"}),
    ("muggins", 4, {"pairs": True, "fish_tie": "eggs"}), ("fives", 2, {"boneyard_keep": 2}),
    ("fives", 4, {"hand_size": 7}), ("muggins", 2, {"bonus_round": "up", "target": 250}),
]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
GAME = st.sampled_from(GAMES)
FAST = settings(max_examples=150, deadline=None)


def _rules(game: tuple[str, int, dict[str, Any]]) -> FivesRules:
    preset, players, options = game
    return make_fives_rules(preset, options, players)


# ------------------------------------------------------------------ independent model
def model_counts(rules: FivesRules, play: list[dict[str, Any]]) -> list[int]:
    """The count after each move, from the arms of tiles laid (not from ``FivesTable``)."""
    spinner_rule = rules.spinner == "first_double"
    arms: dict[str, list[tuple[int, int]]] = {"L": [], "R": [], "U": [], "D": []}
    lead: tuple[int, int] | None = None
    spinner: tuple[str, int] | None = None   # (arm, position) or ("lead", -1)
    counts = []
    for entry in play:
        if "tile" not in entry:
            continue
        t = T.parse_tiles(entry["tile"])[0]
        a, b = T.TILES[t]
        if lead is None:
            lead = (a, b)
            if spinner_rule and a == b:
                spinner = ("lead", -1)
            counts.append(a + b)
            continue
        end = entry.get("end") or next(e for e in "LRUD" if _open(arms, lead, spinner, e)
                                       and _shows(arms, lead, spinner, e) in (a, b))
        shown = _shows(arms, lead, spinner, end)
        laid = (shown, b if a == shown else a)  # (inner half, outer half)
        arms[end].append(laid)
        if spinner is None and spinner_rule and a == b:
            spinner = (end, len(arms[end]) - 1)
        counts.append(sum(_weight(rules, arms, lead, spinner, e) for e in "LRUD"
                          if _open(arms, lead, spinner, e)))
    return counts


def _arms_open(arms: dict[str, list[tuple[int, int]]], spinner: tuple[str, int] | None) -> bool:
    if spinner is None:
        return False
    arm, pos = spinner
    if arm == "lead":
        return bool(arms["L"]) and bool(arms["R"])
    return len(arms[arm]) > pos + 1


def _open(arms: dict[str, list[tuple[int, int]]], lead: tuple[int, int],
          spinner: tuple[str, int] | None, end: str) -> bool:
    return end in "LR" or _arms_open(arms, spinner)


def _spin_number(arms: dict[str, list[tuple[int, int]]], lead: tuple[int, int],
                 spinner: tuple[str, int] | None) -> int:
    assert spinner is not None
    arm, pos = spinner
    return lead[0] if arm == "lead" else arms[arm][pos][0]


def _shows(arms: dict[str, list[tuple[int, int]]], lead: tuple[int, int],
           spinner: tuple[str, int] | None, end: str) -> int:
    if arms[end]:
        return arms[end][-1][1]
    if end == "L":
        return lead[0]
    if end == "R":
        return lead[1]
    return _spin_number(arms, lead, spinner)


def _weight(rules: FivesRules, arms: dict[str, list[tuple[int, int]]], lead: tuple[int, int],
            spinner: tuple[str, int] | None, end: str) -> int:
    if arms[end]:
        inner, outer = arms[end][-1]
        return 2 * outer if inner == outer else outer   # a double at an end counts both halves
    if end in "LR":
        return 2 * lead[0] if lead[0] == lead[1] else _shows(arms, lead, spinner, end)
    return _spin_number(arms, lead, spinner) if rules.spinner_count == "all_arms" else 0


# ------------------------------------------------------------------ properties
@FAST
@given(GAME, SEEDS)
def test_play_points_are_the_count_rules(game: tuple[str, int, dict[str, Any]],
                                          seed: int) -> None:
    rules = _rules(game)
    rng = random.Random(seed)
    judge = FivesJudge(rules)
    state = judge.start()
    for _ in range(3):
        played = play_fives_deal(rules, rng, state.leader, state.totals)
        verdict = judge.judge(state, played.record)
        assert verdict.ok, verdict.errors
        counts = model_counts(rules, played.record["play"])
        assert [m["count"] for m in verdict.moves] == counts
        expected = [c if c > 0 and c % 5 == 0 else 0 for c in counts]
        assert [m["points"] for m in verdict.moves] == expected
        assert [p for _, _, p in played.moves] == expected
        assert max(expected, default=0) <= rules.max_move_points
        by_side = dict.fromkeys(rules.sides, 0)
        for m, points in zip(verdict.moves, expected, strict=True):
            by_side[judge.side_of[m["seat"]]] += points
        assert verdict.play_points == by_side
        if state.finished:
            break


@FAST
@given(GAME, SEEDS, st.sampled_from(["tiles", "counted", "pips"]))
def test_strong_and_light_forms_give_the_same_totals(game: tuple[str, int, dict[str, Any]],
                                                      seed: int, style: str) -> None:
    rules = _rules(game)
    strong = play_fives_match(rules, random.Random(seed), style=style, max_deals=12)
    judge = FivesJudge(rules)
    verdict = judge.fold(strong)
    assert verdict.ok
    light = [light_scores(record, deal.moves)
             for record, deal in zip(strong, verdict.deals, strict=True)]
    light_verdict = judge.fold(light)
    assert light_verdict.ok, [d.errors for d in light_verdict.deals if not d.ok]
    for a, b in zip(verdict.deals, light_verdict.deals, strict=True):
        assert (a.recorded, a.bonus, a.play_points, a.winner) == \
            (b.recorded, b.bonus, b.play_points, b.winner)
        if strong[a.n - 1].get("leader") is not None or rules.next_lead == "winner":
            assert a.next_leader == b.next_leader
    assert verdict.state.totals == light_verdict.state.totals
    assert (verdict.state.finished, verdict.state.winner, verdict.state.eggs) == \
        (light_verdict.state.finished, light_verdict.state.winner, light_verdict.state.eggs)


def test_simulated_matches_are_accepted_and_end() -> None:
    rng = random.Random(7)
    for game in GAMES:
        rules = _rules(game)
        for style in ("tiles", "counted", "pips"):
            records = play_fives_match(rules, rng, style=style, declare=True)
            verdict = FivesJudge(rules).fold(records)
            assert verdict.ok and verdict.state.finished, game
            assert verdict.state.end == "target"
