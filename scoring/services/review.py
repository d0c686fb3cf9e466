"""A protocol judged as a whole while the desk puts it right: a confirmed protocol being
corrected, or a paper protocol being typed in. Writes nothing.

``review(rules, records)`` judges the records in order through the match's engine
(``scoring.games``), with two differences from the contract's fold, both so that the desk sees
only what is wrong and what its change causes:

- a refused deal keeps its place (``Judge.keep_place``): one wrong deal no longer makes every
  later deal look led by the wrong seat (the fold judges them as if it were absent);
- a deal refused only because the amount written for it (``declared``) is not the rules' counts
  with the rules' amount: its row says «записано 66, по правилам 58» and the totals go on as the
  rules give them, which is what the desk accepts, or corrects the hands.

Every problem is an error item (``scoring.errors``) naming its deal (``n``) and, where the engine
says, the seat. ``Review.ok`` is the protocol the services would store (``correct``,
``record_deals``): every deal legal and every written amount the rules'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring.errors import ErrorItem, problem_item
from scoring.games import AnyRules, judge_for
from scoring.services.state import AnyState, AnyVerdict


@dataclass
class ReviewedDeal:
    n: int
    record: dict[str, Any]
    #: the rules' verdict; for a deal whose written amount alone was wrong, without it
    verdict: AnyVerdict
    #: what must be put right before the protocol is stored, each naming this deal
    errors: list[ErrorItem] = field(default_factory=list)
    #: the seat the rules named to lead this deal (None where they do not name one)
    rules_leader: str | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def declared(self) -> dict[str, int] | None:
        """The amounts written for each side (a side left out wrote 0), or None."""
        declared = self.record.get("declared")
        if not isinstance(declared, dict):
            return None
        sides = list(self.verdict.recorded)
        return {s: int(declared.get(s) or 0) for s in sides}

    @property
    def written_differs(self) -> bool:
        """The deal is legal, but what was written for it is not what the rules write."""
        return bool(self.errors) and all(e["code"] == "declared_mismatch" for e in self.errors)

    @property
    def refused(self) -> bool:
        """Refused for anything but its written amount: it scores nothing."""
        return bool(self.errors) and not self.written_differs


@dataclass
class Review:
    deals: list[ReviewedDeal]
    #: the engine's state after the last deal (the rules' totals, the end and the winner)
    state: AnyState
    #: what the written amounts add up to, where any was written (else None): a deal without one
    #: counts with the rules' amount, a refused one with nothing
    paper_totals: dict[str, int] | None

    @property
    def ok(self) -> bool:
        return all(d.ok for d in self.deals)

    @property
    def errors(self) -> list[ErrorItem]:
        return [e for d in self.deals for e in d.errors]

    @property
    def won(self) -> dict[str, int]:
        """Deals each side won, as ``Match.deals_won`` counts them."""
        won: dict[str, int] = {}
        for deal in self.deals:
            if deal.ok and deal.verdict.winner:
                won[deal.verdict.winner] = won.get(deal.verdict.winner, 0) + 1
        return won


def review(rules: AnyRules, records: Sequence[dict[str, Any]]) -> Review:
    """Judge ``records`` (cleaned deal records, in order) as one protocol under ``rules``."""
    judge = judge_for(rules)
    state = judge.start()
    reviewed: list[ReviewedDeal] = []
    paper: dict[str, int] = dict.fromkeys(state.totals, 0)
    any_written = False
    for i, record in enumerate(records):
        n = i + 1
        before = state.copy()
        leader = state.leader
        verdict = judge.judge(state, record)  # type: ignore[arg-type]
        errors = [_item(p, i, n) for p in verdict.errors]
        if not verdict.ok and {p.code for p in verdict.errors} == {"declared_mismatch"}:
            state = before
            as_ruled = {k: v for k, v in record.items() if k != "declared"}
            verdict = judge.judge(state, as_ruled)  # type: ignore[arg-type]
        elif not verdict.ok:
            judge.keep_place(state, record)  # type: ignore[arg-type]
        deal = ReviewedDeal(n, record, verdict, errors, leader)
        reviewed.append(deal)
        written = deal.declared
        if written is not None:
            any_written = True
        elif not deal.refused:
            written = {s: int(a) for s, a in verdict.recorded.items()}
        for side, amount in (written or {}).items():
            if side in paper:
                paper[side] += amount
    return Review(reviewed, state, paper if any_written else None)


def _item(problem: Any, index: int, n: int) -> ErrorItem:
    item = problem_item(problem, f"deals.{index}")
    item["n"] = n
    return item


def numbered(items: list[ErrorItem]) -> list[ErrorItem]:
    """The items with their deal's number in the message («Раздача 5: …»), for an answer that
    lists a whole protocol's problems (the API's and a page's refusal)."""
    out = []
    for item in items:
        if "n" in item:
            item = {**item, "message": _("Deal %(n)s: %(message)s")
                    % {"n": item["n"], "message": item["message"]}}
        out.append(item)
    return out
