"""Plain data of the standings: what goes in (games, settings, sanctions) and what comes out (rows).

No Django, no database: the bridge that loads matches turns them into these frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

Result = Literal["win", "draw", "loss"]
Unplayed = Literal["", "bye", "forfeit_win", "forfeit_loss", "absent", "withdrawn"]
End = Literal["", "target", "time", "deals"]
Efectividad = Literal["capped", "plain"]

#: Unplayed rounds the participant chose not to play (C.07 "voluntary unplayed rounds").
VOLUNTARY: frozenset[str] = frozenset({"absent", "forfeit_loss", "withdrawn"})

TIEBREAKS: tuple[str, ...] = (
    "match_points",
    "wins",
    "difference",
    "points",
    "efectividad",
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "sonneborn_berger",
    "progressive",
    "head_to_head",
    "lot",
)

SPORTS_ORDER: tuple[str, ...] = ("match_points", "difference", "buchholz", "head_to_head")
INTERNATIONAL_ORDER: tuple[str, ...] = ("wins", "efectividad", "points")


class Game(NamedTuple):
    """One round of one participant: a played match, or an unplayed round of some ``kind``.

    A played match appears twice, once from each side. ``end`` says how a played match ended:
    the target was reached, time ran out, or the fixed number of deals was dealt.

    ``opponents`` names every opponent when there are several (the two players across the table
    in an individual event): the opponent-based tie-breaks then use their mean score, and
    ``opponent`` is the first of them.

    A named tuple rather than a frozen dataclass: a big event has tens of thousands of games, and
    a tuple is built several times faster (it is just as immutable).
    """

    round: int
    participant: int
    opponent: int | None
    result: Result
    points_for: int = 0
    points_against: int = 0
    deals_won: int = 0
    played: bool = True
    kind: Unplayed = ""
    end: End = ""
    opponents: tuple[int, ...] = ()

    def faced(self) -> tuple[int, ...]:
        """Every opponent of a played game (none for an unplayed round)."""
        if not self.played:
            return ()
        if self.opponents:
            return self.opponents
        return () if self.opponent is None else (self.opponent,)


@dataclass(frozen=True, slots=True)
class Sanction:
    """A deduction recorded by the chief referee in a round: match points (``points``) and/or
    points recorded (``game_points``, taken off the points scored and so off the difference and
    the efectividad)."""

    participant: int
    round: int
    points: int
    game_points: int = 0


@dataclass(frozen=True, slots=True)
class Settings:
    """The tournament's scoring and tie-break rules."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye_result: Result = "win"
    target: int | None = None
    order: tuple[str, ...] = SPORTS_ORDER
    seed: int = 0
    #: "capped": a game ended at the target gives T minus the loser's points (each side capped
    #: at T); "plain": points for minus points against (see ``metrics.game_efectividad``)
    efectividad: Efectividad = "capped"
    #: shares of T that unplayed rounds give in the efectividad (federation practice):
    #: a forfeit +T/2 to the other side and -T to the offender, a bye +T/2
    forfeit_win_share: float = 0.5
    forfeit_loss_share: float = 1.0
    bye_share: float = 0.5

    def __post_init__(self) -> None:
        unknown = [name for name in self.order if name not in TIEBREAKS]
        if unknown:
            raise ValueError(f"unknown tie-breaks: {unknown}")

    def points_for(self, result: Result) -> int:
        if result == "win":
            return self.win
        return self.draw if result == "draw" else self.loss


class Row(NamedTuple):
    """One line of the standings: its rank, every metric and the tie-break values used. A named
    tuple for the same reason as ``Game``: a live table builds a thousand of them per request."""

    rank: int
    participant: int
    match_points: int
    wins: int
    games_won: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    difference: int
    deals_won: int
    efectividad: float
    buchholz: float
    buchholz_cut1: float
    median_buchholz: float
    sonneborn_berger: float
    progressive: int
    head_to_head: float
    lot: int
    tiebreaks: tuple[float, ...]
    #: match points and points recorded taken off by sanctions (already out of the figures
    #: above; kept so a table can mark the lines a sanction changed)
    deducted: int = 0
    deducted_points: int = 0
