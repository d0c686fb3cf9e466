"""«Генерал» (``general``, RULES.md sections 27–30): two teams, no points, only titles.

Every deal is led with 1:1. The side after the finisher in play order (the finisher's opponents)
loses the deal; it is a general when the finishing move holds 0:0 or 6:6 (``general_rule``).
A fish is void. ``totals`` count titles, ``losses`` the deals lost; the match ends by time, at
``target`` generals, or at ``target`` lost deals (or a title in the first counted deal).
"""

from __future__ import annotations

from typing import Any

from ... import tiles as T
from ...errors import Problem
from ..judge import ClubJudge, Parts, lead_problem
from ..types import ClubRecord, ClubState

_ONE_ONE = T.INDEX[(1, 1)]


class GeneralJudge(ClubJudge):
    def leads(self, state: ClubState, r: ClubRecord) -> tuple[str | None, list[Problem]]:
        leader, problems = super().leads(state, r)  # the holder of 1:1 is not known
        if r.result != "redeal" and r.lead_tiles and r.lead_tiles != (_ONE_ONE,):
            problems.append(lead_problem(r.lead_tiles, "every deal is led with 1:1",
                                         "каждая партия начинается с 1:1"))
        return leader, problems

    def refused_extra(self) -> dict[str, Any]:
        return {"loser": None}

    def title_of(self, last: tuple[int, ...] | None) -> str | None:
        if not last:
            return None
        zero, six = T.ZERO_ZERO in last, T.SIX_SIX in last
        rule = self.rules.general_rule
        if rule == "either":
            return "general" if zero or six else None
        if rule == "both":
            return "general" if zero and six else None
        if zero and six:
            return "general"
        return "golyi" if zero else None

    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        recorded = dict.fromkeys(self.sides, 0)
        if r.result != "domino":  # a redeal, or a fish: «не засчитывается»
            return Parts(None, recorded, None, void=r.result == "fish", extra={"loser": None})
        assert r.by is not None
        winner = self.side_of[r.by]
        loser = self.side_of[self.next_seat[r.by]]
        first = new.counted == 0
        new.losses[loser] += 1
        titles: list[dict[str, str]] = []
        title = self.title_of(r.last_tiles)
        if title is not None:
            titles.append({"title": title, "side": loser})
            new.titles.append({"deal": new.n, "title": title, "side": loser})
            recorded[loser] = 1
            new.totals[loser] += 1
        rules = self.rules
        end = None
        if rules.end == "generals" and new.totals[loser] >= rules.target:
            end = "generals"
        elif rules.end == "losses" and new.losses[loser] >= rules.target:
            end = "losses"
        elif rules.end == "losses" and first and title is not None:
            end = "instant"  # «если одна из команд в самом начале получает «Генерала»»
        if end is not None:
            new.finished, new.end, new.winner, new.losers = True, end, winner, [loser]
        return Parts(winner, recorded, None, titles, extra={"loser": loser})
