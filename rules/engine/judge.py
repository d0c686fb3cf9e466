"""Judging deals and folding them into a match.

``Judge(rules)`` checks one referee record at a time against a ``MatchState`` and, when the
record is legal, applies it. ``Judge.fold(deals)`` judges a whole match. The engine takes plain
data (the deal shape of RULES.md section 13) and returns plain data; it never touches a database
or a web request. A refused deal changes nothing in the state, so the deals after it are judged
as if it were absent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import Problem
from .scoring import DealScoring
from .types import DealVerdict, MatchState, MatchVerdict, _Refused


class Judge(DealScoring):
    """Judges deals under one set of rules. Cheap to keep; build once per match or per batch."""

    # ----------------------------------------------------------------- state
    def start(self) -> MatchState:
        zeros = dict.fromkeys(self.sides, 0)
        return MatchState(totals=zeros, hanging=dict(zeros), leader=self.first_leader)

    def fold(self, deals: Iterable[Any]) -> MatchVerdict:
        state = self.start()
        verdicts = [self.judge(state, deal) for deal in deals]
        return MatchVerdict(self.rules, verdicts, state)

    def judge(self, state: MatchState, deal: Any, apply: bool = True) -> DealVerdict:
        """Judge ``deal`` as the next deal after ``state``; apply it when legal and ``apply``."""
        n = state.n + 1
        if apply:
            state.n = n
        try:
            if state.finished:
                raise _Refused([Problem("deal_after_end", {"end": state.end})])
            if n > self.rules.deal_limit:
                raise _Refused([Problem("too_many_deals", {"limit": self.rules.deal_limit})])
            record = self._read(deal)
            self._check_structure(record)
            leader = self._check_consistency(state, record)
            return self._score(state, record, leader, n, apply)
        except _Refused as refused:
            return DealVerdict(
                n, False, refused.problems, None, None, dict.fromkeys(self.sides, 0),
                state.eggs, state.hanging, state.totals, state.leader,
            )
