"""Scoring a fives deal and ending the match (RULES.md section 20).

``bonus_of`` rounds and divides a bonus base. ``DealScore`` is what a legal deal records: its
winner, each side's value, play points and bonus, the eggs it takes or leaves, the next leader.
``end_match`` decides, once a deal is applied, whether the target or the clock ends the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import telefon
from .presets import FivesRules
from .types import Deal, FivesState


def bonus_of(rules: FivesRules, base: int) -> int:
    """``base`` rounded by ``bonus_round`` to a multiple of 5, then divided by ``bonus_divisor``.
    A base is whole, so ``nearest`` never meets a half: remainders 1–2 go down, 3–4 up."""
    how = rules.bonus_round
    if how == "nearest":
        base = (base + 2) // 5 * 5
    elif how == "down":
        base = base // 5 * 5
    elif how == "up":
        base = (base + 4) // 5 * 5
    return base // rules.bonus_divisor


@dataclass(slots=True)
class DealScore:
    winner: str | None
    values: dict[str, int]
    bonus: dict[str, int]
    recorded: dict[str, int]
    #: eggs this deal takes (added to its winner) and eggs it lays (a tied fish under ``eggs``)
    eggs_taken: int
    eggs_laid: int
    next_leader: str | None
    #: ``deal_end: write_off`` (section 32): each side's rounded write-off, else None
    write_off: dict[str, int] | None = None


def score_deal(rules: FivesRules, state: FivesState, d: Deal, seat_values: dict[str, int],
               side_of: dict[str, str], play_points: dict[str, int], leader: str | None,
               reached: str | None, moves: list[dict[str, Any]] | None = None) -> DealScore:
    sides = rules.sides
    values = dict.fromkeys(sides, 0)
    for seat, value in seat_values.items():
        values[side_of[seat]] += value
    bonus = dict.fromkeys(sides, 0)
    winner: str | None = None
    eggs_laid = 0
    if d.result == "target":
        winner = reached
    elif d.result == "domino":
        assert d.finisher is not None
        winner = side_of[d.finisher]
        base = sum(values.values()) - values[winner]  # opponents only
        if rules.deal_end == "bonus":
            bonus[winner] = rules.domino_bonus if rules.domino_bonus is not None \
                else bonus_of(rules, base)
    else:
        low = min(values.values())
        lowest = [s for s in sides if values[s] == low]
        if len(lowest) == 1:
            winner = lowest[0]
            base = sum(values.values()) - values[winner]
            if rules.fish_scoring == "difference":
                base -= values[winner]
            if rules.deal_end == "bonus":
                bonus[winner] = bonus_of(rules, base)
        elif rules.fish_tie == "eggs":
            eggs_laid = bonus_of(rules, sum(values.values()))
    if rules.outputs_34:  # «Телефон»: no eggs (``fish_tie`` void), totals never below 0
        write_off = dict.fromkeys(sides, 0)
        if rules.deal_end == "write_off":
            write_off, recorded = telefon.write_off_score(rules, d, values, winner, state.totals,
                                                          play_points)
        else:
            recorded = {s: play_points[s] + bonus[s] for s in sides}
        nxt = telefon.next_leader(d, moves or [])
        return DealScore(winner, values, bonus, recorded, 0, 0, nxt, write_off)
    recorded = {s: play_points[s] + bonus[s] for s in sides}
    eggs_taken = 0
    if winner is not None and d.result != "target" and state.eggs:
        eggs_taken = state.eggs
        recorded[winner] += eggs_taken
    return DealScore(winner, values, bonus, recorded, eggs_taken, eggs_laid,
                     _next_leader(rules, d, seat_values, side_of, winner, leader))


def _next_leader(rules: FivesRules, d: Deal, seat_values: dict[str, int],
                 side_of: dict[str, str], winner: str | None, leader: str | None) -> str | None:
    if d.result == "target":
        return None  # the match is over
    if rules.next_lead == "rotate":
        if not leader:
            return None
        seats = rules.seats
        return seats[(seats.index(leader) + 1) % len(seats)]
    if d.result == "domino":
        return d.finisher
    if winner is None:
        return None  # a tied fish: the lead is drawn by lot again
    # the winning side's player with fewer pips; partners with equal pips choose
    players = [s for s in rules.seats if side_of[s] == winner]
    low = min(seat_values[s] for s in players)
    fewest = [s for s in players if seat_values[s] == low]
    return fewest[0] if len(fewest) == 1 else None


def end_match(rules: FivesRules, state: FivesState, d: Deal, winner: str | None) -> None:
    """Sets ``finished``, ``end`` and ``winner`` of ``state`` after a legal deal is applied."""
    totals = state.totals
    if d.result == "target":
        _finish(state, "target", winner or "draw")
        return
    if max(totals.values()) >= rules.target:
        # under ``move`` only one side can get there; under ``deal`` the highest total wins
        _finish(state, "target", _leading(totals))
        return
    if d.time_up or state.overtime:
        leading = _leading(totals)
        if leading != "draw" or rules.time_tie == "draw":
            _finish(state, "time", leading)
        else:
            state.overtime = True


def _leading(totals: dict[str, int]) -> str:
    best = max(totals.values())
    tops = [s for s, v in totals.items() if v == best]
    return tops[0] if len(tops) == 1 else "draw"


def _finish(state: FivesState, end: str, winner: str) -> None:
    state.finished, state.end, state.winner = True, end, winner
    state.overtime = False
