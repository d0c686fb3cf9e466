"""RULES.md as clarified on 2026-12-01, sections 4 and 7–12, through the ``rules check`` contract.

Each test feeds the contract's input shape to ``rules.contract.check`` and reads its output, as
``python -m rules check`` would print it. The tests name the section they pin down.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import EXIT_OK, EXIT_REFUSED, check
from rules.tests._support import FISH_HANDS, REDEAL_HANDS, ex1


def run(deals: list[dict[str, Any]], preset: str = "sport", options: dict[str, Any] | None = None,
        players: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"preset": preset, "deals": deals}
    if options is not None:
        data["options"] = options
    if players is not None:
        data["players"] = players
    out, status = check(data)
    assert status == (EXIT_OK if out["ok"] else EXIT_REFUSED)
    return out


def error_codes(deal: dict[str, Any]) -> list[str]:
    return [e["code"] for e in deal["errors"]]


def domino(by: str, pips: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"result": "domino", "by": by, "pips": pips, **extra}


def fish(pips: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"result": "fish", "pips": pips, **extra}


# ------------------------------------------------- section 4: a 0-pip hand is the lone 0:0
def test_issue_kozel_zero_pip_loser_is_the_lone_zero_zero_and_ns_records_31() -> None:
    out = run([domino("E", {"N": 0, "S": 6, "W": 12})], preset="kozel")
    deal = out["deals"][0]
    assert deal["ok"], deal["errors"]
    assert deal["values"] == {"NS": 25 + 6, "EW": 12}
    assert deal["recorded"] == {"NS": 31, "EW": 0}
    assert deal["hanging"] == {"NS": 0, "EW": 0}
    assert out["totals"] == {"NS": 31, "EW": 0}


def test_zero_pip_loser_counts_25_in_a_sport_domino() -> None:
    deal = run([domino("E", {"N": 0, "S": 5, "W": 3})])["deals"][0]
    assert deal["ok"], deal["errors"]
    assert deal["values"] == {"NS": 30, "EW": 3}
    assert deal["recorded"] == {"NS": 0, "EW": 30}


def test_zero_pip_hand_in_a_fish_counts_25_only_with_bonus_on_fish() -> None:
    deals = [fish({"N": 0, "E": 4, "S": 6, "W": 3})]
    plain = run(deals)["deals"][0]
    assert plain["values"] == {"NS": 6, "EW": 7}
    assert plain["winner"] == "NS" and plain["recorded"] == {"NS": 7, "EW": 0}
    bonus = run(deals, options={"bonus_on_fish": True})["deals"][0]
    assert bonus["ok"], bonus["errors"]
    assert bonus["values"] == {"NS": 31, "EW": 7}
    assert bonus["winner"] == "EW" and bonus["recorded"] == {"NS": 0, "EW": 31}


def test_zero_pip_hand_where_the_preset_has_no_lone_zero_value_counts_zero() -> None:
    deal = run([domino("E", {"N": 0, "S": 5, "W": 3})], preset="international")["deals"][0]
    assert deal["ok"] and deal["values"] == {"NS": 5, "EW": 3}


def test_two_zero_pip_hands_in_a_domino_are_the_same_zero_zero_twice() -> None:
    out = run([domino("E", {"N": 0, "S": 0, "W": 3})])
    deal = out["deals"][0]
    assert error_codes(deal) == ["duplicate_tile"]
    assert deal["errors"][0]["tile"] == "0:0" and deal["errors"][0]["seat"] == "S"
    assert "0:0" in deal["errors"][0]["message"] and "0:0" in deal["errors"][0]["message_ru"]
    assert out["totals"] == {"NS": 0, "EW": 0}


def test_two_zero_pip_hands_in_a_fish_are_duplicate_tile() -> None:
    deal = run([fish({"N": 0, "E": 4, "S": 5, "W": 0})])["deals"][0]
    assert error_codes(deal) == ["duplicate_tile"]
    assert deal["errors"][0]["tile"] == "0:0"


def test_zero_pip_hand_beside_a_hand_that_lists_zero_zero_is_duplicate_tile() -> None:
    deal = run([{"result": "domino", "by": "E", "hands": {"N": "0:0 1:1"},
                 "pips": {"S": 0, "W": 4}}])["deals"][0]
    assert error_codes(deal) == ["duplicate_tile"]
    assert deal["errors"][0]["seat"] == "S"


def test_zero_pip_hand_beside_a_boneyard_that_holds_zero_zero_is_duplicate_tile() -> None:
    deal = run([{"result": "domino", "by": "N", "pips": {"E": 0, "S": 5},
                 "boneyard": "0:0 6:6"}], preset="kozel", players=3)["deals"][0]
    assert error_codes(deal) == ["duplicate_tile"]


def test_the_finisher_may_be_given_zero_pips_beside_a_zero_pip_loser() -> None:
    deal = run([domino("E", {"E": 0, "N": 0, "S": 5, "W": 3})])["deals"][0]
    assert deal["ok"], deal["errors"]
    assert deal["values"] == {"NS": 30, "EW": 3}


def test_an_empty_hand_is_written_as_an_empty_string_not_as_zero_pips() -> None:
    deal = run([{"result": "domino", "by": "E", "hands": {"N": "", "S": "1:1", "W": "2:1"},
                 "pips": {"N": 0}}])["deals"][0]
    assert error_codes(deal) == ["two_empty_hands"]


def test_zero_pip_hand_holds_zero_zero_so_it_cannot_be_the_lead_tile() -> None:
    deal = run([domino("E", {"N": 0, "S": 5, "W": 3}, lead_tile="0:0")])["deals"][0]
    assert error_codes(deal) == ["bad_lead_tile"]
    assert deal["errors"][0]["seat"] == "N"


def test_zero_pip_hand_holds_zero_zero_so_it_cannot_be_the_finishing_tile() -> None:
    deal = run([domino("E", {"N": 0, "S": 5, "W": 3}, last_tiles="0:0")],
               preset="morskoy")["deals"][0]
    assert error_codes(deal) == ["bad_last_tiles"]


def test_zero_pip_hand_completes_the_table_for_the_line_check() -> None:
    # N 3:4 1:0, S 6:6 and W's 0:0 off the table: 3, 4, 1 and 0 appear an odd number of times.
    broken = {"result": "domino", "by": "E", "hands": {"N": "3:4 1:0", "S": "6:6"},
              "pips": {"W": 0}}
    assert error_codes(run([broken])["deals"][0]) == ["not_a_line"]
    # N 3:1 instead: only 3 and 1 are odd, a line; W's 0:0 counts 25 beside S's lone 6:6 (50).
    legal = {"result": "domino", "by": "E", "hands": {"N": "3:1", "S": "6:6"}, "pips": {"W": 0}}
    deal = run([legal])["deals"][0]
    assert deal["ok"], deal["errors"]
    assert deal["values"] == {"NS": 4 + 50, "EW": 25}
    assert deal["recorded"] == {"NS": 0, "EW": 54}


# ------------------------------------------------- section 11: Морской instant win
@pytest.mark.parametrize("blocker", ["N", "E"])
@pytest.mark.parametrize("last", ["6:6", "0:0", "0:0 6:6"])
def test_morskoy_fish_never_ends_the_match_at_once(blocker: str, last: str) -> None:
    out = run([fish({"N": 5, "E": 20, "S": 5, "W": 20}, by=blocker, last_tiles=last)],
              preset="morskoy")
    deal = out["deals"][0]
    assert deal["ok"], deal["errors"]
    assert deal["winner"] == "NS" and deal["recorded"] == {"NS": 40, "EW": 0}
    assert out["finished"] is False and out["end"] is None and out["winner"] is None


@pytest.mark.parametrize("last", ["6:6", "0:0", "0:0 6:6"])
def test_morskoy_going_out_on_zero_zero_or_six_six_ends_the_match(last: str) -> None:
    out = run([domino("W", {"N": 3, "E": 2, "S": 3}, last_tiles=last)], preset="morskoy")
    assert out["deals"][0]["ok"]
    assert out["finished"] and out["end"] == "instant" and out["winner"] == "EW"


# ------------------------------------------------- section 9: the ladder with four players
def test_ladder_asks_for_one_one_until_the_first_counted_deal_is_accepted() -> None:
    redeal = {"result": "redeal", "leader": "S", "hands": dict(REDEAL_HANDS)}
    refused = ex1(leader=None, lead_tile="1:1", declared={"EW": 1})
    out = run([
        ex1(leader=None, lead_tile="5:5"),      # the first deal: 1:1 is led
        redeal,                                 # a redeal does not fix the leader
        refused,                                # a refused deal changes nothing
        ex1(leader="W", lead_tile="5:5"),       # still a deal the ladder names
        ex1(leader="W", lead_tile="1:1"),       # any leader: the holder of 1:1 is not known
        ex1(leader="E", lead_tile="5:5"),       # counted: the lead is E's, any tile on the table
    ], preset="kozel")
    deals = out["deals"]
    assert error_codes(deals[0]) == ["bad_lead_tile"]
    assert deals[0]["errors"][0]["expected"] == "1:1"
    assert deals[1]["ok"] and deals[1]["next_leader"] is None
    assert error_codes(deals[2]) == ["declared_mismatch"]
    assert error_codes(deals[3]) == ["bad_lead_tile"]
    assert deals[4]["ok"], deals[4]["errors"]
    assert deals[4]["next_leader"] == "E"
    assert deals[5]["ok"], deals[5]["errors"]


def test_ladder_after_eggs_the_lead_tile_is_free() -> None:
    hands = dict(FISH_HANDS)
    out = run([{"result": "fish", "hands": hands, "lead_tile": "0:0"}], preset="kozel")
    assert error_codes(out["deals"][0]) == ["bad_lead_tile"]
    eggs = {"result": "fish", "by": "W", "leader": "N", "lead_tile": "1:1",
            "pips": {"N": 6, "E": 7, "S": 8, "W": 7}}
    out = run([eggs, {"result": "fish", "by": "W", "leader": "N", "hands": hands,
                      "lead_tile": "0:0"}], preset="kozel")
    first, second = out["deals"]
    assert first["ok"] and first["winner"] is None and first["next_leader"] == "N"
    assert second["ok"], second["errors"]


def test_ladder_with_three_players_does_not_check_the_lead() -> None:
    out = run([domino("E", {"N": 20, "S": 30}, leader="S", lead_tile="4:4")], preset="kozel",
              players=3)
    assert out["deals"][0]["ok"], out["deals"][0]["errors"]


# ------------------------------------------------- section 10: time
def test_time_up_on_a_redeal_ends_the_match() -> None:
    out = run([ex1(), {"result": "redeal", "hands": dict(REDEAL_HANDS), "time_up": True},
               ex1(leader="E")])
    first, redeal, late = out["deals"]
    assert first["ok"] and redeal["ok"]
    assert out["finished"] and out["end"] == "time" and out["winner"] == "EW"
    assert error_codes(late) == ["deal_after_end"]


def test_time_up_on_a_redeal_with_equal_totals_plays_on_under_extra_deal() -> None:
    redeal = {"result": "redeal", "hands": dict(REDEAL_HANDS), "time_up": True}
    out = run([redeal, redeal, ex1()], options={"time_tie": "extra_deal"})
    assert [d["ok"] for d in out["deals"]] == [True, True, True]
    assert out["finished"] and out["end"] == "time" and out["winner"] == "EW"
    drawn = run([redeal])
    assert drawn["finished"] and drawn["end"] == "time" and drawn["winner"] == "draw"


def test_target_reached_on_the_time_up_deal_ends_by_the_target() -> None:
    big = domino("E", {"N": 60, "S": 40, "W": 1})  # EW 101 under winner_takes_all
    out = run([big, domino("E", {"N": 60, "S": 40, "W": 1}, time_up=True)],
              preset="international")
    assert out["totals"] == {"NS": 0, "EW": 202}
    assert out["finished"] and out["end"] == "target" and out["winner"] == "EW"


def test_deals_limit_reached_on_the_time_up_deal_ends_by_the_deals() -> None:
    deals = [ex1(leader=None) for _ in range(3)] + [ex1(leader=None, time_up=True)]
    out = run(deals, options={"deals": 4})
    assert out["finished"] and out["end"] == "deals" and out["winner"] == "EW"


def test_going_out_on_six_six_on_the_time_up_deal_ends_instant() -> None:
    out = run([domino("W", {"N": 3, "E": 2, "S": 3}, last_tiles="6:6", time_up=True)],
              preset="morskoy")
    assert out["finished"] and out["end"] == "instant" and out["winner"] == "EW"


def test_time_up_on_a_refused_deal_is_ignored() -> None:
    out = run([ex1(), ex1(leader="E", declared={"EW": 1}, time_up=True)])
    assert error_codes(out["deals"][1]) == ["declared_mismatch"]
    assert out["finished"] is False


# ------------------------------------------------- sections 7 and 8: eggs and hanging points
def test_a_tied_fish_drops_hanging_points_and_a_redeal_keeps_them() -> None:
    hang = domino("E", {"N": 6, "S": 4, "W": 2})  # NS 10 < 13: hangs
    tied = fish({"N": 6, "E": 7, "S": 8, "W": 7}, by="E")
    redeal = {"result": "redeal", "hands": dict(REDEAL_HANDS)}
    dropped = run([hang, tied], preset="kozel")["deals"]
    assert dropped[0]["hanging"] == {"NS": 10, "EW": 0}
    assert dropped[1]["winner"] is None and dropped[1]["hanging"] == {"NS": 0, "EW": 0}
    kept = run([hang, redeal, domino("W", {"N": 2, "S": 4, "E": 1})], preset="kozel")["deals"]
    assert kept[1]["ok"] and kept[1]["hanging"] == {"NS": 10, "EW": 0}
    assert kept[2]["recorded"] == {"NS": 16, "EW": 0}


def test_eggs_go_to_the_first_loser_in_seat_order_when_the_losers_tie() -> None:
    out = run([fish({"N": 5, "E": 5, "S": 9}), domino("N", {"E": 14, "S": 14})], preset="kozel",
              players=3)
    first, second = out["deals"]
    assert first["eggs"] == 5 + 5 + 9
    assert second["recorded"] == {"N": 0, "E": 14 + 19, "S": 14}


def test_eggs_pending_when_the_match_ends_are_reported_unclaimed() -> None:
    out = run([ex1(leader=None) for _ in range(3)] + [fish({"N": 6, "E": 7, "S": 8, "W": 7})],
              options={"deals": 4})
    assert out["finished"] and out["end"] == "deals"
    assert out["unclaimed_eggs"] == 28
