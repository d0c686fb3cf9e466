"""Judging deals and folding them into a match.

``Judge(rules)`` checks one referee record at a time against a ``MatchState`` and, when the
record is legal, applies it. ``Judge.fold(deals)`` judges a whole match. The engine takes plain
data (the deal shape of RULES.md section 13) and returns plain data; it never touches a database
or a web request. A refused deal changes nothing in the state, so the deals after it are judged
as if it were absent; ``keep_place`` lets a refused deal keep its place in the order of leads
instead, for a protocol being put right as a whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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

    def keep_place(self, state: MatchState, deal: Any) -> None:
        """After ``deal`` was refused, let it keep its place: the next deal is then judged as the
        referee expects while the refused one is being put right (a protocol corrected or copied
        from paper), not as if it were absent, as ``fold`` and the contract judge it (RULES.md
        section 12). Nothing is scored: the deal counts toward the deals played (domino or fish)
        and the lead moves on from the leader the rules named (else its ``leader``) as far as its
        ``result`` and ``by`` tell (section 9); where they do not tell, the next leader is left
        unknown and so is not checked."""
        record: Mapping[str, Any] = deal if isinstance(deal, Mapping) else {}
        get = record.get
        result, by, leader = get("result"), get("by"), get("leader")
        if state.leader is not None or leader not in self.seat_set:
            leader = state.leader  # the rules' leader, when they name one (a wrong one refused)
        next_leader: str | None = None
        if result == "redeal":
            ladder = self.rules.first_lead == "ladder" and state.counted == 0
            next_leader = None if ladder else leader
        elif result in ("domino", "fish"):
            state.counted += 1
            if self.rotate:
                next_leader = self.next_seat[leader] if leader is not None else None
            elif result == "domino" and by in self.seat_set:
                next_leader = by
            # after a fish under ``winner`` the leader depends on the values (eggs): unknown
        state.leader = next_leader
