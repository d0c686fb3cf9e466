"""The fives judge: one deal at a time against a match state, or a whole match.

``FivesJudge(rules)`` reads a record (``reading``), checks the hands (``hands``), judges the line
of play (``strong``) or the points (``light``), scores it (``scoring``) and, when it is legal and
``apply`` is set, applies it. A refused deal changes nothing: the deals after it are judged as if
it were absent (RULES.md section 21).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import Problem, declared_problem
from .hands import check_hands, seat_values
from .light import judge_scores
from .presets import FivesRules, make_fives_rules
from .reading import read_deal
from .scoring import end_match, score_deal
from .strong import judge_play
from .table import FivesTable
from .telefon import checks_first_lead
from .types import FivesDealVerdict, FivesMatchVerdict, FivesState, Refused


class FivesJudge:
    """Judges fives deals under one set of rules. Cheap to keep; build once per match."""

    __slots__ = ("rules", "side_of", "sides")

    def __init__(self, rules: FivesRules) -> None:
        self.rules = rules
        self.sides = rules.sides
        if rules.partnership:
            self.side_of = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
        else:
            self.side_of = {seat: seat for seat in rules.seats}

    def start(self) -> FivesState:
        lead = self.rules.first_lead
        return FivesState(totals=dict.fromkeys(self.sides, 0),
                          leader=lead[5:] if lead.startswith("seat_") else None)

    def keep_place(self, state: FivesState, deal: Any) -> None:
        """After ``deal`` was refused, let it keep its place in the order of leads (as
        ``rules.Judge.keep_place``): under ``rotate`` the lead passes to the next seat, after a
        domino under ``winner`` to the seat that went out (``by``); else it is left unknown, and
        the next deal's leader is not checked. Nothing is scored."""
        record: Mapping[str, Any] = deal if isinstance(deal, Mapping) else {}
        get = record.get
        seats = self.rules.seats
        leader, by = get("leader"), get("by")
        if state.leader is not None or leader not in seats:
            leader = state.leader  # the rules' leader, when they name one (a wrong one refused)
        next_leader = None
        if self.rules.next_lead == "rotate":
            if leader in seats:
                next_leader = seats[(seats.index(leader) + 1) % len(seats)]
        elif get("result") == "domino" and by in seats:
            next_leader = by
        state.leader = next_leader

    def table(self) -> FivesTable:
        """An empty table under these rules, for a UI that lays the moves one by one."""
        return FivesTable(self.rules)

    def fold(self, deals: Iterable[Any]) -> FivesMatchVerdict:
        state = self.start()
        verdicts = [self.judge(state, deal) for deal in deals]
        return FivesMatchVerdict(self.rules, verdicts, state)

    def judge(self, state: FivesState, deal: Any, apply: bool = True) -> FivesDealVerdict:
        """Judge ``deal`` as the next deal after ``state``; apply it when legal and ``apply``."""
        n = state.n + 1
        if apply:
            state.n = n
        rules, side_of = self.rules, self.side_of
        try:
            if state.finished:
                raise Refused(Problem("deal_after_end", {"end": state.end}))
            d = read_deal(rules, deal)
            check_hands(rules, d)
            if d.play is not None:
                played = judge_play(rules, d, state.totals, state.leader, side_of,
                                    checks_first_lead(rules, state))
            else:
                played = judge_scores(rules, d, state.totals, state.leader, side_of)
            values = seat_values(rules, d)
            score = score_deal(rules, state, d, values, side_of, played.play_points,
                               played.leader or None, played.reached, played.moves)
            if d.declared is not None:
                declared = {s: d.declared.get(s, 0) for s in self.sides}
                if declared != score.recorded:
                    raise Refused(declared_problem(declared, score.recorded))
        except Refused as refused:
            zeros = dict.fromkeys(self.sides, 0)
            return FivesDealVerdict(n, False, [refused.problem], None, None, zeros, dict(zeros),
                                    dict(zeros), state.eggs, dict(state.totals), state.leader,
                                    write_off=dict(zeros) if rules.outputs_34 else None)
        target = state if apply else state.copy()
        for side, amount in score.recorded.items():
            target.totals[side] += amount
        if score.eggs_taken:
            target.eggs_claimed += score.eggs_taken
            target.eggs = 0
        target.eggs += score.eggs_laid
        target.leader = score.next_leader
        target.accepted += 1
        end_match(rules, target, d, score.winner)
        return FivesDealVerdict(
            n, True, [], score.winner, score.values, played.play_points, score.bonus,
            score.recorded, target.eggs, dict(target.totals), score.next_leader, played.moves,
            played.leader or None, score.eggs_taken, score.write_off,
        )


def judge_deal(rules: FivesRules | str, deal: Mapping[str, Any],
               state: FivesState | None = None,
               options: Mapping[str, Any] | None = None) -> FivesDealVerdict:
    """One deal judged without keeping a judge: ``rules`` is a ``FivesRules`` or a preset name
    (with ``options``); ``state`` is the match so far (a fresh match when None). Nothing is
    applied to ``state``."""
    if isinstance(rules, str):
        rules = make_fives_rules(rules, options)
    judge = FivesJudge(rules)
    return judge.judge(state if state is not None else judge.start(), deal, apply=False)
