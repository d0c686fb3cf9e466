"""Which rules engine judges a match: the fives games (``rules.fives``, RULES.md sections 15–23)
or the other games (``rules``). Every service asks here, so the choice is made in one place.

``make_match_rules`` resolves a preset with its knobs (raising ``rules.RulesError`` as both
engines do), ``judge_for`` builds the judge for resolved rules, ``deal_keys`` names the keys a
deal record may hold under them and ``deal_limit`` how many deals a protocol may hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import Judge, Rules, make_rules
from rules.fives import FivesJudge, FivesRules, make_fives_rules
from rules.games import FIVES, judge_of

#: the rules of any game a match can be played under
AnyRules = Rules | FivesRules
AnyJudge = Judge | FivesJudge

#: the keys of a deal record (RULES.md sections 5 and 13); nothing else is stored
DEAL_KEYS = frozenset({"result", "by", "leader", "hands", "pips", "lead_tile", "last_tiles",
                       "boneyard", "declared", "time_up"})  # fmt: skip
#: the keys of a fives deal record (sections 17 and 19): the line of play or the points
FIVES_DEAL_KEYS = frozenset({"result", "by", "leader", "hands", "pips", "boneyard", "declared",
                             "time_up", "play", "scores"})  # fmt: skip
#: a key of either game's records: what a deal may hold before its match's game is read
ALL_DEAL_KEYS = DEAL_KEYS | FIVES_DEAL_KEYS
#: the fives games end by a target, never by a count of deals: a bound for a protocol's size
FIVES_DEAL_LIMIT = 500


def make_match_rules(preset: Any, options: Mapping[str, Any] | None = None,
                     players: int | None = None) -> AnyRules:
    """``preset`` with ``options`` (and ``players``) applied, by the engine of its game."""
    if judge_of(preset) == FIVES:  # the one registry of games (rules.games) says which engine
        return make_fives_rules(preset, options, players)
    return make_rules(preset, options, players)


def is_fives(rules: AnyRules) -> bool:
    return isinstance(rules, FivesRules)


def judge_for(rules: AnyRules) -> AnyJudge:
    return FivesJudge(rules) if isinstance(rules, FivesRules) else Judge(rules)


def deal_keys(rules: AnyRules) -> frozenset[str]:
    return FIVES_DEAL_KEYS if isinstance(rules, FivesRules) else DEAL_KEYS


def deal_limit(rules: AnyRules) -> int:
    return FIVES_DEAL_LIMIT if isinstance(rules, FivesRules) else rules.deal_limit
