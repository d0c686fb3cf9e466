"""The protocol as people read it: plain data for the referee's page, the print page and the PDF.

``build_sheet`` turns a match and its stored deals into rows that look like the paper protocol
(deal, lead, result, what was written for each side and the running totals). Every number comes
from the verdicts the services stored; nothing here judges or adds up a deal. It must not write
to the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _

from rules.club.presets import CLUB_PRESETS
from scoring import club_words
from scoring.labels import seat_label, side_label
from scoring.rules_words import rules_words

#: How many empty rows a blank protocol gets when the match does not end after a fixed number
#: of deals (kozel, morskoy …): a page of rows the referee can fill by hand.
OPEN_ENDED_ROWS = 16
#: Spare rows of a blank protocol with a fixed number of deals: redeals take a row too.
SPARE_ROWS = 2


def result_label(result: str) -> str:
    return {
        "domino": _("domino"),
        "fish": _("fish"),
        "redeal": _("redeal"),
        "target": _("target reached"),
    }.get(result, result)


@dataclass
class SeatLine:
    seat: str
    label: str
    name: str
    side: str


@dataclass
class SideLine:
    side: str
    label: str
    names: str

    @property
    def signer(self) -> str:
        """Who signs for the side under the protocol: a pair's or team's captain, or the player
        himself when the side is one seat (head to head, each for himself)."""
        return str(_("Player") if len(self.side) == 1 else _("Captain"))


@dataclass
class Row:
    n: int
    leader: str
    result: str
    result_label: str
    by: str
    #: what each seat still held: tiles as written, or «12» pips; "" for the one who went out
    hands: dict[str, str]
    #: per side, in the order of ``Sheet.sides``
    recorded: list[int]
    totals: list[int]
    eggs: int
    winner: str | None
    #: a fives deal: its moves that scored («N 5:5 +10») and its bonus («bonus N +2»)
    scoring: list[str] = field(default_factory=list)
    #: time ran out after this deal (the referee's mark, or the server's by the clock)
    time_up: bool = False
    #: the deal was won but what it gave was below the minimum and lost (``below_min: discard``)
    burnt: bool = False
    #: the ladder named the leader (``leader`` is then the double he led, «1:1»): what that means
    leader_rule: str = ""
    #: a club game's titles, sticks, players out, in words (``scoring.club_words.deal_notes``)
    notes: list[str] = field(default_factory=list)

    @property
    def is_redeal(self) -> bool:
        return self.result == "redeal"

    @property
    def cells(self) -> list[tuple[int, int]]:
        """(written, running total) per side."""
        return list(zip(self.recorded, self.totals, strict=True))


@dataclass
class Sheet:
    match_id: int
    title: str
    label: str
    table: str
    preset: str
    #: the game by its name and the knobs the match changed, in words (``scoring.rules_words``)
    rules_words: str
    status: str
    status_label: str
    seats: list[SeatLine]
    sides: list[SideLine]
    rows: list[Row]
    totals: list[int]
    finished: bool
    end: str | None
    winner: str | None
    winner_label: str
    unclaimed_eggs: int
    next_leader: str | None
    blank_rows: int
    #: rows of the blank form: the deals the rules play, and spare ones for redeals
    planned_rows: int = 0
    #: how the next deal's leader is found when no seat is named (``next_leader`` empty):
    #: ``ladder`` (every tile dealt: the holder of 1:1), ``ladder_boneyard`` (the lowest double
    #: held), ``lot`` (drawn by lot), "" (the record will say)
    lead_rule: str = ""
    #: the smallest amount written (``min_record``; 0: none)
    min_record: int = 0
    url: str = ""
    facts: list[tuple[str, str]] = field(default_factory=list)
    #: printed for a round's paper in one go: no status and no match number (they mean
    #: nothing on paper; the QR code leads to the sheet)
    paper: bool = False
    #: what the totals count when they are not points («палки», «генералы»); "" for points
    units: str = ""
    #: a club game's titles, players out and lost deals, a line each (``club_words``)
    outcome: list[str] = field(default_factory=list)

    @property
    def grid_columns(self) -> int:
        """Columns of the printed grid: №, lead, result, by, what each seat had left, two per
        side, eggs."""
        return 5 + len(self.seats) + 2 * len(self.sides)

    @property
    def seat_map(self) -> dict[str, SeatLine]:
        return {s.seat: s for s in self.seats}

    @property
    def next_leader_name(self) -> str:
        return self.seat_name(self.next_leader)

    def seat_name(self, seat: str | None) -> str:
        if not seat:
            return ""
        line = self.seat_map.get(seat)
        if line is None:
            return seat
        return f"{line.label} · {line.name}" if line.name else line.label


def _hand_text(record: dict[str, Any], seat: str) -> str:
    hands = record.get("hands") or {}
    pips = record.get("pips") or {}
    if seat in hands:
        value = hands[seat]
        if isinstance(value, list):
            value = " ".join(v if isinstance(v, str) else f"{v[0]}:{v[1]}" for v in value)
        return str(value)
    if seat in pips:
        return str(pips[seat])
    return ""


def ladder_lead(rules: Any) -> tuple[str, str]:
    """What the protocol's «Lead» cell says on a deal the ladder names (RULES.md section 9), and
    what that means: with every tile dealt the holder of 1:1 leads it; with a boneyard the
    holder of the lowest double held. ("", "") for rules without the ladder."""
    if getattr(rules, "first_lead", "") != "ladder":
        return "", ""
    if rules.has_boneyard:
        return "1:1…", str(_("the holder of 1:1; if nobody holds it, of 2:2 … 6:6, then 0:0; "
                             "with no double, of the heaviest tile"))
    return "1:1", str(_("the holder of 1:1, who leads it"))


def build_rows(deals: Iterable[Any], sides: Sequence[str], seats: Sequence[str],
               first_leader: str | None = None, ladder: tuple[str, str] = ("", ""),
               burns: bool = False, preset: str = "") -> list[Row]:
    """Rows from stored deals: anything with ``n``, ``record`` and ``verdict`` (the contract's).
    A record that does not name its leader (a paper protocol copied in) shows the seat the
    rules named: ``first_leader``, then the verdict before's ``next_leader``; until the first
    counted deal under the ladder (``ladder_lead``), the double that leads. ``burns``: the rules
    lose an amount below the minimum, so a won deal that wrote nothing is marked ``burnt``."""
    rows = []
    named = first_leader
    counted = False
    for deal in deals:
        record, verdict = deal.record, deal.verdict
        recorded = verdict.get("recorded") or {}
        totals = verdict.get("totals") or {}
        result = str(record.get("result", ""))
        leader, by = record.get("leader"), record.get("by")
        moves = verdict.get("moves") or []
        if record.get("play") and moves:
            # a fives line of play says who led (its first move) and who went out (its last)
            leader = leader or moves[0].get("seat")
            if result == "domino":
                by = by or moves[-1].get("seat")
        leader = leader or named
        rule = ""
        if not leader and not counted and ladder[0]:
            leader, rule = ladder
        counted = counted or (result in ("domino", "fish") and verdict.get("ok", True))
        named = verdict.get("next_leader")
        rows.append(Row(
            n=deal.n,
            leader=str(leader or ""),
            result=result,
            result_label=result_label(result),
            by=str(by or ""),
            hands={s: _hand_text(record, s) for s in seats},
            recorded=[int(recorded.get(side, 0)) for side in sides],
            totals=[int(totals.get(side, 0)) for side in sides],
            eggs=int(verdict.get("eggs") or 0),
            winner=verdict.get("winner"),
            scoring=_scoring_moves(verdict),
            time_up=record.get("time_up") is True,
            leader_rule=rule,
            burnt=burns and _burnt(verdict),
            notes=club_words.deal_notes(preset, verdict) if preset in CLUB_PRESETS else [],
        ))
    return rows


def _burnt(verdict: dict[str, Any]) -> bool:
    """A won deal that wrote nothing though the losers held something: the minimum took it."""
    winner, values = verdict.get("winner"), verdict.get("values") or {}
    if not winner or any(verdict.get("recorded", {}).values()):
        return False
    return any(int(v) > 0 for side, v in values.items() if side != winner)


def _scoring_moves(verdict: dict[str, Any]) -> list[str]:
    """What a fives deal scored, move by move, then its bonus (RULES.md sections 18–20); empty
    for the other games, whose verdicts have no moves."""
    parts = [
        " ".join(str(p) for p in (m.get("seat"), m.get("tile"), f"+{m['points']}") if p)
        for m in verdict.get("moves") or [] if m.get("points")
    ]  # fmt: skip
    parts += [f"{_('bonus')} {side} +{amount}"
              for side, amount in (verdict.get("bonus") or {}).items() if amount]  # fmt: skip
    return parts


def _lead_rule(rules: Any, rows: Sequence[Row], next_leader: str | None) -> str:
    """``Sheet.lead_rule``: how the next deal's leader is found when the rules name no seat."""
    if next_leader or getattr(rules, "first_lead", "") not in ("ladder", "any"):
        return ""
    if any(r.result in ("domino", "fish") for r in rows):
        return ""  # the lead follows the deals now (a fish recorded without who blocked it)
    if rules.first_lead == "any":
        return "lot"
    return "ladder_boneyard" if rules.has_boneyard else "ladder"


def build_sheet(match: Any, deals: Iterable[Any], url: str = "",
                facts: list[tuple[str, str]] | None = None) -> Sheet:
    """The sheet of ``match`` (a ``scoring.Match``) with ``deals`` in order."""
    rules = match.get_rules()
    seats = list(rules.seats)
    sides = list(rules.sides)
    side_of = {s: ("NS" if s in "NS" else "EW") if rules.partnership else s for s in seats}
    names = {}
    for seat in seats:
        player = getattr(match, f"seat_{seat.lower()}", None)
        names[seat] = player.full_name if player is not None else ""
    seat_lines = [SeatLine(s, seat_label(s), names[s], side_of[s]) for s in seats]
    side_lines = [
        SideLine(side, side_label(side),
                 ", ".join(names[s] for s in seats if side_of[s] == side and names[s]))
        for side in sides
    ]
    lead = str(getattr(rules, "first_lead", ""))
    ladder = ladder_lead(rules)
    burns = getattr(rules, "min_record", 0) > 0 and getattr(rules, "below_min", "") == "discard"
    rows = build_rows(deals, sides, seats, lead[5:] if lead.startswith("seat_") else None,
                      ladder, burns, rules.preset)
    totals = match.totals or {}
    winner = match.winner
    if winner == "draw":
        winner_label = _("draw")
    elif winner:
        winner_label = side_label(winner)
    else:
        winner_label = ""
    title = match.title
    # a fives game (``scoring.games``) always ends by a target
    ends_by_deals = getattr(rules, "end", "target") == "deals"
    planned = rules.deals + SPARE_ROWS if ends_by_deals else OPEN_ENDED_ROWS
    blank = 0 if match.finished else max(planned - len(rows), 0)
    return Sheet(
        match_id=match.pk,
        title=str(title),
        label=match.label,
        table=match.table,
        preset=rules.preset,
        rules_words=rules_words(rules.preset, match.rules_options),
        status=match.status,
        status_label=str(match.get_status_display()),
        seats=seat_lines,
        sides=side_lines,
        rows=rows,
        totals=[int(totals.get(side, 0)) for side in sides],
        finished=bool(match.finished),
        end=match.end,
        winner=winner,
        winner_label=str(winner_label),
        unclaimed_eggs=int(match.unclaimed_eggs or 0),
        next_leader=match.next_leader,
        blank_rows=blank,
        planned_rows=planned,
        lead_rule=_lead_rule(rules, rows, match.next_leader),
        min_record=int(getattr(rules, "min_record", 0)),
        url=url,
        facts=(facts or []) + ([(_("Result"), _("final score without deals"))]
                               if getattr(match, "result_only", False) else []),
        units=club_words.units(rules.preset),
        outcome=club_words.outcome_lines(rules.preset, getattr(match, "outcome", None)),
    )


def blank_copy(sheet: Sheet, paper: bool = False) -> Sheet:
    """The protocol to fill in by hand: no deals, the rows the rules play."""
    return replace(sheet, rows=[], totals=[0] * len(sheet.totals), finished=False,
                   winner=None, winner_label="", unclaimed_eggs=0, outcome=[],
                   blank_rows=sheet.planned_rows, paper=paper)  # fmt: skip
