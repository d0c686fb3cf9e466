"""RULES.md section 12: one test per error code, plus bad_input, bad_deal and the error staging.

Every refused deal is judged between two legal deals: the deal before it (worked example 1, EW 58,
next leader E) and a fish after it, led by E, that NS wins with 65. So each test also shows that a
refused deal changes no totals, does not move the lead, and that the next deal is still judged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.contract import check, check_text
from rules.engine.types import DealVerdict, MatchVerdict
from rules.errors import RulesError
from rules.presets import make_rules
from rules.tests._support import (
    EX1_HANDS,
    FISH_HANDS,
    NO_REDEAL_HANDS,
    codes,
    domino_pips,
    ex1,
    fish,
    fold,
)

BEFORE_TOTALS = {"NS": 0, "EW": 58}
AFTER_TOTALS = {"NS": 65, "EW": 58}


def around(bad: dict[str, Any]) -> tuple[DealVerdict, MatchVerdict]:
    """Judge ``bad`` as deal 2 of a sport match between two legal deals."""
    verdict = fold([ex1(), bad, fish(leader="E")])
    first, refused, after = verdict.deals
    assert first.ok, codes(first)
    assert after.ok, codes(after)  # the deal after a refused one is still judged
    assert after.recorded == {"NS": 65, "EW": 0}
    assert verdict.state.totals == AFTER_TOTALS
    return refused, verdict


def assert_refused(deal: DealVerdict, code: str, seat: str | None = None,
                   tile: str | None = None, totals: dict[str, int] | None = None) -> None:
    assert not deal.ok
    assert codes(deal) == [code]
    problem = deal.errors[0]
    en, ru = problem.message("en"), problem.message("ru")
    assert en.strip() and ru.strip()
    assert en != ru
    out = problem.to_dict()
    assert out["code"] == code and out["message"] == en
    if seat is not None:
        assert out.get("seat") == seat
        assert seat in en and seat in ru
    if tile is not None:
        assert out.get("tile") == tile
        assert tile in en and tile in ru
    assert deal.winner is None
    assert set(deal.recorded.values()) == {0}
    assert deal.totals == (BEFORE_TOTALS if totals is None else totals)


def with_hands(**hands: str) -> dict[str, Any]:
    deal = ex1()
    del deal["leader"]
    deal["hands"].update(hands)
    return deal


# ------------------------------------------------------------------ tiles
@pytest.mark.parametrize("text", ["3:4 1:9", "3:4 x", "3:4 7:1", "3:4 1;", "3:4 1/0", "3:4 [1:0]"])
def test_bad_tile_names_seat_and_token(text: str) -> None:
    deal, _ = around(with_hands(N=text))
    assert_refused(deal, "bad_tile", seat="N")
    assert deal.errors[0].to_dict()["tile"]


def test_bad_tile_reports_the_unreadable_token() -> None:
    deal, _ = around(with_hands(N="3:4 1:9"))
    assert_refused(deal, "bad_tile", seat="N", tile="1:9")


def test_bad_tile_for_non_ascii_digits() -> None:
    deal, _ = around(with_hands(N="3:4 \u0661:\u0660"))
    assert codes(deal) == ["bad_tile"]


def test_duplicate_tile_in_two_hands_names_the_tile() -> None:
    deal, _ = around(with_hands(W="2:2 4:3"))  # 3:4 is in N's hand
    assert_refused(deal, "duplicate_tile", tile="4:3")


def test_duplicate_tile_within_one_hand_in_any_notation() -> None:
    deal, _ = around(with_hands(N="3:4 [4|3]"))
    assert_refused(deal, "duplicate_tile", seat="N", tile="4:3")


def test_duplicate_tile_between_hand_and_boneyard() -> None:
    verdict = fold([
        {"result": "domino", "by": "N", "hands": {"E": "3:1"}, "boneyard": "3:1 6:6"},
    ], preset="kozel", players=2)
    assert codes(verdict.deals[0]) == ["duplicate_tile"]
    assert verdict.deals[0].errors[0].to_dict()["tile"] == "3:1"


# -------------------------------------------------------------- structure
def test_hand_too_large_names_seat() -> None:
    deal, _ = around(with_hands(N="3:4 1:0 6:5 6:4 6:3 6:2 6:1 6:0"))
    assert_refused(deal, "hand_too_large", seat="N")
    assert "8" in deal.errors[0].message("en")


def test_missing_hand_names_seat() -> None:
    deal = ex1()
    del deal["leader"]
    del deal["hands"]["W"]
    refused, _ = around(deal)
    assert_refused(refused, "missing_hand", seat="W")


def test_finisher_may_be_left_out_or_given_empty() -> None:
    given_empty = fold([ex1(hands={**EX1_HANDS, "E": ""})]).deals[0]
    assert given_empty.ok, codes(given_empty)
    assert given_empty.recorded == {"NS": 0, "EW": 58}
    as_pips = fold([domino_pips("E", {"N": 8, "E": 0, "S": 50, "W": 9})]).deals[0]
    assert as_pips.ok, codes(as_pips)


def test_finisher_has_tiles_names_seat() -> None:
    deal, _ = around(with_hands(E="5:5"))
    assert_refused(deal, "finisher_has_tiles", seat="E")


def test_finisher_has_tiles_from_pips() -> None:
    deal, _ = around(domino_pips("E", {"N": 8, "E": 3, "S": 50, "W": 9}))
    assert_refused(deal, "finisher_has_tiles", seat="E")


def test_two_empty_hands_names_the_other_empty_seat() -> None:
    deal, _ = around(with_hands(W=""))
    assert_refused(deal, "two_empty_hands", seat="W")


def test_pips_mismatch_names_seat_and_expected() -> None:
    deal = with_hands()
    deal["pips"] = {"N": 9}
    refused, _ = around(deal)
    assert_refused(refused, "pips_mismatch", seat="N")
    assert refused.errors[0].to_dict()["expected"] == 8


def test_matching_pips_beside_tiles_are_accepted() -> None:
    deal = ex1(pips={"N": 8, "S": 12, "W": 9})
    assert fold([deal]).deals[0].ok


@pytest.mark.parametrize("pips", [-1, 70])
def test_pips_out_of_range_names_seat(pips: int) -> None:
    refused, _ = around(domino_pips("E", {"N": pips, "S": 5, "W": 9}))
    assert_refused(refused, "pips_out_of_range", seat="N")


def test_seven_tile_pip_maximum_is_accepted() -> None:
    # 6:6 6:5 6:4 5:5 6:3 5:4 6:2 = 69, the most seven tiles can hold
    assert fold([domino_pips("E", {"N": 69, "S": 5, "W": 9})]).deals[0].ok


def test_pips_out_of_range_for_the_size_of_a_written_hand() -> None:
    deal = with_hands()
    deal["pips"] = {"N": 30}  # two tiles hold at most 12 + 11
    refused, _ = around(deal)
    assert_refused(refused, "pips_out_of_range", seat="N")


# ------------------------------------------------------------ consistency
def test_not_a_line_odd_numbers() -> None:
    refused, _ = around(with_hands(W="2:2 5:1"))
    assert_refused(refused, "not_a_line")


def test_not_a_line_separate_groups() -> None:
    # table: 0:0 alone, and the line 1:1 1:2 2:2 2:3 3:3 3:4 — parity is fine, the groups are not
    refused, _ = around({"result": "domino", "by": "E", "hands": {
        "N": "6:6 6:3 5:4 5:1 4:1 3:0 2:0",
        "S": "6:5 6:2 5:5 5:2 4:4 4:0 3:1",
        "W": "6:4 6:1 6:0 5:3 5:0 4:2 1:0",
    }})
    assert_refused(refused, "not_a_line")


def test_not_blocked_when_a_hand_is_empty() -> None:
    deal = ex1(result="fish", hands={**EX1_HANDS, "E": ""})
    del deal["leader"]
    refused, _ = around(deal)
    assert not refused.ok
    assert set(codes(refused)) == {"not_blocked"}
    assert any(p.to_dict().get("seat") == "E" for p in refused.errors)
    assert refused.totals == BEFORE_TOTALS


def test_not_blocked_when_no_number_is_exhausted() -> None:
    # The table 0:0 1:0 2:1 2:0 is a closed chain, but every number on it is still in a hand.
    refused, _ = around({"result": "fish", "hands": {
        "N": "6:6 6:5 6:4 6:3 6:2 6:1", "E": "6:0 5:5 5:4 5:3 5:2 5:1",
        "S": "5:0 4:4 4:3 4:2 4:1 4:0", "W": "3:3 3:2 3:1 3:0 2:2 1:1",
    }})
    assert_refused(refused, "not_blocked")


def test_not_blocked_when_the_ends_can_still_be_matched() -> None:
    # The legal fish with 6:0 taken back into W's hand: the ends 0 and 6 are open.
    refused, _ = around(fish(hands={**FISH_HANDS, "W": FISH_HANDS["W"] + " 6:0"}))
    assert_refused(refused, "not_blocked")


def test_wrong_leader_names_seat_and_expected() -> None:
    verdict = fold([ex1(leader="E"), ex1()])
    refused, after = verdict.deals
    assert_refused(refused, "wrong_leader", seat="E", totals={"NS": 0, "EW": 0})
    assert refused.errors[0].to_dict()["expected"] == "N"
    assert refused.next_leader == "N"
    assert after.ok  # N still leads the next deal


def test_bad_lead_tile_still_in_a_hand() -> None:
    refused, _ = around(with_hands() | {"lead_tile": "3:4"})
    assert_refused(refused, "bad_lead_tile", seat="N", tile="4:3")


def test_bad_lead_tile_against_ladder_with_four_players() -> None:
    verdict = fold([ex1(leader=None, lead_tile="2:2"), ex1(leader=None, lead_tile="1:1")],
                   preset="kozel")
    refused, after = verdict.deals
    assert_refused(refused, "bad_lead_tile", tile="2:2", totals={"NS": 0, "EW": 0})
    assert after.ok, codes(after)


def test_bad_last_tiles_still_in_hand() -> None:
    refused, _ = around(with_hands() | {"last_tiles": "1:0"})
    assert_refused(refused, "bad_last_tiles", tile="1:0")


def test_bad_last_tiles_two_tiles_without_two_doubles() -> None:
    refused, _ = around(with_hands() | {"last_tiles": "5:5 3:3"})
    assert_refused(refused, "bad_last_tiles")


def test_not_a_redeal() -> None:
    refused, _ = around({"result": "redeal", "hands": NO_REDEAL_HANDS})
    assert_refused(refused, "not_a_redeal")
    assert "5" in refused.errors[0].message("en") and "6" in refused.errors[0].message("en")


def test_declared_mismatch_carries_expected() -> None:
    refused, _ = around(fish(declared={"NS": 64}))
    assert_refused(refused, "declared_mismatch")
    assert refused.errors[0].to_dict()["expected"] == {"NS": 65, "EW": 0}


def test_declared_side_left_out_counts_as_zero() -> None:
    refused, _ = around(fish(declared={}))
    assert_refused(refused, "declared_mismatch")
    ok = fold([fish(declared={"NS": 65})]).deals[0]
    assert ok.ok
    ok = fold([fish(declared={"NS": 65, "EW": 0})]).deals[0]
    assert ok.ok


def test_declared_mismatch_only_for_an_otherwise_legal_deal() -> None:
    refused, _ = around(with_hands(W="2:2 5:1") | {"declared": {"EW": 1}})
    assert codes(refused) == ["not_a_line"]


def test_declared_points_on_a_redeal_are_a_mismatch() -> None:
    from rules.tests._support import REDEAL_HANDS
    ok = fold([{"result": "redeal", "hands": REDEAL_HANDS, "declared": {}}]).deals[0]
    assert ok.ok
    refused, _ = around({"result": "redeal", "hands": REDEAL_HANDS, "declared": {"NS": 5}})
    assert_refused(refused, "declared_mismatch")


def test_deal_after_end_is_reported_alone() -> None:
    deals = [domino_pips("N", {"E": 1, "S": 2, "W": 3}) for _ in range(4)]
    # even a deal full of faults is refused only as deal_after_end
    deals.append({"result": "domino", "by": "E", "hands": {"N": "9:9 3:4 3:4"}})
    deals.append(domino_pips("N", {"E": 1, "S": 2, "W": 3}))
    verdict = fold(deals, options={"deals": 4})
    assert verdict.state.finished
    for late in verdict.deals[4:]:
        assert codes(late) == ["deal_after_end"]
        assert late.errors[0].message("en") and late.errors[0].message("ru")
        assert late.totals == {"NS": 16, "EW": 0}
        assert set(late.recorded.values()) == {0}
    assert verdict.state.totals == {"NS": 16, "EW": 0}
    assert [d.n for d in verdict.deals] == [1, 2, 3, 4, 5, 6]


# ------------------------------------------------------------- whole input
@pytest.mark.parametrize("options", [{"deals": 6}, {"target": 0}, {"colour": "red"},
                                     {"deals": "8"}, {"players": 5}])
def test_bad_option_refuses_the_whole_input(options: dict[str, Any]) -> None:
    out, status = check({"preset": "sport", "options": options, "deals": [ex1()]})
    assert status == 2
    assert out["ok"] is False
    assert "deals" not in out
    assert [e["code"] for e in out["errors"]] == ["bad_option"]
    assert out["errors"][0]["message"] and out["errors"][0]["message_ru"]
    with pytest.raises(RulesError) as err:
        make_rules("sport", options)
    assert err.value.code == "bad_option"


def test_bad_option_unknown_preset() -> None:
    out, status = check({"preset": "poker", "deals": []})
    assert status == 2 and [e["code"] for e in out["errors"]] == ["bad_option"]


@pytest.mark.parametrize("text", ["{", "", "not json", "\xff\xfe"])
def test_bad_input_not_json(text: str) -> None:
    out, status = check_text(text.encode("latin-1"))
    assert status == 2
    assert out["ok"] is False and [e["code"] for e in out["errors"]] == ["bad_input"]
    assert out["errors"][0]["message"]


@pytest.mark.parametrize("data", [[], "x", 3, {"deals": {"a": 1}}, {"deals": "x"}])
def test_bad_input_wrong_shape(data: Any) -> None:
    out, status = check(json.loads(json.dumps(data)))
    assert status == 2
    assert [e["code"] for e in out["errors"]] == ["bad_input"]


# ---------------------------------------------------------------- bad_deal
@pytest.mark.parametrize("bad", [
    {"result": "win", "by": "E", "pips": {"N": 1, "S": 1, "W": 1}},
    {"by": "E", "pips": {"N": 1, "S": 1, "W": 1}},
    {"result": "domino", "by": "X", "pips": {"N": 1, "S": 1, "W": 1}},
    {"result": "domino", "pips": {"N": 1, "S": 1, "W": 1}},
    {"result": "domino", "by": "E", "leader": "Q", "pips": {"N": 1, "S": 1, "W": 1}},
    {"result": "domino", "by": "E", "pips": {"N": 1, "S": 1, "W": 1, "Z": 3}},
    {"result": "domino", "by": "E", "hands": {"N": "1:0", "S": "1:1", "W": "2:0", "Z": "3:3"}},
    {"result": "domino", "by": "E", "pips": {"N": "1", "S": 1, "W": 1}},
    {"result": "domino", "by": "E", "pips": {"N": 1.5, "S": 1, "W": 1}},
    {"result": "domino", "by": "E", "pips": {"N": True, "S": 1, "W": 1}},
    {"result": "domino", "by": "E", "pips": [1, 2, 3]},
    {"result": "domino", "by": "E", "hands": "1:0 2:0"},
    ["domino"],
])
def test_bad_deal(bad: Any) -> None:
    refused, _ = around(bad)
    assert_refused(refused, "bad_deal")


def test_seat_not_in_play_in_a_two_player_game_is_bad_deal() -> None:
    verdict = fold([domino_pips("N", {"E": 3, "S": 4})], preset="kozel", players=2)
    assert codes(verdict.deals[0]) == ["bad_deal"]


# ----------------------------------------------------------------- staging
def test_tile_errors_are_reported_before_anything_else() -> None:
    deal = ex1()
    deal["hands"] = {"N": "3:4 1:9 6:5 6:4 6:3 6:2 6:1 6:0"}  # W and S missing, N too large
    refused, _ = around(deal)
    assert codes(refused) == ["bad_tile"]


def test_structure_errors_before_consistency() -> None:
    deal = with_hands(W="2:2 5:1")  # not a line …
    deal["hands"]["N"] = "3:4 1:0 6:5 6:4 6:3 6:2 6:1 6:0"  # … and a hand of 8
    deal["lead_tile"] = "3:4"
    refused, _ = around(deal)
    assert codes(refused) == ["hand_too_large"]


def test_structure_errors_are_all_reported() -> None:
    deal = with_hands(E="5:5")
    del deal["hands"]["W"]
    refused, _ = around(deal)
    assert sorted(codes(refused)) == ["finisher_has_tiles", "missing_hand"]


def test_consistency_errors_are_all_reported() -> None:
    deal = with_hands(W="2:2 5:1") | {"leader": "W", "lead_tile": "3:4"}
    refused, _ = around(deal)
    assert sorted(codes(refused)) == ["bad_lead_tile", "not_a_line", "wrong_leader"]


@pytest.mark.parametrize("bad", [
    with_hands(W="2:2 5:1"),
    {"result": "fish", "hands": {
        "N": "6:6 6:5 6:4 6:3 6:2 6:1", "E": "6:0 5:5 5:4 5:3 5:2 5:1",
        "S": "5:0 4:4 4:3 4:2 4:1 4:0", "W": "3:3 3:2 3:1 3:0 2:2 1:1"}},
    {"result": "win"},
], ids=["not_a_line", "not_blocked", "bad_deal"])
def test_russian_message_has_no_english_words(bad: dict[str, Any]) -> None:
    import re
    refused, _ = around(bad)
    ru = refused.errors[0].message("ru")
    # Field names and values of the JSON record stay as written, quoted «like this».
    prose = re.sub(r"«[^»]*»", "", ru)
    assert not re.search(r"[A-Za-z]{3,}", prose), ru
