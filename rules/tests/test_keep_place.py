"""A refused deal keeping its place (``Judge.keep_place``), and messages a person reads: counts
agreeing with their nouns, how a match ended in words, the sides a declared amount got wrong.

The contract's fold judges the deals after a refused one as if it were absent (RULES.md section
12): under ``rotate`` every later deal then looks led by the wrong seat. A desk putting a protocol
right judges it with ``keep_place`` instead, and sees only the deal that is wrong.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from rules import Judge, make_rules
from rules.errors import Problem
from rules.fives import FivesJudge, make_fives_rules
from rules.simulate import play_match
from rules.tests._support import codes, ex1


def judge_in_place(judge: Any, deals: list[dict[str, Any]]) -> list[Any]:
    state = judge.start()
    verdicts = []
    for deal in deals:
        verdict = judge.judge(state, deal)
        if not verdict.ok:
            judge.keep_place(state, deal)
        verdicts.append(verdict)
    return verdicts


def spoil(deal: dict[str, Any]) -> dict[str, Any]:
    """The deal with one tile written twice: a tile of one hand copied into another."""
    bad = copy.deepcopy(deal)
    seats = list(bad["hands"])
    first = bad["hands"][seats[0]].split()[0]
    bad["hands"][seats[1]] += " " + first
    return bad


def test_one_wrong_deal_does_not_make_the_later_deals_look_led_by_the_wrong_seat() -> None:
    rules = make_rules("sport")
    deals = play_match(rules, random.Random(0), style="tiles")
    assert all(d.get("leader") for d in deals)
    deals[4] = spoil(deals[4])
    contract = Judge(rules).fold(deals).deals
    # what the page showed before: three false «wrong leader» after the wrong deal
    assert [codes(v) for v in contract[5:8]] == [["wrong_leader"]] * 3
    in_place = judge_in_place(Judge(rules), deals)
    assert codes(in_place[4]) == ["duplicate_tile"]
    assert [v.ok for i, v in enumerate(in_place) if i != 4] == [True] * (len(deals) - 1)


def test_a_deal_led_by_the_wrong_seat_after_a_refused_one_is_still_caught() -> None:
    rules = make_rules("sport")
    deals = play_match(rules, random.Random(0), style="tiles")
    deals[4] = spoil(deals[4])
    right = deals[6]["leader"]
    deals[6]["leader"] = deals[5]["leader"]
    verdicts = judge_in_place(Judge(rules), deals)
    assert codes(verdicts[6]) == ["wrong_leader"]
    assert verdicts[6].errors[0].extra["expected"] == right
    assert [v.ok for v in verdicts[7:]] == [True] * len(verdicts[7:])


def test_the_refused_deal_counts_toward_the_deals_played_but_scores_nothing() -> None:
    rules = make_rules("sport")
    deals = play_match(rules, random.Random(0), style="tiles")
    counted = [d for d in deals if d["result"] != "redeal"]
    assert len(counted) == 8
    deals[1] = spoil(deals[1])
    judge = Judge(rules)
    state = judge.start()
    for deal in deals:
        if not judge.judge(state, deal).ok:
            judge.keep_place(state, deal)
    assert state.counted == 8 and state.finished
    whole = Judge(rules).fold(play_match(rules, random.Random(0), style="tiles")).state
    # the totals lack only what the refused deal would have written
    assert sum(state.totals.values()) < sum(whole.totals.values())


def test_under_winner_the_seat_that_went_out_leads_next() -> None:
    judge = Judge(make_rules("kozel"))
    state = judge.start()
    broken = {"result": "domino", "by": "E", "hands": {"N": "9:9"}}
    assert not judge.judge(state, broken).ok
    judge.keep_place(state, broken)
    assert state.leader == "E"
    judge.keep_place(state, {"result": "fish", "by": "S"})
    assert state.leader is None  # after a fish the values decide (eggs): not checked
    judge.keep_place(state, "not a deal")
    assert state.leader is None


def test_fives_keep_place_moves_the_lead_on() -> None:
    judge = FivesJudge(make_fives_rules("fives", {"next_lead": "rotate", "first_lead": "seat_N"}))
    state = judge.start()
    judge.keep_place(state, {"result": "domino", "by": "S"})
    assert state.leader == "E"
    muggins = FivesJudge(make_fives_rules("muggins"))
    state = muggins.start()
    muggins.keep_place(state, {"result": "domino", "by": "E"})
    assert state.leader == "E"


def test_counts_in_messages_agree_with_their_nouns() -> None:
    def ru(code: str, **params: Any) -> str:
        return Problem(code, params).message("ru")

    assert "по костям 1 очко," in ru("pips_mismatch", seat="N", actual=1, pips=3)
    assert "по костям 3 очка," in ru("pips_mismatch", seat="N", actual=3, pips=1)
    assert "по костям 12 очков," in ru("pips_mismatch", seat="N", actual=12, pips=1)
    assert "по костям 21 очко," in ru("pips_mismatch", seat="N", actual=21, pips=1)
    assert "У места N 8 костей" in ru("hand_too_large", seat="N", count=8, limit=7)
    assert "У места N 22 кости" in ru("hand_too_large", seat="N", count=22, limit=21)
    assert "4 дубля или 6 костей" in ru("not_a_redeal", doubles=4, suit=6)
    en = Problem("pips_out_of_range", {"seat": "W", "pips": 1, "limit": 0}).message("en")
    assert en.startswith("Seat W: 1 pip is impossible")


def test_a_finished_match_is_said_in_words_not_by_its_code() -> None:
    rules = make_rules("sport")
    deals = play_match(rules, random.Random(0), style="tiles")
    late = Judge(rules).fold([*deals, ex1()]).deals[-1]
    assert codes(late) == ["deal_after_end"]
    ru, en = late.errors[0].message("ru"), late.errors[0].message("en")
    assert "(сыграны все раздачи)" in ru and "deals)" not in ru
    assert "(every deal has been played)" in en


def test_a_declared_amount_names_only_the_side_it_got_wrong() -> None:
    verdict = Judge(make_rules("sport")).fold([ex1(declared={"EW": 66})]).deals[0]
    assert codes(verdict) == ["declared_mismatch"]
    problem = verdict.errors[0]
    assert problem.message("ru") == "Объявлено EW 66, а по правилам записывается EW 58"
    assert problem.extra == {"expected": {"NS": 0, "EW": 58}, "declared": {"EW": 66}}
