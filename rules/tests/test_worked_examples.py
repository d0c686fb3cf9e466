"""RULES.md section 14: each worked example as its own test."""

from __future__ import annotations

from rules.tests._support import codes, domino_pips, ex1, fish_pips, fold


def test_lone_six_counts_fifty_and_loser_side_sums_partners() -> None:
    verdict = fold([ex1()])
    deal = verdict.deals[0]
    assert deal.ok, codes(deal)
    assert deal.winner == "EW"
    # N 3:4 1:0 = 8, S lone 6:6 = 50 -> NS 58; W 2:2 4:1 = 9.
    assert deal.values == {"NS": 58, "EW": 9}
    assert deal.recorded == {"NS": 0, "EW": 58}
    assert verdict.state.totals == {"NS": 0, "EW": 58}
    assert deal.next_leader == "E"


def test_example_one_declared_58_is_accepted() -> None:
    deal = fold([ex1(declared={"EW": 58})]).deals[0]
    assert deal.ok, codes(deal)


def test_two_two_five_one_gives_four_odd_numbers_not_a_line() -> None:
    deal = ex1()
    deal["hands"]["W"] = "2:2 5:1"
    verdict = fold([deal])
    assert codes(verdict.deals[0]) == ["not_a_line"]
    assert verdict.state.totals == {"NS": 0, "EW": 0}


def test_declared_66_is_declared_mismatch_expecting_58() -> None:
    verdict = fold([ex1(declared={"EW": 66})])
    deal = verdict.deals[0]
    assert codes(deal) == ["declared_mismatch"]
    err = deal.errors[0].to_dict()
    assert err["expected"] == {"NS": 0, "EW": 58}
    assert "58" in err["message"] and "66" in err["message"]
    assert verdict.state.totals == {"NS": 0, "EW": 0}


def test_sport_eggs_28_carried_to_next_winner_who_records_37() -> None:
    verdict = fold([
        fish_pips({"N": 6, "E": 7, "S": 8, "W": 7}, leader="N"),
        domino_pips("N", {"E": 4, "S": 3, "W": 5}, leader="E"),
    ])
    eggs, nxt = verdict.deals
    assert eggs.ok and nxt.ok
    assert eggs.winner is None
    assert eggs.values == {"NS": 14, "EW": 14}
    assert eggs.recorded == {"NS": 0, "EW": 0}
    assert eggs.eggs == 28
    assert nxt.winner == "NS"
    assert nxt.values == {"NS": 3, "EW": 9}
    assert nxt.recorded == {"NS": 37, "EW": 0}
    assert nxt.eggs == 0
    assert verdict.state.totals == {"NS": 37, "EW": 0}
    assert verdict.to_dict()["unclaimed_eggs"] == 0


def test_kozel_ten_below_thirteen_hangs_then_sixteen_is_recorded() -> None:
    verdict = fold([
        domino_pips("E", {"N": 6, "S": 4, "W": 2}),
        domino_pips("W", {"N": 2, "S": 4, "E": 1}),
    ], preset="kozel")
    first, second = verdict.deals
    assert first.ok and second.ok
    assert first.recorded == {"NS": 0, "EW": 0}
    assert first.hanging == {"NS": 10, "EW": 0}
    assert second.recorded == {"NS": 16, "EW": 0}
    assert second.hanging == {"NS": 0, "EW": 0}
    assert verdict.state.totals == {"NS": 16, "EW": 0}


def test_kozel_hanging_ten_dropped_when_ns_wins_the_next_deal() -> None:
    verdict = fold([
        domino_pips("E", {"N": 6, "S": 4, "W": 2}),
        domino_pips("N", {"E": 2, "S": 4, "W": 7}),
    ], preset="kozel")
    first, second = verdict.deals
    assert first.hanging["NS"] == 10
    assert second.winner == "NS"
    assert second.hanging["NS"] == 0
    assert second.recorded["NS"] == 0
    assert verdict.state.totals["NS"] == 0


def test_morskoy_ew_records_31_and_ns_drops_from_40_to_zero() -> None:
    verdict = fold([
        domino_pips("N", {"E": 20, "S": 3, "W": 20}),
        domino_pips("E", {"N": 16, "S": 15, "W": 2}),
    ], preset="morskoy")
    first, second = verdict.deals
    assert first.totals == {"NS": 40, "EW": 0}
    assert second.recorded == {"NS": 0, "EW": 31}
    assert second.totals == {"NS": 0, "EW": 31}


def test_international_winner_takes_all_including_partner_32() -> None:
    deal = fold([domino_pips("E", {"N": 12, "S": 10, "W": 10}, leader="N")],
                preset="international").deals[0]
    assert deal.ok, codes(deal)
    assert deal.winner == "EW"
    assert deal.recorded == {"NS": 0, "EW": 32}
    assert deal.totals == {"NS": 0, "EW": 32}


def test_international_tied_block_is_void_and_lead_passes_on() -> None:
    verdict = fold([fish_pips({"N": 5, "E": 6, "S": 5, "W": 4}, leader="N")],
                   preset="international")
    deal = verdict.deals[0]
    assert deal.ok, codes(deal)
    assert deal.winner is None
    assert deal.values == {"NS": 10, "EW": 10}
    assert deal.recorded == {"NS": 0, "EW": 0}
    assert deal.eggs == 0
    assert verdict.state.totals == {"NS": 0, "EW": 0}
    assert verdict.to_dict()["unclaimed_eggs"] == 0
    assert deal.next_leader == "E"
