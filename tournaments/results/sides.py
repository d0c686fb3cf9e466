"""How one side of a decided table scored, for the standings (``ledger``), the history and the
player's page: its result, its points for and against, and whether a preset's points are
swapped because fewer is better («козёл», the club games of seed 003 but «дворовое»).
"""

from __future__ import annotations

from rules import RulesError
from tournaments.models import Tournament


def swapped(tournament: Tournament) -> bool:
    try:
        rules = tournament.rules
        # «козёл»'s losers record their own; in the club games (rules.club) but «дворовое»
        # fewer points, sticks or generals are better
        return (getattr(rules, "scoring", "") == "losers_record_own"
                or getattr(rules, "fewer_is_better", False))
    except RulesError:
        return False


def side_result(winner: str, side: str, totals: dict[str, int], swap: bool = False) -> str:
    """The side's result; with more than two sides a draw is only for those level at the
    top (see the module docstring): the most points, or under ``swap`` the fewest."""
    if winner == "draw":
        if len(totals) > 2:
            best = min(totals.values()) if swap else max(totals.values())
            if totals.get(side, 0) != best:
                return "loss"
        return "draw"
    return "win" if winner == side else "loss"


def side_points(side: str, totals: dict[str, int], swap: bool) -> tuple[int, int]:
    """(points for, points against) of ``side``: against the other side, or the best of the
    others when there are several — the most points, or under ``swap`` (fewer is better) the
    fewest; then swapped, so that more points for is better."""
    ours = totals.get(side, 0)
    others = [points for name, points in totals.items() if name != side]
    if not others:
        return (0, ours) if swap else (ours, 0)
    theirs = min(others) if swap else max(others)
    return (theirs, ours) if swap else (ours, theirs)
