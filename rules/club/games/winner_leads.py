"""The lead rule ``osel`` and ``chechevo`` share (RULES.md section 27): the ladder names the first
leader (1:1 where every tile is dealt), then the winner leads: the player who went out, the blocker
of a fish, the same leader after eggs."""

from __future__ import annotations

from ... import tiles as T
from ...errors import Problem
from ..judge import ClubJudge, lead_problem
from ..types import ClubRecord, ClubState

_ONE_ONE = T.INDEX[(1, 1)]


class WinnerLeads(ClubJudge):
    def leads(self, state: ClubState, r: ClubRecord) -> tuple[str | None, list[Problem]]:
        leader, problems = super().leads(state, r)
        if (r.result != "redeal" and r.lead_tiles and state.counted == 0 and self.no_boneyard
                and r.lead_tiles != (_ONE_ONE,)):
            problems.append(lead_problem(r.lead_tiles, "every tile is dealt: the first deal "
                                         "is led with 1:1", "розданы все кости: первый заход "
                                         "с 1:1"))
        return leader, problems

    def next_leader(self, new: ClubState, r: ClubRecord, leader: str | None,
                    eggs: bool) -> str | None:
        if r.result == "redeal":
            return leader if new.counted else None
        if r.result == "fish" and eggs:
            return leader
        return r.by
