"""Judging the light record, points only (RULES.md section 19; section 21, steps 3–4).

``judge_scores`` checks what a list of scoring plays can show: amounts that no move can make
(``impossible_points``), the leader (``wrong_leader``), and under ``target_check: move`` that the
play stopped at the entry that brought a side to the target (``play_after_end``,
``target_not_reached``). Which tile made which points, the turns and the draws cannot be checked
from it; the strong form (``rules.fives.strong``) checks them.
"""

from __future__ import annotations

from typing import Any

from .presets import FivesRules
from .strong import Played
from .types import Deal, refuse


def judge_scores(rules: FivesRules, d: Deal, totals: dict[str, int],
                 expected_leader: str | None, side_of: dict[str, str]) -> Played:
    if d.leader is not None and expected_leader is not None and d.leader != expected_leader:
        raise refuse("wrong_leader", {"seat": d.leader, "expected_seat": expected_leader},
                     seat=d.leader, expected=expected_leader)
    leader = d.leader if d.leader is not None else expected_leader
    limit = rules.max_move_points
    target = rules.target if rules.target_check == "move" else 0
    points = dict.fromkeys(rules.sides, 0)
    moves: list[dict[str, Any]] = []
    reached: str | None = None
    reached_by = ""
    for i, (seat, amount) in enumerate(d.scores or [], 1):
        if amount <= 0 or amount % 5 or amount > limit:
            raise refuse("impossible_points", {"entry": i, "points": amount, "limit": limit},
                         entry=i, seat=seat)
        if reached is not None:
            raise refuse("play_after_end", {"entry": i, "detail": "a side reached the target",
                                            "detail_ru": "сторона уже набрала цель"},
                         entry=i, seat=seat)
        side = side_of[seat]
        points[side] += amount
        moves.append({"seat": seat, "points": amount})
        if target and totals[side] + points[side] >= target:
            reached, reached_by = side, seat
    if d.result == "target":
        if reached is None:
            raise refuse("target_not_reached", {"target": rules.target})
    elif reached is not None and (d.result == "fish" or d.by != reached_by):
        # the play stopped at the target: a fish's passes, or another seat's going out, came
        # after its end; the move that reached it may only be the one that went out
        raise refuse("play_after_end", {"entry": len(moves) + 1,
                                        "detail": "a side reached the target",
                                        "detail_ru": "сторона уже набрала цель"})
    return Played(moves, points, leader or "", reached if d.result == "target" else None)
