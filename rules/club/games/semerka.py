"""«Семёрка» (``semerka``, RULES.md sections 27–30): sticks, and players going out of the match.

Every double counts 10. The player with the highest value (other than the finisher; in a fish,
of all players) gets a stick, each of several tied players one; ``sticks`` (3) put a player out,
and the others play on with the same hands until one is left. ``totals`` count sticks.
"""

from __future__ import annotations

from typing import Any

from ... import tiles as T
from ...errors import Problem
from ..judge import ClubJudge, Parts, lead_problem
from ..types import ClubRecord, ClubState


class SemerkaJudge(ClubJudge):
    def in_play(self, state: ClubState) -> tuple[str, ...]:
        if not state.out:
            return self.seats
        return tuple(s for s in self.seats if s not in state.out)

    def refused_extra(self) -> dict[str, Any]:
        return {"out": []}

    def leads(self, state: ClubState, r: ClubRecord) -> tuple[str | None, list[Problem]]:
        leader, problems = super().leads(state, r)
        if r.result != "redeal" and r.lead_tiles and state.counted == 0 and self.no_boneyard:
            first = T.INDEX[(self.rules.ladder_from, self.rules.ladder_from)]
            if r.lead_tiles != (first,):
                name = T.NAMES[first]
                problems.append(lead_problem(r.lead_tiles, f"every tile is dealt: the first "
                                             f"deal is led with {name}",
                                             f"розданы все кости: первый заход с {name}"))
        return leader, problems

    def ahead_key(self, new: ClubState, side: str) -> int:
        return new.totals[side] + (1000 if side in new.out else 0)

    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        recorded = dict.fromkeys(self.sides, 0)
        if r.result == "redeal":
            return Parts(None, recorded, leader if new.counted else None, extra={"out": []})
        values = self.values(r, in_play)
        if r.result == "domino":
            assert r.by is not None
            winner: str | None = r.by
            field = [s for s in in_play if s != r.by]
        else:
            winner, field = None, list(in_play)
        top = max(values[s] for s in field)
        out: list[str] = []
        for seat in field:
            if values[seat] == top:
                recorded[seat] = 1
                new.totals[seat] += 1
                if new.totals[seat] >= self.rules.sticks:
                    out.append(seat)
        new.out.extend(out)
        left = [s for s in in_play if s not in out]
        nxt = r.by
        if nxt is not None and nxt in out:  # a blocker put out: the next seat still in
            i = self.seats.index(nxt)
            ring = self.seats[i + 1:] + self.seats[:i]
            nxt = next((s for s in ring if s in left), None)
        if len(left) <= 1:
            new.finished, new.end = True, "sticks"
            new.winner = left[0] if left else "draw"
            new.losers = list(new.out)
        return Parts(winner, recorded, nxt, extra={"values": values, "out": out})

    def time_end(self, new: ClubState, r: ClubRecord) -> None:
        super().time_end(new, r)
        if new.finished and new.end == "time" and new.winner != "draw":
            new.losers = [s for s in self.seats if s != new.winner]
