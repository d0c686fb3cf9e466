"""«Дворовое» domino (``dvorovoe``, RULES.md sections 27–30): the plain draw game of seed 003.

The winner records: after a domino the other sides' values, after a fish the others' values less
its own; a tied fish is void or eggs (``fish_tie``). The match is won at ``target`` (200). 0:0
never leads; the ladder (1:1, 2:2 …) names every leader under ``next_lead: ladder``.
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import Problem
from ..judge import ClubJudge, Parts, lead_problem
from ..types import ClubRecord, ClubState

_ONE_ONE = T.INDEX[(1, 1)]


class DvorovoeJudge(ClubJudge):
    more_is_better = True

    def start(self) -> ClubState:
        state = super().start()
        if self.rules.next_lead == "rotate":
            state.leader = None  # the first deal is the ladder's: its holder is not known
        return state

    def leads(self, state: ClubState, r: ClubRecord) -> tuple[str | None, list[Problem]]:
        ladder = self.rules.next_lead == "ladder" or state.counted == 0
        if ladder:
            saved, state.leader = state.leader, None  # the ladder names a holder not recorded
            leader, problems = super().leads(state, r)
            state.leader = saved
        else:
            leader, problems = super().leads(state, r)
        if r.result != "redeal" and r.lead_tiles:
            tile = r.lead_tiles[0]
            if tile == T.ZERO_ZERO:
                problems.append(lead_problem(r.lead_tiles, "0:0 never leads in this game",
                                             "с 0:0 в этой игре заходить нельзя"))
            elif ladder and self.no_boneyard and tile != _ONE_ONE:
                problems.append(lead_problem(r.lead_tiles, "every tile is dealt: the ladder's "
                                             "lead is 1:1", "розданы все кости: заход с 1:1"))
        return leader, problems

    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        sides = self.sides
        recorded = dict.fromkeys(sides, 0)
        rules = self.rules
        if r.result == "redeal":
            keep = None if rules.next_lead == "ladder" or new.counted == 0 else leader
            return Parts(None, recorded, keep)
        values = self.values(r, in_play)
        others = sum(values.values())
        winner: str | None
        if r.result == "domino":
            assert r.by is not None
            winner = self.side_of[r.by]
            amount = others - values[winner]
        else:
            low = min(values.values())
            lowest = [s for s in sides if values[s] == low]
            winner = lowest[0] if len(lowest) == 1 else None
            amount = others - 2 * low if winner else 0
        if winner is None:
            if rules.fish_tie == "eggs":
                new.eggs += others
            nxt = leader if rules.next_lead == "winner" else self._next(leader)
            return Parts(None, recorded, nxt, extra={"values": values})
        amount += new.eggs
        new.eggs = 0
        recorded[winner] = amount
        new.totals[winner] += amount
        self._target(new)
        if rules.next_lead == "winner":
            nxt = r.by
        else:
            nxt = self._next(leader)
        return Parts(winner, recorded, nxt, extra={"values": values})

    def _next(self, leader: str | None) -> str | None:
        if self.rules.next_lead != "rotate" or leader is None:
            return None
        return self.next_seat[leader]

    def _target(self, new: ClubState) -> None:
        top = max(new.totals.values())
        if top < self.rules.target:
            return
        best = [s for s in self.sides if new.totals[s] == top]
        new.finished, new.end = True, "target"
        new.winner = best[0] if len(best) == 1 else "draw"
        new.losers = [s for s in self.sides if new.totals[s] < top]
