"""The end of a match: its number of deals, the target, time, and the Морской козёл instant win.

Asked by the scoring once a deal is scored (and after a redeal, for time): decides whether the
match is over and sets ``finished``, ``end`` and ``winner`` of the ``MatchState``. A failed
«на сто» drops the side's total to 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import tiles as T
from .checks import DealChecks
from .types import MatchState, _Record


class MatchEnding(DealChecks):
    """Decides when and how the match ends."""

    def _instant(self, state: MatchState, r: _Record, leader: str | None, winner: str | None,
                 totals: dict[str, int]) -> str | None:
        """Морской козёл: out on 0:0 / 6:6, and «на сто». May zero ``totals`` of a failed «сто»."""
        rules = self.rules
        if rules.na_sto and r.lead_tile == T.SIX_SIX and leader is not None:
            side = self.side_of[leader]
            if state.totals[side] > 0:
                if r.result == "domino" and winner == side:
                    return side
                totals[side] = 0
        # RULES.md section 11: only going out on 0:0 or 6:6 (or both at once) wins at once; a
        # fish never does, whoever laid the blocking double. A domino's winner is the side of «by».
        if (rules.instant_doubles and r.result == "domino" and r.last_tiles
                and (T.ZERO_ZERO in r.last_tiles or T.SIX_SIX in r.last_tiles)):
            return winner
        return None

    def _end(self, state: MatchState, r: _Record) -> None:
        rules = self.rules
        totals = state.totals
        if rules.end == "deals":
            if state.counted >= rules.deals:
                self._finish(state, "deals", self._leading(totals, list(self.sides)))
                return
        elif max(totals.values()) < rules.target:
            pass
        elif rules.end == "target_wins":
            reached = [s for s in self.sides if totals[s] >= rules.target]
            if reached:
                best = max(totals[s] for s in reached)
                tops = [s for s in reached if totals[s] == best]
                self._finish(state, "target", tops[0] if len(tops) == 1 else "draw")
                return
        elif rules.end == "target_loses":
            reached = [s for s in self.sides if totals[s] >= rules.target]
            if reached:
                others = [s for s in self.sides if s not in reached]
                self._finish(state, "target", self._leading(totals, others) if others else "draw")
                return
        if r.time_up or state.overtime:
            self._time(state, r)

    def _time(self, state: MatchState, r: _Record) -> None:
        if not (r.time_up or state.overtime) or state.finished:
            return
        leading = self._leading(state.totals, list(self.sides))
        if leading != "draw" or self.rules.time_tie == "draw":
            self._finish(state, "time", leading)
        else:
            state.overtime = True

    def _leading(self, totals: Mapping[str, int], sides: list[str]) -> str:
        """The side ahead among ``sides`` (fewest points where points are bad), or ``draw``."""
        pick = min if self.lower_wins else max
        best = pick(totals[s] for s in sides)
        tops = [s for s in sides if totals[s] == best]
        return tops[0] if len(tops) == 1 else "draw"

    @staticmethod
    def _finish(state: MatchState, end: str, winner: str) -> None:
        state.finished, state.end, state.winner = True, end, winner
        state.overtime = False
