"""Arbitrary JSON thrown at the engine: it never crashes, and a refused deal changes nothing."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contract import check
from rules.engine.judge import Judge
from rules.presets import make_rules
from rules.simulate import play_match

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=4),
    max_leaves=12,
)
SEAT_ISH = st.sampled_from(["N", "E", "S", "W", "X", "", "n"]) | JSON
TILE_TEXT = st.lists(
    st.sampled_from(["6:6", "0:0", "1-2", "3|4", "[5|6]", "7:1", "x", "6:6", "2:2", "1:0"]),
    max_size=9,
).map(" ".join)
DEAL_FIELDS = {
    "result": st.sampled_from(["domino", "fish", "redeal", "win"]) | JSON,
    "by": SEAT_ISH,
    "leader": SEAT_ISH,
    "hands": st.dictionaries(SEAT_ISH.filter(lambda x: isinstance(x, str)),
                             TILE_TEXT | JSON, max_size=5) | JSON,
    "pips": st.dictionaries(SEAT_ISH.filter(lambda x: isinstance(x, str)),
                            st.integers(-5, 200) | JSON, max_size=5) | JSON,
    "lead_tile": TILE_TEXT | JSON,
    "last_tiles": TILE_TEXT | JSON,
    "boneyard": TILE_TEXT | JSON,
    "declared": st.dictionaries(st.sampled_from(["NS", "EW", "N", "x"]),
                                st.integers(-5, 200) | JSON, max_size=3) | JSON,
    "time_up": JSON,
}
DEALS = st.fixed_dictionaries({}, optional=DEAL_FIELDS) | JSON


@settings(max_examples=400, deadline=None)
@given(deal=DEALS, preset=st.sampled_from(["sport", "kozel", "morskoy", "international"]),
       seed=st.integers(0, 2**16))
def test_any_record_is_judged_without_crashing_and_a_refusal_changes_nothing(
    deal: Any, preset: str, seed: int
) -> None:
    rules = make_rules(preset)
    judge = Judge(rules)
    state = judge.start()
    for legal in play_match(rules, random.Random(seed), style="tiles")[:2]:
        judge.judge(state, legal)
    before = (dict(state.totals), dict(state.hanging), state.eggs, state.leader, state.counted)
    verdict = judge.judge(state, deal)
    json.dumps(verdict.to_dict())  # always serialisable
    if not verdict.ok:
        assert verdict.errors and all(p.code and p.message("ru") and p.message("en")
                                      for p in verdict.errors)
        after = (dict(state.totals), dict(state.hanging), state.eggs, state.leader,
                 state.counted)
        assert after == before
        assert verdict.totals == before[0]


@settings(max_examples=200, deadline=None)
@given(data=JSON | st.fixed_dictionaries({}, optional={
    "preset": st.sampled_from(["sport", "kozel", "chess"]) | JSON,
    "options": st.dictionaries(st.sampled_from(["deals", "target", "players", "colour"]),
                               JSON, max_size=3) | JSON,
    "players": JSON,
    "deals": st.lists(DEALS, max_size=3) | JSON,
}))
def test_any_contract_input_gets_a_verdict_or_a_clear_refusal(data: Any) -> None:
    out, status = check(data)
    json.dumps(out)
    if status == 2:
        assert out["ok"] is False and out["errors"][0]["code"] in ("bad_input", "bad_option")
    else:
        assert status == (0 if out["ok"] else 1)
        assert len(out["deals"]) == len(data.get("deals", []))
