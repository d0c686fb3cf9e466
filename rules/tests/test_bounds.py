"""Every knob is bounded, and so is a match: what an override or a protocol may hold.

A number knob without an upper bound let one standalone match ask for 400,000 deals (its print
page took 14 s, its PDF ran until the worker was killed). ``make_rules`` is the only way rules
are made, so a bound here holds for the forms, the API, the model validation and the archive.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import RulesError
from rules.presets import (
    KNOBS,
    MAX_DEALS,
    MAX_TARGET,
    MAX_TARGET_ENTRIES,
    make_rules,
)
from rules.tests._support import REDEAL_HANDS, codes, domino_pips, fold

NUMBER_KNOBS = sorted(name for name, knob in KNOBS.items() if knob.kind is int)
#: a preset and the players with which the knob's extreme values are otherwise sensible
WHERE = {"hand_size": ("kozel", 2), "boneyard_keep": ("kozel", 2)}


def _rules(name: str, value: Any) -> Any:
    preset, players = WHERE.get(name, ("kozel", None))
    options = {name: value}
    if name == "boneyard_keep":
        options["hand_size"] = 1  # two hands of one: a boneyard of 26
    return make_rules(preset, options, players)


def test_every_number_knob_has_both_bounds() -> None:
    assert NUMBER_KNOBS, "the knob table lost its numbers"
    for name in NUMBER_KNOBS:
        knob = KNOBS[name]
        assert knob.low is not None and knob.high is not None, name
        assert knob.describe()["max"] == knob.high


@pytest.mark.parametrize("name", NUMBER_KNOBS)
def test_a_number_knob_above_its_bound_is_bad_option(name: str) -> None:
    high = KNOBS[name].high
    assert high is not None
    for value in (high + 1, 400_000, 2**63):
        with pytest.raises(RulesError) as err:
            _rules(name, value)
        assert err.value.code == "bad_option"
        assert err.value.problem.extra["option"] == name
        assert str(high) in err.value.problem.message("ru")


@pytest.mark.parametrize("name", [n for n in NUMBER_KNOBS if n != "players"])
def test_a_number_knob_at_its_bound_is_accepted(name: str) -> None:
    high = KNOBS[name].high
    assert high is not None
    value = high if name != "boneyard_keep" else 26
    assert getattr(_rules(name, value), name) == value


def test_the_bounds_hold_what_real_events_play() -> None:
    assert make_rules("sport", {"deals": 12}).deals == 12
    assert make_rules("sport", {"deals": MAX_DEALS}).deals == 100
    assert make_rules("international", {"target": 500}).target == 500
    assert make_rules("international", {"target": MAX_TARGET}).target == 1000
    assert MAX_DEALS % 4 == 0  # sports domino's largest match is legal too


def test_deal_limit_follows_the_rules() -> None:
    assert make_rules("sport").deal_limit == 16
    assert make_rules("sport", {"deals": 100}).deal_limit == 200
    assert make_rules("kozel").deal_limit == MAX_TARGET_ENTRIES
    assert make_rules("international", {"target": 1000}).deal_limit == MAX_TARGET_ENTRIES


def test_a_deal_beyond_the_limit_is_too_many_deals() -> None:
    # eight deals and as many redeals fill a sports match of eight deals (16 entries)
    redeal = {"result": "redeal", "hands": REDEAL_HANDS}
    verdict = fold([redeal] * 16 + [redeal])
    assert all(d.ok for d in verdict.deals[:16])
    assert codes(verdict.deals[16]) == ["too_many_deals"]
    assert "16" in verdict.deals[16].errors[0].message("ru")
    # the seventeenth changes nothing, and a finished match still says deal_after_end
    assert verdict.deals[16].totals == verdict.deals[15].totals
    out = domino_pips("N", {"E": 3, "S": 5, "W": 4})
    done = fold([out] * 9)
    assert all(d.ok for d in done.deals[:8])
    assert codes(done.deals[8]) == ["deal_after_end"]
