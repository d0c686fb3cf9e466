"""The fives judge's types: the match state, the verdicts, and a deal record after reading.

``FivesState``, ``FivesDealVerdict`` and ``FivesMatchVerdict`` are public (``rules.fives``).
``Deal`` (a record after reading), ``Entry`` (one entry of a line of play) and ``Refused`` pass
between the judge's stages and are not part of the contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Problem
from .presets import FivesRules

#: ``MULTI``: a move laying several doubles (``telefon``, section 32)
MOVE, DRAW, PASS, MULTI = 0, 1, 2, 3


@dataclass(slots=True)
class FivesState:
    """Everything the next deal's judgement depends on."""

    totals: dict[str, int]
    eggs: int = 0
    n: int = 0
    #: the seat the lead rule names for the next deal (None: by lot, or not known)
    leader: str | None = None
    finished: bool = False
    end: str | None = None
    winner: str | None = None
    overtime: bool = False
    eggs_claimed: int = 0
    #: deals accepted so far (``telefon``'s first lead is checked on the first one, section 32)
    accepted: int = 0

    def copy(self) -> FivesState:
        return FivesState(dict(self.totals), self.eggs, self.n, self.leader, self.finished,
                          self.end, self.winner, self.overtime, self.eggs_claimed,
                          self.accepted)


#: One entry of ``play`` after reading: ``(kind, seat, a, b, c)``, a plain tuple (the judge reads
#: tens of thousands a second; a named tuple costs a Python call each). ``a``/``b``/``c`` are, for
#: a move: the tile, the end code, the announced points (None); for a draw: the mask of the named
#: tiles (0 when only counted), how many, whether a tile repeats inside the entry; for a
#: several-doubles move: 0, 0, and (the announced points, the tiles, their end codes).
Entry = tuple[int, str, int, int, Any]


@dataclass(slots=True)
class Deal:
    """A deal record after reading: tiles as masks, seats checked."""

    result: str
    #: the line of play (strong form), or None for the light form
    play: list[Entry] | None
    #: the light form's scoring plays (seat, points)
    scores: list[tuple[str, int]] | None
    #: hands written as tiles (a non-finisher's ``pips: 0`` read as ``0:0``)
    masks: dict[str, int]
    pips: dict[str, int]
    #: seats whose hand was written as ``""``
    empty: list[str]
    boneyard: int | None
    by: str | None
    leader: str | None
    declared: dict[str, int] | None
    time_up: bool
    #: the seat that went out in a domino (``by``, or the seat of the last move)
    finisher: str | None


@dataclass(slots=True)
class FivesDealVerdict:
    """The judge's answer for one deal, in the shape of the contract's ``deals[]`` entry."""

    n: int
    ok: bool
    errors: list[Problem]
    winner: str | None
    values: dict[str, int] | None
    play_points: dict[str, int]
    bonus: dict[str, int]
    recorded: dict[str, int]
    eggs: int
    totals: dict[str, int]
    next_leader: str | None
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: not in the contract: the deal's leader where the record tells, and eggs taken this deal
    leader: str | None = None
    eggs_claimed: int = 0
    #: section 34's additions (``telefon``): each side's write-off; None for the older games
    write_off: dict[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "ok": self.ok, "errors": [p.to_dict() for p in self.errors],
            "winner": self.winner,
        }
        if self.values is not None:
            out["values"] = dict(self.values)
        out["play_points"] = dict(self.play_points)
        out["bonus"] = dict(self.bonus)
        if self.write_off is not None:
            out["write_off"] = dict(self.write_off)
        out["recorded"] = dict(self.recorded)
        out["eggs"] = self.eggs
        # section 22: these games have no hanging points, the key stays for section 13's shape
        out["hanging"] = dict.fromkeys(self.totals, 0)
        out["totals"] = dict(self.totals)
        out["next_leader"] = self.next_leader
        out["moves"] = self.moves
        if self.write_off is not None:
            out["titles"], out["void"] = [], False  # «Телефон» gives no titles, has no void deal
        return out


@dataclass(slots=True)
class FivesMatchVerdict:
    rules: FivesRules
    deals: list[FivesDealVerdict]
    state: FivesState

    @property
    def ok(self) -> bool:
        return all(d.ok for d in self.deals)

    def to_dict(self) -> dict[str, Any]:
        s = self.state
        out = {
            "ok": self.ok, "preset": self.rules.preset,
            "deals": [d.to_dict() for d in self.deals],
            "totals": dict(s.totals), "finished": s.finished, "end": s.end, "winner": s.winner,
            "unclaimed_eggs": s.eggs,
        }
        if self.rules.outputs_34:
            out["losers"], out["titles"] = losers(s), []
        return out


def losers(state: FivesState) -> list[str]:
    """Section 32/34: at the target, the sides with the lowest total (none when all are equal);
    by time, every side but the winner (none on a draw); [] while the match goes on."""
    if not state.finished:
        return []
    totals = state.totals
    if state.end == "time":
        return [s for s in totals if s != state.winner] if state.winner != "draw" else []
    low = min(totals.values())
    lowest = [s for s in totals if totals[s] == low]
    return [] if len(lowest) == len(totals) else lowest


class Refused(Exception):
    """Stops a deal's judgement at its first problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


def refuse(code: str, params: dict[str, Any] | None = None, **extra: Any) -> Refused:
    """A ``Refused`` whose contract error object carries ``extra`` (entry, seat, tile …)."""
    merged = dict(extra)
    if params:
        merged = {**params, **extra}
    return Refused(Problem(code, merged, dict(extra)))
