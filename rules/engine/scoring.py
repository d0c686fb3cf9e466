"""The scoring of a legal deal: values, lone doubles, eggs, hanging points, minimums, totals.

``DealScoring._score`` finds the deal's winner and what is written for each side, checks the
``declared`` amounts against it (``declared_mismatch``), names the next leader and, when the deal
is applied, updates the ``MatchState`` and asks whether the match is over.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import tiles as T
from ..errors import declared_problem
from .ending import MatchEnding
from .types import DealVerdict, MatchState, _Record, _Refused

_LOW_HALF = (1 << T.HALF) - 1
_PIPS_LOW, _PIPS_HIGH = T.HALF_PIPS


class DealScoring(MatchEnding):
    """Scores a legal deal and applies it to the match."""

    # ------------------------------------------------------------- scoring
    def _values(self, r: _Record) -> dict[str, int]:
        """Each side's hand values, with the lone-double values where they apply."""
        bonus = self.bonus_domino if r.result == "domino" else (
            self.bonus_fish if r.result == "fish" else None)
        values = dict.fromkeys(self.sides, 0)
        masks, pips = r.masks, r.pips
        pips_low, pips_high = _PIPS_LOW, _PIPS_HIGH
        for seat, side in self.seat_sides:
            mask = masks.get(seat)
            if mask is None:
                if pips:
                    values[side] += pips.get(seat, 0)
            elif bonus and mask in bonus:
                values[side] += bonus[mask]
            else:  # T.mask_pips, inline: this runs for every hand of every deal
                values[side] += pips_low[mask & _LOW_HALF] + pips_high[mask >> T.HALF]
        return values

    def _score(self, state: MatchState, r: _Record, leader: str | None, n: int,
               apply: bool) -> DealVerdict:
        rules = self.rules
        sides = self.sides
        values = self._values(r)
        recorded = dict.fromkeys(sides, 0)
        if r.result == "redeal":
            if r.declared and any(r.declared.values()):
                _declared_refusal(r.declared, recorded)
            if self.rules.first_lead == "ladder" and state.counted == 0:
                next_leader = None  # a new shuffle: the ladder names the first leader again
            else:
                next_leader = leader
            verdict = DealVerdict(n, True, [], None, values, recorded, state.eggs,
                                  state.hanging, state.totals, next_leader)
            if apply:
                state.leader = next_leader
                self._time(state, r)
            return verdict

        winner: str | None
        if r.result == "domino":
            winner = self.side_of[r.by]  # type: ignore[index]  # a domino always has «by»
        else:
            low = min(values.values())
            lowest = [s for s in sides if values[s] == low]
            winner = lowest[0] if len(lowest) == 1 else None

        totals = dict(state.totals)
        hanging = state.hanging
        eggs = state.eggs
        eggs_claimed = 0
        discarded: dict[str, int] | None = None
        if winner is None:
            if rules.fish_tie == "eggs":
                eggs += sum(values.values())
            if self.hang:
                hanging = dict.fromkeys(sides, 0)
        else:
            # ``recorded`` first holds what the scoring gives each side, then what is written.
            own = values[winner] if r.result == "fish" and self.fish_difference else 0
            scoring = rules.scoring
            if scoring == "winner_takes_losers":
                recorded[winner] = sum(values.values()) - values[winner] - own
            elif scoring == "winner_takes_all":
                recorded[winner] = sum(values.values()) - (values[winner] + own if own else 0)
            else:
                for s in sides:
                    if s != winner:
                        recorded[s] = values[s] - own
            if eggs:
                receiver = winner if scoring != "losers_record_own" else max(
                    (s for s in sides if s != winner), key=values.__getitem__)
                recorded[receiver] += eggs
                eggs_claimed = eggs
                eggs = 0
            if self.hang:
                hanging = dict(hanging)
                for s in sides:
                    if hanging[s]:
                        if recorded[s] > 0:
                            recorded[s] += hanging[s]
                        hanging[s] = 0
            minimum = rules.min_record
            for s in sides:
                amount = recorded[s]
                if 0 < amount < minimum and (self.min_always or totals[s] == 0):
                    if self.hang:
                        hanging[s] = amount
                    else:
                        discarded = discarded or {}
                        discarded[s] = amount
                    recorded[s] = 0
                elif amount:
                    totals[s] += amount
            if rules.one_scorer:
                scorers = [s for s in sides if recorded[s] > 0]
                if scorers:
                    for s in sides:
                        if s not in scorers:
                            totals[s] = 0

        declared = r.declared
        if declared is not None and declared != recorded:
            if not declared.keys() <= self.side_set:
                _declared_refusal(declared, recorded)
            for s in sides:
                if declared.get(s, 0) != recorded[s]:
                    _declared_refusal(declared, recorded)

        if self.rotate:
            next_leader = self.next_seat[leader] if leader is not None else None
        else:
            next_leader = self._next_leader(r, leader, winner)
        instant = None
        if self.specials:
            instant = self._instant(state, r, leader, winner, totals)
        # The verdict and the state share these dicts: a later deal copies before it changes them.
        verdict = DealVerdict(n, True, [], winner, values, recorded, eggs, hanging, totals,
                              next_leader, eggs_claimed, discarded)
        if apply:
            state.totals = totals
            state.hanging = hanging
            state.eggs = eggs
            state.eggs_claimed += eggs_claimed
            state.leader = next_leader
            state.counted += 1
            if instant is not None:
                state.finished, state.end, state.winner = True, "instant", instant
            else:
                self._end(state, r)
        return verdict

    def _next_leader(self, r: _Record, leader: str | None, winner: str | None) -> str | None:
        if self.rules.next_lead == "rotate":
            return self.next_seat[leader] if leader is not None else None
        if r.result == "domino":
            return r.by
        if winner is None and self.rules.fish_tie == "eggs":
            return leader
        return r.by


def _declared_refusal(declared: Mapping[str, int], expected: dict[str, int]) -> None:
    raise _Refused([declared_problem(declared, expected)])

