"""«Телефон» (``telefon``, RULES.md sections 25, 32–34): section 36's worked examples 19–21 read
from RULES.md's JSON and from their committed copies, the preset's knobs, the «дом», several
doubles in one move, the first lead by 0:0, the losers' write-off and the match's losers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules.contract import check
from rules.errors import RulesError
from rules.fives import FivesJudge, FivesTable, LayError, make_fives_rules, parse_tile
from rules.tests._support import shared_dir, subset_mismatches

COPIES = Path(__file__).resolve().parent / "contract_examples" / "section36"
TELEFON = (19, 20, 21)
_EXAMPLE = re.compile(r"^(\d+)\. \*\*.*?```json\n(.*?)```\s*Output \(exit status (\d)\):\s*"
                      r"```json\n(.*?)```", re.S | re.M)


def _from_rules_md() -> dict[int, tuple[dict[str, Any], int, dict[str, Any]]]:
    shared = shared_dir()
    # shared/ beside the repository, or above a worktree of it
    found = [shared / "RULES.md"] if shared else []
    found += [p / "shared" / "RULES.md" for p in Path(__file__).resolve().parents]
    path = next((p for p in found if p.is_file()), None)
    if path is None:
        return {}
    text = path.read_text(encoding="utf-8")
    section = text[text.index("## 36."):]
    return {int(m[1]): (json.loads(m[2]), int(m[3]), json.loads(m[4]))
            for m in _EXAMPLE.finditer(section)}


def _from_copies() -> dict[int, tuple[dict[str, Any], int, dict[str, Any]]]:
    out = {}
    for path in sorted(COPIES.glob("*-telefon-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out[int(path.name[:2])] = (data["input"], data["exit_status"], data["output"])
    return out


RULES_MD = _from_rules_md()
COPIED = _from_copies()


def _judged(given: dict[str, Any], status: int, expected: dict[str, Any]) -> None:
    out, got = check(given)
    assert subset_mismatches(expected, out) == []
    assert got == status
    # the whole output, not only the keys shown: section 36 gives the whole of it
    assert set(out) == set(expected)
    for deal, want in zip(out["deals"], expected["deals"], strict=True):
        assert set(deal) == set(want)


@pytest.mark.skipif(not RULES_MD, reason="shared/RULES.md not found beside the repository")
@pytest.mark.parametrize("number", TELEFON)
def test_worked_example_from_rules_md(number: int) -> None:
    _judged(*RULES_MD[number])


@pytest.mark.parametrize("number", TELEFON)
def test_worked_example_from_the_committed_copy(number: int) -> None:
    _judged(*COPIED[number])
    if RULES_MD:  # the copies are RULES.md's, word for word
        assert COPIED[number] == RULES_MD[number]


# ------------------------------------------------------------------ the preset and its knobs
def test_the_preset_defaults() -> None:
    rules = make_fives_rules("telefon")
    assert (rules.players, rules.hand_size, rules.spinner, rules.spinner_count) == \
        (2, 7, "dom", "played_arms")
    assert (rules.target, rules.target_check, rules.deal_end, rules.bonus_round) == \
        (225, "deal", "write_off", "down")
    assert (rules.first_lead, rules.next_lead, rules.max_doubles) == \
        ("double_zero", "last_move", 4)
    assert make_fives_rules("telefon", None, 3).boneyard_size == 7   # «оставшиеся 7 … базар»
    four = make_fives_rules("telefon", None, 4)
    assert four.sides == ("NS", "EW") and four.boneyard_size == 0
    assert make_fives_rules("telefon", {"pairs": False}, 4).sides == ("N", "E", "S", "W")


@pytest.mark.parametrize("options", [
    {"hand_size": 5}, {"boneyard_keep": 1}, {"spinner": "none"}, {"bonus_divisor": 5},
    {"first_lead": "any"}, {"next_lead": "rotate"}, {"fish_tie": "eggs"}, {"domino_bonus": 10},
    {"min_record": 13}, {"pairs": True}, {"deal_end": "both"}, {"target": 0},
])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as caught:
        make_fives_rules("telefon", options)
    assert caught.value.problem.code == "bad_option"
    assert caught.value.problem.to_dict()["option"] == next(iter(options))


def test_the_older_fives_games_do_not_take_deal_end() -> None:
    for preset in ("fives", "muggins"):
        with pytest.raises(RulesError):
            make_fives_rules(preset, {"deal_end": "write_off"})
    out, status = check({"preset": "muggins", "options": {"deal_end": "bonus"}, "deals": []})
    assert status == 2 and out["errors"][0]["option"] == "deal_end"


# ------------------------------------------------------------------ the «дом»
def _table(*moves: tuple[str, str | None] | list[tuple[str, str | None]]) -> FivesTable:
    table = FivesTable(make_fives_rules("telefon"))
    for move in moves:
        if isinstance(move, list):
            table.play_doubles([parse_tile(t) for t, _ in move], [e for _, e in move])
        else:
            table.play(parse_tile(move[0]), move[1])
    return table


def test_of_doubles_laid_together_the_first_covered_is_the_dom() -> None:
    table = _table(("3:2", None), [("2:2", "R"), ("3:3", "L")])
    assert table.count == 10 and table.open_ends == {"L": 3, "R": 2}
    table.play(parse_tile("3:6"), "L")          # 3:3 is covered first: it is the «дом»
    assert table.open_ends == {"L": 6, "R": 2, "U": 3, "D": 3}
    assert table.count == 6 + 4                  # U and D count nothing yet (played_arms)
    assert table.legal_ends(parse_tile("3:1")) == ["U", "D"]


def test_a_double_laid_alone_is_the_dom_at_once() -> None:
    table = _table(("3:2", None), ("2:2", "R"), ("3:4", "L"))
    assert "U" not in table.open_ends           # 2:2's far side is not covered yet
    table.play(parse_tile("2:5"), "R")
    assert table.open_ends == {"L": 4, "R": 5, "U": 2, "D": 2}


def test_all_arms_counts_the_empty_arms() -> None:
    table = FivesTable(make_fives_rules("telefon", {"spinner_count": "all_arms"}))
    table.play(parse_tile("3:2"))
    table.play_doubles([parse_tile("2:2"), parse_tile("3:3")], ["R", "L"])
    assert table.play(parse_tile("2:4"), "R").count == 3 + 3 + 4 + 2 + 2


@pytest.mark.parametrize("tiles, ends, code", [
    (["2:2", "3:1"], ["R", "L"], "bad_multi_move"),    # not all doubles
    (["2:2", "2:2"], ["R", "L"], "bad_multi_move"),    # the same double twice
    (["2:2", "3:3"], ["R", "R"], "bad_multi_move"),    # two on one end
    (["2:2", "3:3"], ["L", "R"], "tile_does_not_match_end"),
    (["2:2", "3:3"], ["R", "U"], "bad_end"),            # U is not open
])
def test_a_bad_several_doubles_move_leaves_the_table_as_it_was(tiles: list[str],
                                                               ends: list[str | None],
                                                               code: str) -> None:
    table = _table(("3:2", None))
    with pytest.raises(LayError) as caught:
        table.play_doubles([parse_tile(t) for t in tiles], ends)
    assert caught.value.code == code
    assert table.open_ends == {"L": 3, "R": 2} and table.count == 5


# ------------------------------------------------------------------ the judge
def _ex19_play() -> list[dict[str, Any]]:
    play: list[dict[str, Any]] = json.loads(json.dumps(COPIED[19][0]["deals"][0]["play"]))
    return play


def _one(deal: dict[str, Any], players: int = 2, **options: Any) -> dict[str, Any]:
    opts = {"target": 20, "target_check": "move", **options}
    out, _ = check({"preset": "telefon", "players": players, "options": opts, "deals": [deal]})
    result: dict[str, Any] = out["deals"][0]
    return result


@pytest.mark.parametrize("change, code", [
    (lambda p: p[1]["tiles"][1].update(tile="3:1"), "bad_multi_move"),
    (lambda p: p[1]["tiles"][1].update(end="R"), "bad_multi_move"),
    (lambda p: p[1]["tiles"][1].update(tile="2:2", end="L"), "bad_multi_move"),
    (lambda p: p[1]["tiles"][1].update(tile="3:2"), "bad_multi_move"),
    (lambda p: p[1]["tiles"][0].update(end="L"), "bad_multi_move"),
    (lambda p: p[1]["tiles"][0].update(end="U"), "bad_end"),
    (lambda p: p[1]["tiles"][1].update(end="U"), "bad_end"),
    (lambda p: p[1]["tiles"][0].pop("end"), "ok"),      # 2:2 fits only R
    (lambda p: p[1].update(points=5), "points_mismatch"),
    (lambda p: p[1].update(tile="2:2"), "bad_deal"),    # both tile and tiles
    (lambda p: p[1].update(tiles=[{"tile": "2:2", "end": "R"}]), "bad_deal"),
    (lambda p: p[1]["tiles"][0].update(tile="9:9"), "bad_tile"),
    (lambda p: p[4].update(end="D"), "ok"),             # U and D are both open
    (lambda p: p.insert(0, {"seat": "N", "tiles": [{"tile": "1:1"}, {"tile": "4:4"}]}),
     "bad_end"),                                         # a lead is one tile
])
def test_each_change_to_example_19(change: Any, code: str) -> None:
    play = _ex19_play()
    change(play)
    deal = _one({"result": "target", "play": play})
    assert (deal["errors"][0]["code"] if deal["errors"] else "ok") == code, deal["errors"]
    if code == "bad_multi_move":
        assert deal["errors"][0]["entry"] == 2 and deal["errors"][0]["message_ru"]


def test_the_first_lead_is_the_holder_of_zero_zero_with_four_players() -> None:
    hands = {"N": "0:0 1:1 1:0 2:2 2:1 2:0", "E": "6:6 6:5 6:4 6:3 6:2 6:1 6:0",
             "S": "5:4 5:3 5:2 5:1 5:0 4:4 4:3", "W": "4:2 4:1 4:0 3:3 3:2 3:1 3:0"}
    good = {"result": "target", "play": [{"seat": "N", "tile": "5:5"}], "hands": hands}
    assert _one(good, 4, target=10)["errors"] == []
    # E leads while N's hand shows 0:0: N held it
    bad_hands = {**hands, "N": hands["N"] + " 5:5", "E": "6:6 6:5 6:3 6:2 6:1 6:0"}
    bad: dict[str, Any] = {"result": "target", "play": [{"seat": "E", "tile": "6:4"}],
                           "hands": bad_hands}
    error = _one(bad, 4, target=10)["errors"][0]
    assert (error["code"], error["expected"]) == ("wrong_leader", "N")
    # 0:0 laid by E and written in N's hand: no holder, the move's own check refuses it
    twice = {**bad, "play": [{"seat": "E", "tile": "0:0"}],
             "hands": {**bad_hands, "E": "6:6 6:5 6:3 6:2 6:1 6:0"}}
    assert _one(twice, 4, target=10)["errors"][0]["code"] == "duplicate_tile"
    # only the match's first accepted deal is checked; the light form is not
    judge = FivesJudge(make_fives_rules("telefon", {"target": 10, "target_check": "move"}, 4))
    state = judge.start()
    state.accepted = 1
    assert judge.judge(state, bad, apply=False).ok
    light = {"result": "target", "scores": [{"seat": "E", "points": 10}], "leader": "E",
             "hands": bad["hands"]}
    assert _one(light, 4, target=10)["errors"] == []
    # two players: 0:0 may be in the boneyard, nothing is checked
    two = {"result": "target", "play": [{"seat": "E", "tile": "6:4"}],
           "hands": {"N": "0:0 1:1 1:0 2:2 2:1 2:0 3:0"}}
    assert _one(two, 2, target=10)["errors"] == []


def _light(result: str, **extra: Any) -> dict[str, Any]:
    return {"result": result, "scores": [], **extra}


def test_write_off_is_floored_and_a_tied_fish_writes_nothing_off() -> None:
    out, status = check({"preset": "telefon", "deals": [
        _light("domino", by="N", scores=[{"seat": "E", "points": 35}], hands={"E": "6:4 5:3"}),
        _light("fish", by="E", scores=[{"seat": "N", "points": 10}],
               hands={"N": "6:6", "E": "6:5 1:0"}),
        _light("fish", hands={"N": "4:4", "E": "6:2"}),
    ]})
    assert status == 0
    first, second, third = out["deals"]
    assert (first["write_off"], first["totals"]) == ({"N": 0, "E": 15}, {"N": 0, "E": 20})
    assert (second["winner"], second["write_off"]) == (None, {"N": 0, "E": 0})
    assert second["next_leader"] == "E"          # the light form's fish: ``by``
    assert third["next_leader"] is None and third["recorded"] == {"N": 0, "E": 0}
    assert out["totals"] == {"N": 10, "E": 20}


def test_a_fish_writes_off_every_side_above_the_lowest() -> None:
    deal = _light("fish", hands={"N": "1:0", "E": "6:5", "S": "3:3"})
    out, _ = check({"preset": "telefon", "players": 3, "deals": [deal]})
    assert out["deals"][0]["write_off"] == {"N": 0, "E": 10, "S": 5}
    assert out["deals"][0]["winner"] == "N"


def test_deal_end_bonus_reads_section_16() -> None:
    deal = _light("domino", by="N", hands={"E": "6:4 5:3"})
    out, _ = check({"preset": "telefon", "options": {"deal_end": "bonus"}, "deals": [deal]})
    assert (out["deals"][0]["bonus"], out["deals"][0]["write_off"]) == \
        ({"N": 15, "E": 0}, {"N": 0, "E": 0})


def test_losers_at_the_target_and_by_time() -> None:
    win = _light("domino", by="N", scores=[{"seat": "N", "points": 20}], hands={"E": "1:0"})
    out, _ = check({"preset": "telefon", "options": {"target": 20}, "deals": [win]})
    assert (out["finished"], out["winner"], out["losers"]) == (True, "N", ["E"])
    tie = _light("fish", scores=[{"seat": "N", "points": 5}, {"seat": "E", "points": 5}],
                 hands={"N": "2:0", "E": "1:1"}, time_up=True)
    out, _ = check({"preset": "telefon", "deals": [tie]})
    assert (out["end"], out["winner"], out["losers"]) == ("time", "draw", [])
    both = _light("domino", by="N", scores=[{"seat": "N", "points": 20},
                                            {"seat": "E", "points": 20}], hands={"E": "1:0"})
    out, _ = check({"preset": "telefon", "options": {"target": 20}, "deals": [both]})
    assert (out["winner"], out["losers"]) == ("draw", [])   # all equal: no losers


def test_a_refused_deal_has_the_additions_and_changes_nothing() -> None:
    deal = _light("domino", by="N", scores=[{"seat": "E", "points": 40}], hands={"E": "1:0"})
    out, status = check({"preset": "telefon", "deals": [deal]})
    entry = out["deals"][0]
    assert status == 1 and entry["errors"][0]["code"] == "impossible_points"
    assert (entry["titles"], entry["void"], entry["write_off"]) == ([], False, {"N": 0, "E": 0})
    assert out["totals"] == {"N": 0, "E": 0} and out["losers"] == []


def test_the_judge_keeps_the_first_lead_check_until_a_deal_is_accepted() -> None:
    judge = FivesJudge(make_fives_rules("telefon", None, 4))
    state = judge.start()
    judge.judge(state, {"result": "domino"})      # refused: nothing accepted yet
    assert state.accepted == 0


def test_seed_003s_example_played_out_to_a_write_off() -> None:
    """Judged by hand from seed 003's text: its five moves, then E lays 1:1 and 4:4 together
    (2 + 8 + 0 + 0 = 10), N 2:5 on D (2 + 8 + 0 + 5 = 15), E 5:5 on D (20), N 4:6 (18: 0) and
    E goes out with 6:6 (24: 0). N holds 0:0 6:5, 11: writes off 10 from 35."""
    play = _ex19_play() + [
        {"seat": "E", "tiles": [{"tile": "1:1"}, {"tile": "4:4"}], "points": 10},
        {"seat": "N", "tile": "2:5", "end": "D", "points": 15},
        {"seat": "E", "tile": "5:5", "end": "D", "points": 20},
        {"seat": "N", "tile": "4:6", "end": "R", "points": 0},
        {"seat": "E", "tile": "6:6", "end": "R", "points": 0},
    ]
    deal = {"result": "domino", "play": play, "hands": {"N": "0:0 6:5"},
            "boneyard": "1:0 2:1 3:0 4:0 4:1 4:3 5:0 5:1 5:3 5:4 6:0 6:1 6:2 6:3"}
    out, status = check({"preset": "telefon", "deals": [deal]})
    entry = out["deals"][0]
    assert status == 0, entry["errors"]
    assert [m["count"] for m in entry["moves"]] == [5, 10, 10, 5, 5, 10, 15, 20, 18, 24]
    assert (entry["play_points"], entry["write_off"], entry["totals"], entry["next_leader"]) == \
        ({"N": 35, "E": 45}, {"N": 10, "E": 0}, {"N": 25, "E": 45}, "E")
