"""Which rules engine judges a match: the fives games (``rules.fives``, RULES.md sections 15–23),
the club games of seed 003 (``rules.club``, sections 24–31) or the classic games (``rules``).
Every service asks here, so the choice is made in one place.

``make_match_rules`` resolves a preset with its knobs (raising ``rules.RulesError`` as both
engines do), ``judge_for`` builds the judge for resolved rules, ``deal_keys`` names the keys a
deal record may hold under them and ``deal_limit`` how many deals a protocol may hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import Judge, Rules, make_rules
from rules.club import ClubJudge, ClubRules, make_club_rules
from rules.club.games import JUDGES as CLUB_JUDGES
from rules.club.presets import MAX_ENTRIES as CLUB_DEAL_LIMIT
from rules.fives import FivesJudge, FivesRules, make_fives_rules
from rules.games import CLUB, FIVES, judge_of

#: the rules of any game a match can be played under
AnyRules = Rules | FivesRules | ClubRules
AnyJudge = Judge | FivesJudge | ClubJudge

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
    judge = judge_of(preset)  # the one registry of games (rules.games) says which engine
    if judge == FIVES:
        return make_fives_rules(preset, options, players)
    if judge == CLUB:
        return make_club_rules(preset, options, players)  # type: ignore[arg-type]
    return make_rules(preset, options, players)


def is_fives(rules: AnyRules) -> bool:
    return isinstance(rules, FivesRules)


def is_club(rules: AnyRules) -> bool:
    return isinstance(rules, ClubRules)


def judge_for(rules: AnyRules) -> AnyJudge:
    if isinstance(rules, FivesRules):
        return FivesJudge(rules)
    if isinstance(rules, ClubRules):
        return CLUB_JUDGES[rules.preset](rules)
    return Judge(rules)


def deal_keys(rules: AnyRules) -> frozenset[str]:
    return FIVES_DEAL_KEYS if isinstance(rules, FivesRules) else DEAL_KEYS


def deal_limit(rules: AnyRules) -> int:
    if isinstance(rules, FivesRules):
        return FIVES_DEAL_LIMIT
    if isinstance(rules, ClubRules):
        return CLUB_DEAL_LIMIT
    return rules.deal_limit


#: the club games whose special endings hang on the finishing tiles (RULES.md section 26: «a
#: score sheet for kozel_morskoy, chechevo and general asks for it on every domino»)
_ASKS_FINISH = frozenset({"kozel_morskoy", "chechevo", "general"})


def sheet_asks(rules: AnyRules) -> frozenset[str]:
    """What the referee's sheet asks beyond section 5's record, only for the games that need
    it: ``finish`` (the tiles of the move that went out: 0:0, 6:6, both) and ``lead`` (the
    quick and «внеочередной» leads of ``kozel_morskoy``, section 27)."""
    if not isinstance(rules, ClubRules):
        return frozenset()
    asks = {"finish"} if rules.preset in _ASKS_FINISH else set()
    if rules.preset == "kozel_morskoy":
        asks.add("lead")
    return frozenset(asks)


def seats_out(rules: AnyRules, outcome: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The seats out of the match, in the order they went (``semerka``'s sticks; the match's
    ``outcome``); a later deal names only the others (section 26)."""
    if not isinstance(rules, ClubRules) or not outcome:
        return ()
    return tuple(s for s in outcome.get("out") or () if s in rules.seats)
