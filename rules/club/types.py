"""The club games' data between the stages of judging: the record read from a deal, the state of
a match, and the verdicts (the contract's deal and match objects, RULES.md sections 13 and 34).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Problem


@dataclass(slots=True)
class ClubRecord:
    """A deal record after reading: tiles as bit masks (``rules.tiles``), seats checked.

    ``masks`` holds the seats written as tiles (a non-finisher's ``pips: 0`` is the mask of 0:0
    here); ``pips`` the seats written only as a pip count. ``rules/club/tiles.py`` (section 31)
    reads this object: see /work/helpers/h26club-interface.md."""

    result: str
    by: str | None
    leader: str | None
    masks: dict[str, int]
    pips: dict[str, int]
    boneyard: int | None
    lead_tiles: tuple[int, ...]
    last_tiles: tuple[int, ...] | None
    declared: dict[str, int] | None
    time_up: bool


@dataclass(slots=True)
class ClubState:
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
    losers: list[str] = field(default_factory=list)
    titles: list[dict[str, Any]] = field(default_factory=list)
    #: ``general``: deals each side lost; ``semerka``: the seats out, in order
    losses: dict[str, int] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    #: ``kozel_morskoy``: counted opening deals, and the lead a replay or the deal after a
    #: «внеочередной» deal must repeat (tiles, seat)
    opening: int = 0
    replay: tuple[tuple[int, ...], str | None] | None = None
    keep_leader: str | None = None

    def copy(self) -> ClubState:
        """A state to judge on without touching this one (as ``MatchState.copy``)."""
        return ClubState(dict(self.totals), dict(self.hanging), self.eggs, self.counted, self.n,
                         self.leader, self.finished, self.end, self.winner, self.overtime,
                         list(self.losers), list(self.titles), dict(self.losses),
                         list(self.out), self.opening, self.replay, self.keep_leader)


@dataclass(slots=True)
class ClubDealVerdict:
    n: int
    ok: bool
    errors: list[Problem]
    winner: str | None
    values: dict[str, int]
    recorded: dict[str, int]
    eggs: int
    hanging: dict[str, int]
    totals: dict[str, int]
    next_leader: str | None
    titles: list[dict[str, str]] = field(default_factory=list)
    void: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "ok": self.ok, "errors": [p.to_dict() for p in self.errors],
            "winner": self.winner, "values": dict(self.values), "recorded": dict(self.recorded),
            "titles": [dict(t) for t in self.titles], "void": self.void,
        }
        out.update(self.extra)
        out.update({"eggs": self.eggs, "hanging": dict(self.hanging),
                    "totals": dict(self.totals), "next_leader": self.next_leader})
        return out


@dataclass(slots=True)
class ClubMatchVerdict:
    preset: str
    deals: list[ClubDealVerdict]
    state: ClubState

    @property
    def ok(self) -> bool:
        return all(d.ok for d in self.deals)

    def to_dict(self) -> dict[str, Any]:
        s = self.state
        out: dict[str, Any] = {
            "ok": self.ok, "preset": self.preset, "totals": dict(s.totals),
            "finished": s.finished, "end": s.end, "winner": s.winner, "unclaimed_eggs": s.eggs,
            "losers": list(s.losers), "titles": [dict(t) for t in s.titles],
        }
        if self.preset == "general":
            out["losses"] = dict(s.losses)
        if self.preset == "semerka":
            out["out"] = list(s.out)
        out["deals"] = [d.to_dict() for d in self.deals]
        return out


class Refused(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].code)
        self.problems = problems
