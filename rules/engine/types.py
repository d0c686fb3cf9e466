"""The engine's types: the match state a deal is judged against and the verdicts it returns.

``MatchState``, ``DealVerdict`` and ``MatchVerdict`` are public (exported by ``rules``).
``_Record`` (a deal record after reading) and ``_Refused`` (the refusal that stops a deal) pass
between the stages of the ``Judge`` and never leave the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import Problem
from ..presets import Rules


@dataclass(slots=True)
class MatchState:
    """Everything the next deal's judgement depends on."""

    totals: dict[str, int]
    hanging: dict[str, int]
    eggs: int = 0
    counted: int = 0
    n: int = 0
    leader: str | None = None
    finished: bool = False
    end: str | None = None
    winner: str | None = None
    overtime: bool = False
    #: eggs taken by winners so far (with ``eggs`` pending: every egg laid is accounted for)
    eggs_claimed: int = 0

    def copy(self) -> MatchState:
        return MatchState(
            dict(self.totals), dict(self.hanging), self.eggs, self.counted, self.n, self.leader,
            self.finished, self.end, self.winner, self.overtime, self.eggs_claimed,
        )


@dataclass(slots=True)
class DealVerdict:
    """The engine's answer for one deal, in the shape of the contract's ``deals[]`` entry."""

    n: int
    ok: bool
    errors: list[Problem]
    winner: str | None
    values: dict[str, int] | None
    recorded: dict[str, int]
    eggs: int
    hanging: dict[str, int]
    totals: dict[str, int]
    next_leader: str | None
    #: not in the contract: facts the apps show (eggs taken this deal, points lost to the minimum)
    eggs_claimed: int = 0
    discarded: dict[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "ok": self.ok, "errors": [p.to_dict() for p in self.errors],
            "winner": self.winner,
        }
        if self.values is not None:
            out["values"] = dict(self.values)
        out["recorded"] = dict(self.recorded)
        out["eggs"] = self.eggs
        out["hanging"] = dict(self.hanging)
        out["totals"] = dict(self.totals)
        out["next_leader"] = self.next_leader
        return out


@dataclass(slots=True)
class MatchVerdict:
    rules: Rules
    deals: list[DealVerdict]
    state: MatchState

    @property
    def ok(self) -> bool:
        return all(d.ok for d in self.deals)

    def to_dict(self) -> dict[str, Any]:
        s = self.state
        return {
            "ok": self.ok, "preset": self.rules.preset,
            "deals": [d.to_dict() for d in self.deals],
            "totals": dict(s.totals), "finished": s.finished, "end": s.end, "winner": s.winner,
            "unclaimed_eggs": s.eggs,
        }


@dataclass(slots=True)
class _Record:
    """A deal record after reading: tiles as masks, seats checked."""

    result: str
    by: str | None
    leader: str | None
    masks: dict[str, int]
    pips: dict[str, int]
    boneyard: int | None
    #: every tile off the table (in hands or the boneyard)
    off_table: int
    lead_tile: int | None
    last_tiles: list[int] | None
    declared: dict[str, int] | None
    time_up: bool


class _Refused(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].code)
        self.problems = problems
