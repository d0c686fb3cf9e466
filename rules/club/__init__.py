"""The end-of-deal club games of seed 003 (RULES.md sections 24–31, 33–34), pure Python.

``dvorovoe`` («дворовое»), ``kozel_morskoy`` («Морской козёл» as 003 tells it), ``osel``
(«Осёл», the cross), ``chechevo`` («Чечевэ»), ``semerka`` («Семёрка», sticks) and ``general``
(«Генерал»). The referee records the end of each deal as section 5 says; each game has a judge
class (``games``), sharing the reading (``reading``), the stages (``judge``), the hand values
(``values``), the knobs (``presets``) and the contract (``contract``). Section 31's tile checks
live in ``tiles`` (written beside this package; the judge runs them when present).

    from rules.club import club_judge, make_club_rules
    verdict = club_judge(make_club_rules("chechevo", {"target": 51}, players=3)).fold(deals)
"""

from __future__ import annotations

from . import messages as _messages  # noqa: F401  (registers the new codes' messages)
from .contract import check_club, club_judge
from .judge import ClubJudge
from .presets import CLUB_KNOBS, CLUB_PRESETS, ClubRules, is_club_preset, make_club_rules

__all__ = [
    "CLUB_KNOBS", "CLUB_PRESETS", "ClubJudge", "ClubRules", "check_club", "club_judge",
    "is_club_preset", "make_club_rules",
]
