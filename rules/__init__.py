"""The rules engine for domino matches: tiles, presets, judging deals, folding them into a match.

Pure Python: imports nothing from Django or the project's apps. The specification is RULES.md
(kept in the project's shared folder); ``docs/rules.md`` describes this package and its decisions.

    from rules import Judge, make_rules
    judge = Judge(make_rules("kozel", {"target": 51}))
    verdict = judge.fold(deals)          # or judge.judge(state, deal) one deal at a time
"""

from .contract import check
from .engine.judge import Judge
from .engine.types import DealVerdict, MatchState, MatchVerdict
from .errors import Problem, RulesError
from .presets import KNOBS, PRESETS, Rules, catalogue, make_rules

__all__ = [
    "KNOBS", "PRESETS", "DealVerdict", "Judge", "MatchState", "MatchVerdict", "Problem", "Rules",
    "RulesError", "catalogue", "check", "make_rules",
]
