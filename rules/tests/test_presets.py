"""RULES.md sections 10 and 11: preset defaults, overrides, bad_option and each end rule."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from rules.errors import RulesError
from rules.presets import KNOBS, PRESETS, Rules, catalogue, make_rules
from rules.tests._support import REDEAL_HANDS, codes, domino_pips, fish_pips, fold

# The table of section 11, one row per knob.
TABLE: dict[str, dict[str, Any]] = {
    "sport": dict(players=4, pairs=True, hand_size=7, draw=False,
                  scoring="winner_takes_losers", fish_tie="eggs",
                  bonus_zero=25, bonus_six=50, bonus_both=75, bonus_on_fish=False,
                  min_record=0, end="deals", deals=8, first_lead="seat_N", next_lead="rotate",
                  redeal_doubles=5, redeal_suit=6, fish_scoring="same", time_tie="draw"),
    "kozel": dict(players=4, pairs=True, hand_size=7, draw=True,
                  scoring="losers_record_own", fish_tie="eggs",
                  bonus_zero=25, bonus_six=None, bonus_both=None, bonus_on_fish=False,
                  min_record=13, min_record_scope="opening", below_min="hang",
                  end="target_loses", target=101, first_lead="ladder", next_lead="winner",
                  redeal_doubles=5, redeal_suit=6),
    "morskoy": dict(players=4, pairs=True, hand_size=7, draw=True,
                    scoring="winner_takes_losers", fish_tie="eggs",
                    bonus_zero=25, bonus_six=50, bonus_both=75, bonus_on_fish=False,
                    min_record=25, min_record_scope="always", below_min="discard",
                    end="target_wins", target=125, first_lead="ladder", next_lead="winner",
                    redeal_doubles=5, redeal_suit=6, one_scorer=True, instant_doubles=True,
                    na_sto=True, two_doubles=True),
    "international": dict(players=4, pairs=True, hand_size=7, draw=False,
                          scoring="winner_takes_all", fish_tie="void",
                          bonus_zero=None, bonus_six=None, bonus_both=None,
                          min_record=0, end="target_wins", target=200, first_lead="any",
                          next_lead="rotate", redeal_doubles=5, redeal_suit=6),
}
PLAYERS = {"sport": (4, 4), "kozel": (2, 4), "morskoy": (2, 4), "international": (4, 4)}


@pytest.mark.parametrize("preset", sorted(TABLE))
def test_preset_defaults_match_the_table(preset: str) -> None:
    rules = make_rules(preset)
    assert rules.preset == preset
    for knob, value in TABLE[preset].items():
        assert getattr(rules, knob) == value, knob
    assert rules == PRESETS[preset]


def test_sport_is_the_default_preset() -> None:
    assert make_rules() == make_rules("sport")
    assert catalogue()["default"] == "sport"


@pytest.mark.parametrize("preset", sorted(TABLE))
def test_players_allowed_per_preset(preset: str) -> None:
    low, high = PLAYERS[preset]
    for n in range(1, 7):
        if low <= n <= high:
            rules = make_rules(preset, players=n)
            assert rules.players == n
            assert len(rules.sides) == (2 if n == 4 else n)
        else:
            with pytest.raises(RulesError) as err:
                make_rules(preset, players=n)
            assert err.value.code == "bad_option"
            with pytest.raises(RulesError):
                make_rules(preset, {"players": n})


@pytest.mark.parametrize("preset", ["kozel", "morskoy"])
def test_individual_games_have_a_side_per_seat_and_a_boneyard(preset: str) -> None:
    two = make_rules(preset, players=2)
    three = make_rules(preset, players=3)
    assert two.sides == ("N", "E") and two.has_boneyard
    assert three.sides == ("N", "E", "S") and three.has_boneyard
    four = make_rules(preset)
    assert four.sides == ("NS", "EW") and not four.has_boneyard


def test_overrides_are_applied() -> None:
    assert make_rules("sport", {"deals": 12}).deals == 12
    assert make_rules("international", {"target": 300}).target == 300
    kozel = make_rules("kozel", {"min_record": 0, "bonus_six": 50}, players=3)
    assert (kozel.min_record, kozel.bonus_six, kozel.players) == (0, 50, 3)
    assert make_rules("sport", {"bonus_zero": None}).bonus_zero is None
    # overriding does not change the preset itself
    assert make_rules("sport").deals == 8


@pytest.mark.parametrize("preset, options", [
    ("sport", {"deals": 6}),
    ("sport", {"deals": 0}),
    ("sport", {"deals": -4}),
    ("kozel", {"target": 0}),
    ("international", {"target": 0}),
    ("sport", {"unknown_knob": 1}),
    ("sport", {"deals": "8"}),
    ("sport", {"deals": 8.0}),
    ("sport", {"deals": True}),
    ("sport", {"bonus_on_fish": "yes"}),
    ("sport", {"scoring": "everyone"}),
    ("sport", {"scoring": None}),
    ("sport", {"players": 3}),
    ("sport", {"players": 5}),
    ("kozel", {"players": 1}),
    ("kozel", {"players": 5}),
    ("international", {"players": 2}),
    ("sport", {"redeal_doubles": 8}),
])
def test_bad_option(preset: str, options: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as err:
        make_rules(preset, options)
    assert err.value.code == "bad_option"
    assert err.value.problem.message("en") and err.value.problem.message("ru")


def test_bad_option_for_unknown_preset_and_options_not_an_object() -> None:
    with pytest.raises(RulesError) as err:
        make_rules("domino")
    assert err.value.code == "bad_option"
    not_a_mapping: Any = [("deals", 8)]
    with pytest.raises(RulesError) as err:
        make_rules("sport", not_a_mapping)
    assert err.value.code == "bad_option"


def test_catalogue_is_json_and_lists_every_knob_and_preset() -> None:
    cat = json.loads(json.dumps(catalogue()))
    assert set(cat["presets"]) == {"sport", "kozel", "morskoy", "international"}
    fields = {f.name for f in dataclasses.fields(Rules)} - {"preset"}
    assert set(cat["knobs"]) == fields == set(KNOBS)
    for knob in cat["knobs"].values():
        assert knob["en"] and knob["ru"] and knob["type"] in {"int", "bool", "str"}
    for name, shown in cat["presets"].items():
        for knob, value in TABLE[name].items():
            assert shown[knob] == value, (name, knob)
        assert shown["players_allowed"] == list(PLAYERS[name])


# ------------------------------------------------------------------ sport: deals
def _ns_wins(points: int = 6, **extra: Any) -> dict[str, Any]:
    return domino_pips("N", {"E": points // 2, "S": 1, "W": points - points // 2}, **extra)


def _ew_wins(points: int = 6, **extra: Any) -> dict[str, Any]:
    return domino_pips("E", {"N": points // 2, "S": points - points // 2, "W": 1}, **extra)


def test_sport_ends_after_eight_counted_deals_redeals_not_counted() -> None:
    deals = [_ns_wins(), {"result": "redeal", "hands": REDEAL_HANDS}] + [_ns_wins()] * 6
    verdict = fold(deals)
    assert all(d.ok for d in verdict.deals)
    assert not verdict.state.finished  # 7 counted deals and a redeal
    verdict = fold([*deals, _ew_wins(10), _ns_wins()])
    eighth, ninth = verdict.deals[-2:]
    assert eighth.ok and codes(ninth) == ["deal_after_end"]
    out = verdict.to_dict()
    assert out["finished"] is True and out["end"] == "deals"
    assert out["totals"] == {"NS": 42, "EW": 10}
    assert out["winner"] == "NS"


def test_sport_fish_and_eggs_count_as_deals() -> None:
    eggs = fish_pips({"N": 1, "E": 1, "S": 1, "W": 1})
    verdict = fold([eggs] * 7 + [_ew_wins()])
    out = verdict.to_dict()
    assert out["finished"] and out["end"] == "deals" and out["winner"] == "EW"
    assert out["totals"] == {"NS": 0, "EW": 6 + 7 * 4}


def test_sport_equal_totals_after_eight_deals_is_a_draw() -> None:
    verdict = fold([_ns_wins(), _ew_wins()] * 4)
    out = verdict.to_dict()
    assert out["finished"] and out["end"] == "deals"
    assert out["totals"] == {"NS": 24, "EW": 24}
    assert out["winner"] == "draw"


def test_sport_twelve_deals_override() -> None:
    verdict = fold([_ew_wins()] * 12 + [_ew_wins()], options={"deals": 12})
    assert [d.ok for d in verdict.deals] == [True] * 12 + [False]
    assert verdict.state.winner == "EW"


# -------------------------------------------------------------- kozel: target loses
def test_kozel_side_reaching_101_loses() -> None:
    verdict = fold([
        domino_pips("E", {"N": 40, "S": 30, "W": 2}),
        domino_pips("N", {"E": 20, "S": 4, "W": 20}),
        domino_pips("E", {"N": 20, "S": 11, "W": 2}),
        _ns_wins(),
    ], preset="kozel")
    first, second, third, late = verdict.deals
    assert first.totals == {"NS": 70, "EW": 0}
    assert second.totals == {"NS": 70, "EW": 40}
    assert third.totals == {"NS": 101, "EW": 40}
    out = verdict.to_dict()
    assert out["finished"] and out["end"] == "target" and out["winner"] == "EW"
    assert codes(late) == ["deal_after_end"]


def test_kozel_below_101_goes_on() -> None:
    verdict = fold([domino_pips("E", {"N": 50, "S": 50, "W": 2})], preset="kozel")
    assert verdict.state.totals == {"NS": 100, "EW": 0}
    assert not verdict.state.finished and verdict.state.winner is None


def test_kozel_three_players_first_to_101_loses_and_lowest_other_wins() -> None:
    verdict = fold([
        domino_pips("N", {"E": 60, "S": 20}),
        domino_pips("N", {"E": 45, "S": 10}),
    ], preset="kozel", players=3)
    out = verdict.to_dict()
    assert out["totals"] == {"N": 0, "E": 105, "S": 30}
    assert out["finished"] and out["end"] == "target" and out["winner"] == "N"


# ------------------------------------------------------------ target wins
def test_morskoy_first_to_125_wins() -> None:
    verdict = fold([
        domino_pips("N", {"E": 30, "S": 3, "W": 30}),
        domino_pips("S", {"E": 30, "N": 3, "W": 32}),
    ], preset="morskoy")
    first, second = verdict.deals
    assert first.totals == {"NS": 60, "EW": 0} and not first.totals == second.totals
    out = verdict.to_dict()
    assert out["totals"] == {"NS": 122, "EW": 0}
    assert not out["finished"]
    verdict = fold([
        domino_pips("N", {"E": 30, "S": 3, "W": 30}),
        domino_pips("S", {"E": 33, "N": 3, "W": 32}),
    ], preset="morskoy")
    out = verdict.to_dict()
    assert out["totals"] == {"NS": 125, "EW": 0}
    assert out["finished"] and out["end"] == "target" and out["winner"] == "NS"


def test_international_first_to_200_wins() -> None:
    deal = domino_pips("E", {"N": 60, "S": 39, "W": 0})
    verdict = fold([deal], preset="international")
    assert verdict.state.totals == {"NS": 0, "EW": 99} and not verdict.state.finished
    verdict = fold([deal, domino_pips("E", {"N": 60, "S": 40, "W": 1}), deal],
                   preset="international")
    out = verdict.to_dict()
    assert out["deals"][1]["totals"] == {"NS": 0, "EW": 200}
    assert out["finished"] and out["end"] == "target" and out["winner"] == "EW"
    assert codes(verdict.deals[2]) == ["deal_after_end"]


def test_international_target_300_override() -> None:
    deal = domino_pips("E", {"N": 60, "S": 40, "W": 1})
    verdict = fold([deal, deal], preset="international", options={"target": 300})
    assert verdict.state.totals == {"NS": 0, "EW": 202} and not verdict.state.finished


# ------------------------------------------------------------------ time
def test_time_up_ends_match_and_leader_wins() -> None:
    verdict = fold([_ns_wins(), _ew_wins(4, time_up=True), _ns_wins()])
    out = verdict.to_dict()
    assert out["deals"][1]["totals"] == {"NS": 6, "EW": 4}
    assert out["finished"] and out["end"] == "time" and out["winner"] == "NS"
    assert codes(verdict.deals[2]) == ["deal_after_end"]


def test_time_up_in_kozel_fewer_points_wins() -> None:
    verdict = fold([domino_pips("E", {"N": 20, "S": 10, "W": 2}, time_up=True)], preset="kozel")
    out = verdict.to_dict()
    assert out["totals"] == {"NS": 30, "EW": 0}
    assert out["finished"] and out["end"] == "time" and out["winner"] == "EW"


def test_time_up_equal_with_time_tie_draw_is_a_draw() -> None:
    verdict = fold([_ns_wins(), _ew_wins(time_up=True)])
    out = verdict.to_dict()
    assert out["finished"] and out["end"] == "time" and out["winner"] == "draw"


def test_time_up_equal_with_extra_deal_plays_on_until_the_tie_breaks() -> None:
    eggs = fish_pips({"N": 1, "E": 1, "S": 1, "W": 1})
    verdict = fold([_ns_wins(), _ew_wins(time_up=True), eggs, _ew_wins(), _ns_wins()],
                   options={"time_tie": "extra_deal"})
    tie, still_tied, breaks, late = verdict.deals[1:]
    assert tie.ok and still_tied.ok and breaks.ok
    assert breaks.totals == {"NS": 6, "EW": 6 + 6 + 4}
    out = verdict.to_dict()
    assert out["finished"] and out["end"] == "time" and out["winner"] == "EW"
    assert codes(late) == ["deal_after_end"]
    unfinished = fold([_ns_wins(), _ew_wins(time_up=True), eggs],
                      options={"time_tie": "extra_deal"})
    assert not unfinished.state.finished and unfinished.state.winner is None


def test_time_up_on_a_refused_deal_does_not_end_the_match() -> None:
    verdict = fold([_ns_wins(), domino_pips("E", {"N": -1, "S": 1, "W": 1}, time_up=True)])
    assert not verdict.state.finished


# ------------------------------------------------------------------ morskoy specials
def test_morskoy_one_scorer_three_players() -> None:
    verdict = fold([
        domino_pips("N", {"E": 20, "S": 10}),
        domino_pips("E", {"N": 15, "S": 15}),
        domino_pips("S", {"N": 5, "E": 5}),  # 10 < 25: discarded, E keeps its points
    ], preset="morskoy", players=3)
    first, second, third = verdict.deals
    assert first.totals == {"N": 30, "E": 0, "S": 0}
    assert second.totals == {"N": 0, "E": 30, "S": 0}
    assert third.recorded == {"N": 0, "E": 0, "S": 0}
    assert third.totals == {"N": 0, "E": 30, "S": 0}


@pytest.mark.parametrize("last", ["0:0", "6:6", "0:0 6:6", "6:6 0:0"])
def test_morskoy_out_on_zero_zero_or_six_six_wins_at_once(last: str) -> None:
    verdict = fold([domino_pips("W", {"N": 3, "E": 2, "S": 3}, last_tiles=last),
                    _ns_wins()], preset="morskoy")
    first, late = verdict.deals
    assert first.ok, codes(first)
    out = verdict.to_dict()
    assert out["finished"] and out["end"] == "instant" and out["winner"] == "EW"
    assert codes(late) == ["deal_after_end"]


@pytest.mark.parametrize("blocker", ["N", "E"])
def test_morskoy_fish_blocked_with_six_six_never_wins_at_once(blocker: str) -> None:
    # RULES.md section 11 (2026-12-01): only going out wins at once, whoever laid the block.
    fish = {"result": "fish", "by": blocker, "last_tiles": "6:6",
            "pips": {"N": 5, "E": 20, "S": 5, "W": 20}}
    verdict = fold([fish], preset="morskoy")
    deal = verdict.deals[0]
    assert deal.ok and deal.winner == "NS" and deal.recorded == {"NS": 40, "EW": 0}
    assert verdict.state.finished is False
    assert verdict.state.winner is None


def test_morskoy_out_on_another_tile_is_no_instant_win() -> None:
    verdict = fold([domino_pips("W", {"N": 3, "E": 2, "S": 3}, last_tiles="5:5")],
                   preset="morskoy")
    assert verdict.deals[0].ok and not verdict.state.finished


def test_sport_has_no_instant_win() -> None:
    verdict = fold([domino_pips("W", {"N": 3, "E": 2, "S": 3}, last_tiles="6:6")])
    assert verdict.deals[0].ok and not verdict.state.finished


def test_two_doubles_at_once_only_where_allowed() -> None:
    deal = domino_pips("W", {"N": 3, "E": 2, "S": 3}, last_tiles="5:5 3:3")
    assert fold([deal], preset="morskoy").deals[0].ok
    assert codes(fold([deal], preset="sport").deals[0]) == ["bad_last_tiles"]
    same_twice = domino_pips("W", {"N": 3, "E": 2, "S": 3}, last_tiles="5:5 5:5")
    assert not fold([same_twice], preset="morskoy").deals[0].ok
    not_doubles = domino_pips("W", {"N": 3, "E": 2, "S": 3}, last_tiles="5:5 3:1")
    assert codes(fold([not_doubles], preset="morskoy").deals[0]) == ["bad_last_tiles"]


def _ns_forty() -> dict[str, Any]:
    return domino_pips("N", {"E": 20, "S": 3, "W": 20})  # NS records 40; N leads next


def test_na_sto_out_first_wins_the_match() -> None:
    verdict = fold([_ns_forty(), domino_pips("S", {"N": 3, "E": 2, "W": 2},
                                             leader="N", lead_tile="6:6")], preset="morskoy")
    out = verdict.to_dict()
    assert out["deals"][1]["ok"]
    assert out["finished"] and out["end"] == "instant" and out["winner"] == "NS"


def test_na_sto_lost_to_the_other_side_drops_total_to_zero() -> None:
    # EW goes out with 10 points, below 25: nothing recorded, yet NS loses its 40 «на сто».
    verdict = fold([_ns_forty(), domino_pips("E", {"N": 3, "S": 7, "W": 2},
                                             leader="N", lead_tile="6:6")], preset="morskoy")
    second = verdict.deals[1]
    assert second.ok and second.recorded == {"NS": 0, "EW": 0}
    assert verdict.state.totals == {"NS": 0, "EW": 0}
    assert not verdict.state.finished


def test_na_sto_won_by_a_fish_is_no_instant_win_and_drops_total() -> None:
    verdict = fold([_ns_forty(), fish_pips({"N": 3, "E": 20, "S": 3, "W": 20}, by="E",
                                           leader="N", lead_tile="6:6")], preset="morskoy")
    second = verdict.deals[1]
    assert second.ok and second.winner == "NS"
    assert not verdict.state.finished
    assert verdict.state.totals["NS"] == 0


def test_na_sto_followed_by_eggs_drops_total() -> None:
    verdict = fold([_ns_forty(), fish_pips({"N": 7, "E": 7, "S": 7, "W": 7},
                                           leader="N", lead_tile="6:6")], preset="morskoy")
    assert verdict.deals[1].ok and verdict.deals[1].winner is None
    assert verdict.state.totals["NS"] == 0


def test_six_six_lead_without_points_is_an_ordinary_deal() -> None:
    # EW wins a fish blocked by N (EW 40, N leads next); NS, with 0, leads 6:6 and goes out.
    verdict = fold([fish_pips({"N": 20, "E": 3, "S": 20, "W": 0}, by="N"),
                    domino_pips("S", {"N": 3, "E": 20, "W": 20}, leader="N", lead_tile="6:6")],
                   preset="morskoy")
    first, second = verdict.deals
    assert first.ok and first.totals == {"NS": 0, "EW": 40} and first.next_leader == "N"
    assert second.ok and not verdict.state.finished
    assert verdict.state.totals == {"NS": 40, "EW": 0}


def test_na_sto_is_off_outside_morskoy() -> None:
    deals = [_ns_forty(), domino_pips("S", {"N": 3, "E": 2, "W": 2}, lead_tile="6:6")]
    verdict = fold(deals, preset="morskoy", options={"na_sto": False})
    assert not verdict.state.finished
    assert verdict.state.totals == {"NS": 40, "EW": 0}  # 4 points below 25 are discarded
