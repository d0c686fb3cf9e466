"""RULES.md sections 4, 6–9: hand values, scoring modes, eggs, minimum and hanging points, leads,
and the individual (2- and 3-player) games."""

from __future__ import annotations

from typing import Any

import pytest

from rules.tests._support import (
    REDEAL_HANDS,
    codes,
    complement,
    domino_pips,
    ex1,
    fish,
    fish_pips,
    fold,
)


def _ex1_with_s(s_hand: str, preset: str = "sport") -> dict[str, Any]:
    deal = ex1()
    deal["hands"]["S"] = s_hand
    return fold([deal], preset=preset).deals[0].to_dict()


# ------------------------------------------------------------------ hand values
@pytest.mark.parametrize("s_hand, ns_value", [
    ("6:6", 8 + 50),
    ("0:0", 8 + 25),
    ("0:0 6:6", 8 + 75),
    ("6:6 0:0", 8 + 75),
    ("0:0 2:0", 8 + 2),    # 0:0 with another tile counts 0, as its pips say
    ("6:6 1:1", 8 + 14),
    ("5:5", 8 + 10),
])
def test_sport_lone_double_values_in_a_domino(s_hand: str, ns_value: int) -> None:
    out = _ex1_with_s(s_hand)
    assert out["ok"], out["errors"]
    assert out["values"]["NS"] == ns_value
    assert out["recorded"] == {"NS": 0, "EW": ns_value}


@pytest.mark.parametrize("s_hand, ns_value", [("6:6", 8 + 12), ("0:0", 8 + 25),
                                              ("0:0 6:6", 8 + 12)])
def test_kozel_only_lone_zero_zero_is_special(s_hand: str, ns_value: int) -> None:
    out = _ex1_with_s(s_hand, preset="kozel")
    assert out["ok"], out["errors"]
    assert out["values"]["NS"] == ns_value


@pytest.mark.parametrize("s_hand, ns_value", [("6:6", 8 + 12), ("0:0", 8), ("0:0 6:6", 8 + 12)])
def test_international_has_no_lone_double_values(s_hand: str, ns_value: int) -> None:
    out = _ex1_with_s(s_hand, preset="international")
    assert out["ok"], out["errors"]
    assert out["values"]["NS"] == ns_value
    assert out["recorded"]["EW"] == ns_value + 9  # winner takes all


def test_lone_double_value_needs_tiles_pips_alone_count_as_pips() -> None:
    deal = fold([domino_pips("E", {"N": 8, "S": 12, "W": 9})]).deals[0]
    assert deal.values == {"NS": 20, "EW": 9}


# A legal fish (table as in _support.FISH_TABLE) in which S holds 6:6 alone.
LONE_SIX_FISH: dict[str, str] = {
    "N": "1:1 3:1 4:2 2:2 5:5 4:1 6:3",   # 40
    "E": "3:3 5:1 5:2 5:3 6:4 4:4",       # 45
    "S": "6:6",                           # 12, or 50 as a lone 6:6
    "W": "6:1 3:2 6:2 5:4",               # 29
}


def test_lone_double_not_special_in_a_fish() -> None:
    deal = fold([fish(hands=LONE_SIX_FISH)]).deals[0]
    assert deal.ok, codes(deal)
    assert deal.values == {"NS": 52, "EW": 74}
    assert deal.winner == "NS" and deal.recorded == {"NS": 74, "EW": 0}


def test_lone_double_special_in_a_fish_with_bonus_on_fish() -> None:
    deal = fold([fish(hands=LONE_SIX_FISH)], options={"bonus_on_fish": True}).deals[0]
    assert deal.ok, codes(deal)
    assert deal.values == {"NS": 90, "EW": 74}
    assert deal.winner == "EW" and deal.recorded == {"NS": 0, "EW": 90}


# ------------------------------------------------------------------ scoring modes
def test_fish_lowest_side_wins_and_takes_the_losers_value() -> None:
    deal = fold([fish()]).deals[0]
    assert deal.values == {"NS": 61, "EW": 65}
    assert deal.winner == "NS" and deal.recorded == {"NS": 65, "EW": 0}


def test_winner_takes_all_counts_every_hand_left() -> None:
    deal = fold([ex1()], options={"scoring": "winner_takes_all"}).deals[0]
    assert deal.recorded == {"NS": 0, "EW": 58 + 9}
    deal = fold([fish()], options={"scoring": "winner_takes_all"}).deals[0]
    assert deal.recorded == {"NS": 61 + 65, "EW": 0}


def test_losers_record_own_two_sides() -> None:
    deal = fold([domino_pips("E", {"N": 10, "S": 20, "W": 5})], preset="kozel").deals[0]
    assert deal.winner == "EW" and deal.recorded == {"NS": 30, "EW": 0}


def test_losers_record_own_each_loser_in_a_three_player_game() -> None:
    deal = fold([domino_pips("N", {"E": 20, "S": 15})], preset="kozel", players=3).deals[0]
    assert deal.ok, codes(deal)
    assert deal.winner == "N"
    assert deal.values == {"N": 0, "E": 20, "S": 15}
    assert deal.recorded == {"N": 0, "E": 20, "S": 15}


def test_fish_scoring_difference_winner_takes_losers_minus_own() -> None:
    deal = fold([fish()], options={"fish_scoring": "difference"}).deals[0]
    assert deal.recorded == {"NS": 65 - 61, "EW": 0}
    # a domino is scored as usual
    deal = fold([ex1()], options={"fish_scoring": "difference"}).deals[0]
    assert deal.recorded == {"NS": 0, "EW": 58}


def test_fish_scoring_difference_under_losers_record_own() -> None:
    deal = fold([fish_pips({"N": 10, "E": 15, "S": 10, "W": 15})], preset="kozel",
                options={"fish_scoring": "difference", "min_record": 0}).deals[0]
    assert deal.winner == "NS"
    assert deal.recorded == {"NS": 0, "EW": 30 - 20}


def test_fish_scoring_difference_three_players_each_loser_minus_winner() -> None:
    deal = fold([fish_pips({"N": 5, "E": 20, "S": 15})], preset="kozel", players=3,
                options={"fish_scoring": "difference", "min_record": 0}).deals[0]
    assert deal.winner == "N"
    assert deal.recorded == {"N": 0, "E": 15, "S": 10}


# ------------------------------------------------------------------ eggs
EGGS_14 = {"N": 6, "E": 7, "S": 8, "W": 7}
EGGS_10 = {"N": 5, "E": 1, "S": 0, "W": 4}  # one 0-pip hand only: two would be 0:0 twice


def test_eggs_accumulate_over_consecutive_tied_fishes() -> None:
    verdict = fold([fish_pips(EGGS_14), fish_pips(EGGS_10),
                    domino_pips("E", {"N": 1, "S": 2, "W": 3})])
    first, second, third = verdict.deals
    assert (first.eggs, second.eggs) == (28, 38)
    assert first.recorded == second.recorded == {"NS": 0, "EW": 0}
    assert third.winner == "EW" and third.recorded == {"NS": 0, "EW": 3 + 38}
    assert third.eggs == 0
    assert verdict.to_dict()["unclaimed_eggs"] == 0


def test_eggs_pending_at_the_end_are_unclaimed() -> None:
    verdict = fold([domino_pips("E", {"N": 1, "S": 2, "W": 3}), fish_pips(EGGS_14)])
    out = verdict.to_dict()
    assert out["unclaimed_eggs"] == 28
    assert out["totals"] == {"NS": 0, "EW": 3}


def test_eggs_go_to_the_winner_of_a_fish_too() -> None:
    verdict = fold([fish_pips(EGGS_14), fish()])
    assert verdict.deals[1].recorded == {"NS": 65 + 28, "EW": 0}


def test_eggs_under_losers_record_own_go_to_the_loser() -> None:
    verdict = fold([fish_pips(EGGS_14), domino_pips("N", {"E": 10, "S": 2, "W": 5})],
                   preset="kozel")
    assert verdict.deals[1].recorded == {"NS": 0, "EW": 15 + 28}


def test_eggs_under_losers_record_own_go_to_the_loser_with_the_highest_value() -> None:
    verdict = fold([fish_pips({"N": 5, "E": 5, "S": 9}), domino_pips("N", {"E": 20, "S": 14})],
                   preset="kozel", players=3)
    first, second = verdict.deals
    assert first.winner is None and first.eggs == 19
    assert second.recorded == {"N": 0, "E": 20 + 19, "S": 14}


def test_fish_tie_void_records_and_carries_nothing() -> None:
    verdict = fold([fish_pips(EGGS_14), domino_pips("E", {"N": 1, "S": 2, "W": 3})],
                   options={"fish_tie": "void"})
    first, second = verdict.deals
    assert first.winner is None and first.eggs == 0
    assert second.recorded == {"NS": 0, "EW": 3}
    assert verdict.to_dict()["unclaimed_eggs"] == 0


# ------------------------------------------------------------------ minimum and hanging
def test_min_record_opening_applies_only_while_total_is_zero() -> None:
    verdict = fold([
        domino_pips("E", {"N": 6, "S": 6, "W": 1}),   # NS 12 < 13: hangs
        domino_pips("E", {"N": 10, "S": 10, "W": 1}),  # 12 + 20 = 32 recorded
        domino_pips("E", {"N": 2, "S": 3, "W": 1}),    # 5 < 13 but NS has opened: recorded
    ], preset="kozel")
    assert [d.recorded["NS"] for d in verdict.deals] == [0, 32, 5]
    assert verdict.state.totals == {"NS": 37, "EW": 0}


def test_min_record_always_discards_every_small_amount() -> None:
    verdict = fold([
        domino_pips("N", {"E": 20, "S": 3, "W": 20}),  # NS 40
        domino_pips("N", {"E": 12, "S": 3, "W": 12}),  # 24 < 25: discarded
        domino_pips("N", {"E": 12, "S": 3, "W": 13}),  # 25 recorded
    ], preset="morskoy")
    assert [d.recorded["NS"] for d in verdict.deals] == [40, 0, 25]
    assert [d.hanging["NS"] for d in verdict.deals] == [0, 0, 0]
    assert verdict.state.totals == {"NS": 65, "EW": 0}


def test_below_min_discard_loses_the_amount() -> None:
    verdict = fold([
        domino_pips("E", {"N": 6, "S": 4, "W": 2}),
        domino_pips("W", {"N": 2, "S": 4, "E": 1}),
    ], preset="kozel", options={"below_min": "discard"})
    assert [d.recorded["NS"] for d in verdict.deals] == [0, 0]
    assert [d.hanging["NS"] for d in verdict.deals] == [0, 0]


def test_hanging_points_keep_hanging_while_still_below_the_minimum() -> None:
    verdict = fold([
        domino_pips("E", {"N": 3, "S": 2, "W": 2}),  # 5 hangs
        domino_pips("E", {"N": 3, "S": 2, "W": 2}),  # 5 + 5 = 10 still hangs
        domino_pips("E", {"N": 2, "S": 1, "W": 2}),  # 10 + 3 = 13 recorded
    ], preset="kozel")
    assert [d.hanging["NS"] for d in verdict.deals] == [5, 10, 0]
    assert [d.recorded["NS"] for d in verdict.deals] == [0, 0, 13]


def test_hanging_points_dropped_by_eggs() -> None:
    verdict = fold([domino_pips("E", {"N": 6, "S": 4, "W": 2}), fish_pips(EGGS_14),
                    domino_pips("E", {"N": 2, "S": 4, "W": 1})], preset="kozel")
    assert [d.hanging["NS"] for d in verdict.deals] == [10, 0, 0]
    # the loser NS records its 6 plus the 28 eggs, without the dropped 10
    assert verdict.deals[2].recorded == {"NS": 6 + 28, "EW": 0}


def test_hanging_points_kept_over_a_redeal() -> None:
    verdict = fold([domino_pips("E", {"N": 6, "S": 4, "W": 2}),
                    {"result": "redeal", "hands": REDEAL_HANDS},
                    domino_pips("E", {"N": 2, "S": 4, "W": 1})], preset="kozel")
    assert [d.hanging["NS"] for d in verdict.deals] == [10, 10, 0]
    assert verdict.deals[2].recorded["NS"] == 16


# ------------------------------------------------------------------ leads
def _leaders_ok(preset: str, deals: list[dict[str, Any]],
                options: dict[str, Any] | None = None) -> list[str | None]:
    verdict = fold(deals, preset=preset, options=options)
    assert all(d.ok for d in verdict.deals), [codes(d) for d in verdict.deals]
    return [d.next_leader for d in verdict.deals]


def test_rotate_seat_n_first_then_clockwise() -> None:
    deals = [domino_pips("E", {"N": 1, "S": 1, "W": 1}, leader=s) for s in "NESWN"]
    assert _leaders_ok("sport", deals) == ["E", "S", "W", "N", "E"]
    verdict = fold([deals[0], deals[2]])
    assert codes(verdict.deals[1]) == ["wrong_leader"]


def test_rotate_redeal_keeps_the_leader_eggs_pass_on() -> None:
    deals = [domino_pips("E", {"N": 1, "S": 1, "W": 1}, leader="N"),
             {"result": "redeal", "leader": "E", "hands": REDEAL_HANDS},
             fish_pips(EGGS_14, leader="E"),
             domino_pips("E", {"N": 1, "S": 1, "W": 1}, leader="S")]
    assert _leaders_ok("sport", deals) == ["E", "E", "S", "W"]


def test_first_lead_seat_override() -> None:
    deal = domino_pips("E", {"N": 1, "S": 1, "W": 1}, leader="N")
    assert codes(fold([deal], options={"first_lead": "seat_S"}).deals[0]) == ["wrong_leader"]
    assert fold([deal | {"leader": "S"}], options={"first_lead": "seat_S"}).deals[0].ok


def test_first_lead_any_is_not_checked_then_rotates() -> None:
    for seat in "NESW":
        deal = domino_pips("E", {"N": 1, "S": 1, "W": 1}, leader=seat)
        assert fold([deal], preset="international").deals[0].next_leader == \
            "NESW"[("NESW".index(seat) + 1) % 4]


def test_next_lead_winner_after_domino_fish_eggs_and_redeal() -> None:
    options = {"first_lead": "seat_N", "next_lead": "winner"}
    deals = [domino_pips("W", {"N": 1, "S": 1, "E": 1}, leader="N"),     # W went out
             fish_pips({"N": 1, "E": 9, "S": 1, "W": 9}, by="E", leader="W"),  # E blocked
             fish_pips(EGGS_14, by="S", leader="E"),                     # eggs: E again
             {"result": "redeal", "leader": "E", "hands": REDEAL_HANDS},  # redeal: E again
             domino_pips("S", {"N": 1, "E": 1, "W": 1}, leader="E")]
    assert _leaders_ok("sport", deals, options) == ["W", "E", "E", "E", "S"]
    refused = fold(deals[:1] + [deals[1] | {"leader": "N"}], options=options).deals[1]
    assert codes(refused) == ["wrong_leader"]


def test_next_lead_winner_unknown_after_fish_without_by() -> None:
    verdict = fold([fish_pips({"N": 1, "E": 9, "S": 1, "W": 9})], preset="kozel")
    assert verdict.deals[0].ok and verdict.deals[0].next_leader is None


def test_ladder_first_lead_is_one_one_with_four_players() -> None:
    assert fold([ex1(leader=None, lead_tile="1:1")], preset="kozel").deals[0].ok
    for tile in ("2:2", "0:0", "6:5"):
        refused = fold([ex1(leader=None, lead_tile=tile)], preset="kozel").deals[0]
        assert codes(refused) == ["bad_lead_tile"]
    # only the first counted deal follows the ladder
    verdict = fold([ex1(leader=None, lead_tile="1:1"), ex1(leader="E", lead_tile="5:5")],
                   preset="kozel")
    assert verdict.deals[1].ok, codes(verdict.deals[1])


def test_ladder_redeal_before_first_deal_leaves_next_leader_unknown() -> None:
    verdict = fold([{"result": "redeal", "leader": "W", "hands": REDEAL_HANDS},
                    ex1(leader="S", lead_tile="2:2"), ex1(leader="S", lead_tile="1:1")],
                   preset="kozel")
    redeal, refused, ok = verdict.deals
    assert redeal.ok and redeal.next_leader is None
    assert codes(refused) == ["bad_lead_tile"]
    assert ok.ok and ok.next_leader == "E"


# ------------------------------------------------------------------ individual games
LINE13 = "1:1 2:1 2:2 3:2 3:3 4:3 4:4 5:4 5:5 6:5 6:6 6:0 0:0"  # ends 1 and 0


def _two_player(e_hand: str, boneyard: str | None) -> dict[str, Any]:
    deal: dict[str, Any] = {"result": "domino", "by": "N", "leader": "N",
                            "hands": {"E": e_hand}}
    if boneyard is not None:
        deal["boneyard"] = boneyard
    return deal


def test_kozel_two_players_from_hands_with_boneyard() -> None:
    deal = _two_player("3:1", complement(LINE13, "3:1"))
    verdict = fold([deal], preset="kozel", players=2)
    out = verdict.deals[0]
    assert out.ok, codes(out)
    assert out.winner == "N" and out.values == {"N": 0, "E": 4}
    assert out.hanging == {"N": 0, "E": 4}  # 4 < 13 hangs in kozel
    verdict = fold([deal], preset="kozel", players=2, options={"min_record": 0})
    assert verdict.deals[0].recorded == {"N": 0, "E": 4}


def test_two_players_line_check_uses_the_boneyard() -> None:
    # 6:0 into the boneyard, 5:1 onto the table: 0:0 is cut off from the rest of the line
    boneyard = complement(LINE13, "3:1").replace("5:1", "6:0")
    refused = fold([_two_player("3:1", boneyard)], preset="kozel", players=2).deals[0]
    assert codes(refused) == ["not_a_line"]


def test_two_players_without_boneyard_line_check_is_skipped() -> None:
    deal = _two_player("3:1", None)
    assert fold([deal], preset="kozel", players=2).deals[0].ok


def test_draw_game_hand_may_grow_by_what_was_drawn() -> None:
    e_hand = "3:1 5:1 4:0 4:1 5:0 5:2 5:3 6:1"  # 8 tiles: one more than dealt
    deal = _two_player(e_hand, complement(LINE13, e_hand))
    assert fold([deal], preset="kozel", players=2).deals[0].ok
    no_draw = fold([_two_player(e_hand, None)], preset="kozel", players=2,
                   options={"draw": False}).deals[0]
    assert codes(no_draw) == ["hand_too_large"]


def test_two_player_fish_with_tiles_left_to_draw_is_not_blocked() -> None:
    # the closed chain of _support.FISH_TABLE, E holds no 0, but the boneyard still has tiles
    table = "0:0 1:0 2:1 2:0 3:0 4:3 4:0 5:0 6:5 6:0"
    e_hand = "1:1 3:1 4:2"
    deal = {"result": "fish", "hands": {"N": "2:2 5:5", "E": e_hand},
            "boneyard": complement(table, e_hand, "2:2 5:5")}
    refused = fold([deal], preset="kozel", players=2).deals[0]
    assert codes(refused) == ["not_blocked"]
    deal["boneyard"] = ""
    deal["hands"] = {"N": complement(table, e_hand), "E": e_hand}
    assert fold([deal], preset="kozel", players=2, options={"min_record": 0}).deals[0].ok


@pytest.mark.parametrize("preset", ["kozel", "morskoy"])
def test_three_player_game_from_pips(preset: str) -> None:
    verdict = fold([domino_pips("E", {"N": 20, "S": 30}), domino_pips("S", {"N": 10, "E": 20})],
                   preset=preset, players=3)
    first, second = verdict.deals
    assert first.ok and second.ok
    assert first.winner == "E" and second.winner == "S"
    if preset == "kozel":
        assert first.recorded == {"N": 20, "E": 0, "S": 30}
        assert verdict.state.totals == {"N": 30, "E": 20, "S": 30}
    else:
        assert first.recorded == {"N": 0, "E": 50, "S": 0}
        assert second.recorded == {"N": 0, "E": 0, "S": 30}
        assert verdict.state.totals == {"N": 0, "E": 0, "S": 30}


def test_two_player_game_from_pips() -> None:
    verdict = fold([domino_pips("E", {"N": 20})], preset="kozel", players=2)
    assert verdict.deals[0].recorded == {"N": 20, "E": 0}
    assert codes(fold([domino_pips("E", {})], preset="kozel", players=2).deals[0]) == \
        ["missing_hand"]

