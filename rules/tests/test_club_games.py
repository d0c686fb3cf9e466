"""The club games (RULES.md 25–34) judged on matches worked out by hand from seed 003's text:
knobs and ``bad_option``, leads, special endings, titles, the end of the match, error codes."""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import check

D = dict[str, Any]


def run(preset: str, deals: list[D], options: D | None = None,
        players: int | None = None) -> tuple[D, int]:
    data: D = {"preset": preset, "deals": deals}
    if options is not None:
        data["options"] = options
    if players is not None:
        data["players"] = players
    return check(data)


def codes(out: D, n: int) -> list[str]:
    return [e["code"] for e in out["deals"][n - 1]["errors"]]


@pytest.mark.parametrize(("preset", "options", "players"), [
    ("dvorovoe", {"pairs": True}, 3),
    ("dvorovoe", {"min_record": 13}, None),            # a knob dvorovoe does not take
    ("kozel_morskoy", {"first_lead": "weekday"}, None),  # weekday is required with it
    ("kozel_morskoy", {"weekday": 3}, None),            # weekday with first_lead ladder
    ("osel", {"boneyard_keep": 10}, 3),                 # larger than the boneyard of 7
    ("semerka", {"target": 5}, None),                   # semerka ends by sticks
    ("semerka", {"hand_size": 8}, 4),                   # 32 tiles
    ("general", {}, 3),
    ("chechevo", {"pairs": True}, 4),
    ("kozel_morskoy", {"bad": 1}, None),
])
def test_bad_options_of_section_25(preset: str, options: D, players: int | None) -> None:
    out, status = run(preset, [], options, players)
    assert status == 2 and out["errors"][0]["code"] == "bad_option"
    assert out["errors"][0]["message_ru"]


def test_dvorovoe_zero_zero_never_leads_and_three_players_play_to_200() -> None:
    # 003: «С дубля 0:0 … ходить запрещается»
    out, _ = run("dvorovoe", [{"result": "domino", "by": "N", "lead_tile": "0:0",
                               "pips": {"E": 10, "S": 10}}], players=3)
    assert codes(out, 1) == ["bad_lead_tile"]
    # N goes out twice against 100 + 90 and 5 + 5: 190 + 10 = 200 wins («до 200»)
    deals = [{"result": "domino", "by": "N", "pips": {"E": 40, "S": 50}}] * 2 + [
        {"result": "domino", "by": "N", "pips": {"E": 10, "S": 10}}]
    out, status = run("dvorovoe", deals, players=3)
    assert status == 0 and out["totals"] == {"N": 200, "E": 0, "S": 0}
    assert (out["finished"], out["end"], out["winner"], out["losers"]) == (
        True, "target", "N", ["E", "S"])
    out, status = run("dvorovoe", [*deals, deals[0]], players=3)
    assert status == 1 and codes(out, 4) == ["deal_after_end"]


def test_kozel_morskoy_fourth_opening_deal_is_quick_on_six_six() -> None:
    # three opening deals lose their amounts (below 25); the fourth is led with 6:6 for 50
    opening = {"result": "domino", "by": "N", "pips": {"E": 5, "W": 5, "S": 3}}
    quick = {"result": "domino", "by": "N", "pips": {"E": 2, "W": 1, "S": 3}}
    out, status = run("kozel_morskoy", [opening] * 3 + [quick])
    assert status == 0
    assert [d["recorded"]["EW"] for d in out["deals"]] == [0, 0, 0, 50]
    out, _ = run("kozel_morskoy", [opening] * 3 + [dict(quick, lead_tile="1:1")])
    assert codes(out, 4) == ["bad_lead_tile"]
    # the opening double with four players: 1:1, or the day's double (Wednesday 3:3)
    out, _ = run("kozel_morskoy", [dict(opening, lead_tile="2:2")])
    assert codes(out, 1) == ["bad_lead_tile"]
    out, status = run("kozel_morskoy", [dict(opening, lead_tile="3:3")],
                      {"first_lead": "weekday", "weekday": 3})
    assert status == 0


def _open_both() -> list[D]:
    return [{"result": "domino", "by": "N", "pips": {"E": 20, "W": 10, "S": 1}},
            {"result": "domino", "by": "E", "leader": "N", "pips": {"N": 20, "S": 10, "W": 1}}]


def test_kozel_morskoy_quick_lead_needs_every_other_record_and_a_fish_is_replayed() -> None:
    # three players: E records 30, S nothing; N's quick lead needs S's record too
    out, _ = run("kozel_morskoy", [
        {"result": "domino", "by": "N", "pips": {"E": 30, "S": 10}},
        {"result": "domino", "by": "E", "leader": "N", "lead_tile": "6:6",
         "pips": {"N": 5, "S": 5}}], players=3)
    assert codes(out, 2) == ["bad_lead_tile"]
    fish = {"result": "fish", "by": "S", "leader": "E", "lead_tile": "0:0",
            "pips": {"N": 5, "E": 6, "S": 7, "W": 8}}
    out, _ = run("kozel_morskoy", _open_both() + [fish, dict(fish, leader="S")])
    third = out["deals"][2]
    assert third["void"] is True and third["recorded"] == {"NS": 0, "EW": 0}
    assert third["next_leader"] == "E"
    assert codes(out, 4) == ["wrong_leader"]
    replay = {"result": "domino", "by": "N", "leader": "E", "pips": {"E": 1, "S": 1, "W": 1}}
    out, _ = run("kozel_morskoy", _open_both() + [fish, replay])
    assert out["deals"][3]["recorded"] == {"NS": 0, "EW": 75}  # judged as the 0:0 lead again


def test_kozel_morskoy_vneocherednoy_and_podvesnoy() -> None:
    vneo = {"result": "domino", "by": "N", "leader": "E", "lead_tile": "6:6 0:0",
            "pips": {"E": 3, "S": 1, "W": 4}}
    out, status = run("kozel_morskoy", [*_open_both(), vneo])
    deal = out["deals"][2]
    assert status == 0 and deal["void"] is True and deal["next_leader"] == "E"
    assert deal["titles"] == [{"title": "vneocherednoy", "side": "EW"}]
    assert out["totals"] == {"NS": 30, "EW": 30} and not out["finished"]
    out, _ = run("kozel_morskoy", [*_open_both(), vneo], {"vneocherednoy": "ends_match"})
    assert (out["finished"], out["end"], out["winner"], out["losers"]) == (
        True, "instant", "NS", ["EW"])
    # EW at 124 loses a quick 6:6 deal: «подвесной» and «козёл»
    out, _ = run("kozel_morskoy", [*_open_both(), {
        "result": "domino", "by": "N", "leader": "E", "lead_tile": "6:6",
        "pips": {"E": 1, "S": 0, "W": 1}}], {"target": 31})
    assert out["deals"][2]["titles"] == [{"title": "podvesnoy", "side": "EW"},
                                         {"title": "kozel", "side": "EW"}]
    assert out["losers"] == ["EW"] and out["winner"] == "NS"


def test_osel_reaching_101_loses() -> None:
    # «Подсчёт очков как в Козле — партия до 101»
    deal = {"result": "domino", "by": "N", "leader": "N", "pips": {"E": 30, "W": 30, "S": 1}}
    out, _ = run("osel", [deal, deal])
    assert out["totals"] == {"NS": 0, "EW": 120}
    assert (out["finished"], out["end"], out["winner"], out["losers"]) == (
        True, "target", "NS", ["EW"])


def test_chechevo_needs_tiles_and_counts_held_doubles() -> None:
    out, _ = run("chechevo", [{"result": "domino", "by": "N", "pips": {"E": 10, "S": 3}}])
    assert codes(out, 1) == ["tiles_needed", "tiles_needed"]
    assert "костям" in out["deals"][0]["errors"][0]["message_ru"]
    # E holds 6:6 1:0 (50 + 1) and S the lone 0:0 (25): S's 25 and E's 51 go to E: 76
    deal = {"result": "domino", "by": "N", "hands": {"E": "6:6 1:0", "S": "0:0"}}
    out, _ = run("chechevo", [deal])
    assert out["deals"][0]["values"] == {"N": 0, "E": 51, "S": 25}
    assert out["totals"] == {"N": 0, "E": 76, "S": 0}
    out, _ = run("chechevo", [deal], {"held_doubles": "lone"})
    assert out["deals"][0]["values"] == {"N": 0, "E": 13, "S": 25}


def test_semerka_a_seat_that_is_out_cannot_be_named() -> None:
    first = {"result": "domino", "by": "N", "hands": {"E": "6:5", "S": "1:0"}}
    out, _ = run("semerka", [first, {"result": "domino", "by": "N",
                                     "hands": {"E": "1:1", "S": "2:0"}}], {"sticks": 1})
    assert codes(out, 2) == ["bad_deal"]
    out, _ = run("semerka", [first, {"result": "domino", "by": "E",
                                     "hands": {"S": "2:0"}}], {"sticks": 1})
    assert codes(out, 2) == ["bad_deal"]


def test_general_leads_with_one_one_and_golyi() -> None:
    out, _ = run("general", [{"result": "domino", "by": "N", "lead_tile": "2:2"}])
    assert codes(out, 1) == ["bad_lead_tile"]
    out, _ = run("general", [{"result": "domino", "by": "N", "last_tiles": "0:0"},
                             {"result": "domino", "by": "S", "last_tiles": "6:6"},
                             {"result": "domino", "by": "E", "last_tiles": ["6:6", "0:0"]}],
                 {"general_rule": "golyi"})
    assert [d["titles"] for d in out["deals"]] == [
        [{"title": "golyi", "side": "EW"}], [], [{"title": "general", "side": "NS"}]]
    assert out["losses"] == {"NS": 1, "EW": 2}
    out, _ = run("general", [{"result": "domino", "by": "N", "last_tiles": "0:0"},
                             {"result": "domino", "by": "N", "last_tiles": "6:6"}],
                 {"end": "generals", "target": 2})
    assert (out["finished"], out["end"], out["winner"], out["losers"]) == (
        True, "generals", "NS", ["EW"])


def test_time_ends_every_game_with_the_side_ahead() -> None:
    out, _ = run("general", [{"result": "domino", "by": "N", "last_tiles": "0:0",
                              "time_up": True}])
    assert (out["end"], out["winner"], out["losers"]) == ("time", "NS", ["EW"])
    out, _ = run("dvorovoe", [{"result": "domino", "by": "N", "pips": {"E": 9},
                               "time_up": True}])
    assert (out["end"], out["winner"]) == ("time", "N")


def test_kozel_morskoy_six_six_wipe_stands_when_the_others_tie() -> None:
    out, status = run("kozel_morskoy", [
        {"result": "domino", "by": "N", "pips": {"E": 30, "S": 10}},
        {"result": "domino", "by": "E", "leader": "N", "last_tiles": "6:6",
         "pips": {"N": 5, "S": 5}}], players=3)
    assert status == 0
    assert out["totals"] == {"N": 0, "E": 0, "S": 0} and out["unclaimed_eggs"] == 10
    assert out["deals"][1]["recorded"] == {"N": 0, "E": 0, "S": 0}
