"""A protocol put beside another version of itself, as the desk reads it: the correction page's
re-judged protocol and the history's account of a correction.

``compare(rules, records, before)`` judges ``records`` as one protocol
(``scoring.services.review``: a wrong deal keeps its place, a wrong written amount is shown beside
the rules') and lines its deals up with ``before`` (the version being corrected): each row says
whether its deal is new or changed, what it writes, where its running total moved, and what is
wrong with it; the deals no longer there are listed; the totals and the result are given before
and after. Plain data for templates; nothing here writes or scores a deal itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import ErrorItem
from scoring.games import AnyRules
from scoring.move_changes import deal_changes
from scoring.services.idempotency import deal_identity
from scoring.services.review import Review, ReviewedDeal, review
from scoring.sheet import result_label, side_label


@dataclass
class Cell:
    side: str
    label: str
    #: what the rules write this deal, and the running total after it
    amount: int
    total: int
    #: the running total of the version compared with, where it differs
    was_total: int | None = None
    #: what was written on paper (``declared``), where it differs from ``amount``
    written: int | None = None


@dataclass
class Line:
    index: int
    n: int
    record: dict[str, Any]
    leader: str
    result: str
    result_label: str
    by: str
    hands: str
    cells: list[Cell]
    errors: list[ErrorItem]
    #: "same", "changed" (the deal at its place was another), "new" (no deal matched it)
    status: str = "same"
    #: the deal as it was, for a changed one
    was: str = ""
    #: the rules' amounts, for a deal whose written amount differs (to accept them)
    expected: dict[str, int] | None = None
    #: a changed line of play, entry by entry in words (``scoring.move_changes``)
    moves: list[str] = field(default_factory=list)

    @property
    def refused(self) -> bool:
        return bool(self.errors) and not self.expected

    @property
    def scored(self) -> list[Cell]:
        """The sides this deal writes something for."""
        return [cell for cell in self.cells if cell.amount]

    @property
    def accept_json(self) -> str:
        return json.dumps(self.expected or {})


@dataclass
class Total:
    side: str
    label: str
    total: int
    was: int | None = None
    paper: int | None = None


@dataclass
class Comparison:
    lines: list[Line]
    totals: list[Total]
    finished: bool
    winner: str
    was_winner: str | None
    #: deals of the compared version that are no longer in the protocol: (n, description)
    removed: list[tuple[int, str]] = field(default_factory=list)
    review: Review | None = None

    @property
    def ok(self) -> bool:
        return self.review is None or self.review.ok

    @property
    def errors(self) -> list[ErrorItem]:
        return self.review.errors if self.review is not None else []

    @property
    def changed(self) -> list[Line]:
        return [line for line in self.lines if line.status != "same"]

    @property
    def refused(self) -> bool:
        """A deal is refused for anything but its written amount."""
        return any(line.refused for line in self.lines)

    @property
    def changes(self) -> int:
        """Deals changed, added or taken out."""
        return len(self.changed) + len(self.removed)

    @property
    def paper_differs(self) -> bool:
        return any(t.paper is not None and t.paper != t.total for t in self.totals)

    @property
    def totals_changed(self) -> bool:
        return any(t.was is not None for t in self.totals) or self.was_winner is not None


def winner_text(finished: bool, winner: str | None) -> str:
    if not finished:
        return _("not over")
    if winner == "draw":
        return _("draw")
    return side_label(winner) if winner else ""


def hands_text(record: dict[str, Any], seats: Sequence[str]) -> str:
    """What was left in the hands, seat by seat: «N 6:0 1:1 · S 0:0», pips as «W 12»."""
    hands = record.get("hands") or {}
    pips = record.get("pips") or {}
    parts = []
    for seat in seats:
        value = hands.get(seat) if isinstance(hands, dict) else None
        if isinstance(value, list):
            value = " ".join(v if isinstance(v, str) else ":".join(map(str, v)) for v in value)
        if value is None and isinstance(pips, dict) and pips.get(seat) is not None:
            value = ngettext("%(pips)s pip", "%(pips)s pips", int(pips[seat])) \
                % {"pips": pips[seat]}
        if value:
            parts.append(f"{seat} {value}")
    if record.get("play"):
        moves = len(record["play"])
        parts.append(ngettext("%(n)s move", "%(n)s moves", moves) % {"n": moves})
    return " · ".join(parts)


def deal_text(record: dict[str, Any], seats: Sequence[str]) -> str:
    """One deal in a line: «domino E · N 6:0 1:1 · S 0:0 · W 2:0»."""
    head = str(result_label(str(record.get("result", ""))))
    if record.get("by") and record.get("result") != "redeal":
        head += f" {record['by']}"
    return " · ".join(p for p in (head, hands_text(record, seats)) if p)


def _key(record: Any) -> str:
    return json.dumps(deal_identity(record), sort_keys=True, default=str)


def align(before: Sequence[Any], after: Sequence[Any]) -> list[tuple[int | None, int | None]]:
    """The deals of ``after`` lined up with those of ``before``: pairs of indexes, None where a
    deal has no counterpart. Equal deals match; between them a deal replaced at its place pairs
    with the one it replaced."""
    pairs: list[tuple[int | None, int | None]] = []
    matcher = SequenceMatcher(None, [_key(r) for r in before], [_key(r) for r in after],
                              autojunk=False)
    for tag, b0, b1, a0, a1 in matcher.get_opcodes():
        if tag == "equal":
            pairs += [(b0 + k, a0 + k) for k in range(b1 - b0)]
            continue
        common = min(b1 - b0, a1 - a0) if tag == "replace" else 0
        pairs += [(b0 + k, a0 + k) for k in range(common)]
        pairs += [(None, a) for a in range(a0 + common, a1)]
        pairs += [(b, None) for b in range(b0 + common, b1)]
    return pairs


def compare(rules: AnyRules, records: Sequence[dict[str, Any]],
            before: Sequence[dict[str, Any]] | None = None) -> Comparison:
    """``records`` judged as one protocol, beside ``before`` when given."""
    seats, sides = list(rules.seats), list(rules.sides)
    now = review(rules, records)
    then = review(rules, before) if before is not None else None
    pairs = align(before, records) if before is not None else []
    partner = {a: b for b, a in pairs if a is not None}
    lines = []
    for i, deal in enumerate(now.deals):
        line = _line(i, deal, seats, sides)
        if then is not None:
            b = partner.get(i)
            if b is None:
                line.status = "new"
            else:
                old = then.deals[b]
                if _key(old.record) != _key(deal.record):
                    line.status, line.was = "changed", deal_text(old.record, seats)
                    line.moves = deal_changes(deal.n, deal.record, old.record)
                for cell in line.cells:
                    was = int(old.verdict.totals.get(cell.side, 0))
                    if was != cell.total:
                        cell.was_total = was
        lines.append(line)
    removed = []
    if then is not None and before is not None:
        removed = [(b + 1, deal_text(before[b], seats)) for b, a in pairs if a is None]
    totals = []
    paper = now.paper_totals or {}
    for side in sides:
        total = Total(side, side_label(side), int(now.state.totals.get(side, 0)),
                      paper=paper.get(side))
        if then is not None and int(then.state.totals.get(side, 0)) != total.total:
            total.was = int(then.state.totals.get(side, 0))
        totals.append(total)
    winner = winner_text(now.state.finished, now.state.winner)
    was_winner = None
    if then is not None:
        was = winner_text(then.state.finished, then.state.winner)
        was_winner = was if was != winner else None
    return Comparison(lines, totals, now.state.finished, winner, was_winner, removed, now)


def _line(index: int, deal: ReviewedDeal, seats: list[str], sides: list[str]) -> Line:
    record, verdict = deal.record, deal.verdict
    written = deal.declared if deal.written_differs else None
    cells = []
    for side in sides:
        amount = int(verdict.recorded.get(side, 0))
        cell = Cell(side, side_label(side), amount, int(verdict.totals.get(side, 0)))
        if written is not None and written.get(side, 0) != amount:
            cell.written = written.get(side, 0)
        cells.append(cell)
    leader = record.get("leader") or deal.rules_leader or getattr(verdict, "leader", None) or ""
    result = str(record.get("result", ""))
    by = str(record.get("by") or "") if result != "redeal" else ""
    moves = getattr(verdict, "moves", None) or []
    if not by and result == "domino" and moves:  # a fives line of play: its last move went out
        by = str(moves[-1].get("seat") or "")
    return Line(
        index=index, n=deal.n, record=record, leader=str(leader), result=result,
        result_label=str(result_label(result)),
        by=by, hands=hands_text(record, seats), cells=cells, errors=deal.errors,
        expected={s: int(verdict.recorded.get(s, 0)) for s in sides}
        if deal.written_differs else None,
    )  # fmt: skip
