"""Per-participant metrics computed from plain games: no Django, no database.

Every function takes the games of the rounds being counted (the caller has already dropped later
rounds) and returns numbers; ordering and ranks live in ``ranking``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .types import VOLUNTARY, Game, Result, Settings


def scored(game: Game, settings: Settings) -> int:
    """The match points a round scores (``effective_result`` in points), inlined for speed:
    the standings of a big event call this tens of thousands of times."""
    if not game.played and game.kind == "bye":
        result = settings.bye_result
    else:
        result = game.result
    if result == "win":
        return settings.win
    return settings.draw if result == "draw" else settings.loss


def effective_result(game: Game, settings: Settings) -> Result:
    """The result a round scores: a pairing-allocated bye scores as the settings say."""
    if not game.played and game.kind == "bye":
        return settings.bye_result
    return game.result


def game_efectividad(game: Game, settings: Settings) -> float:
    """Efectividad of one round as federation software computes it.

    ``settings.efectividad == "capped"``: a game that ended at the target gives the winner T
    minus the loser's points and the loser the negative of that, each side's points capped at
    T (a loser past the target too gives 0); time (or the fixed number of deals) ended it: plus
    or minus the difference. ``"plain"``: every played game gives points for minus points
    against (FEMUNDO/FEDEDODO sheets report it so). Unplayed rounds, either way: a forfeit
    gives the offender -T (``forfeit_loss_share`` of T) and the other side +T/2
    (``forfeit_win_share``), a bye +T/2 (``bye_share``); a requested absence and the rounds after
    withdrawing give 0. Without a target, a played game gives its difference and an unplayed
    round 0.
    """
    target = settings.target
    if not game.played:
        if target is None:
            return 0.0
        if game.kind == "bye":
            return target * settings.bye_share
        if game.kind == "forfeit_win":
            return target * settings.forfeit_win_share
        if game.kind == "forfeit_loss":
            return -target * settings.forfeit_loss_share
        return 0.0
    difference = float(game.points_for - game.points_against)
    if (target is None or settings.efectividad == "plain" or game.end != "target"
            or game.result == "draw"):  # fmt: skip
        return difference
    # Both sides' points capped at T: the winner's T minus the loser's points, the loser the
    # negative of that; a loser who also passed T (the fives games check the target once a deal
    # is scored) caps to T as well, so a win is never worth less than nothing.
    return float(min(game.points_for, target) - min(game.points_against, target))


@dataclass(frozen=True, slots=True)
class Totals:
    """Sums over one participant's rounds (scores already net of sanctions)."""

    match_points: int
    wins: int
    games_won: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    deals_won: int
    efectividad: float
    progressive: int

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


def totals(
    games: Sequence[Game],
    settings: Settings,
    deductions: Mapping[int, int],
    last_round: int,
    game_points: int = 0,
) -> Totals:
    """Sum one participant's games; ``deductions`` maps a round to the match points deducted,
    ``game_points`` is the points recorded deducted (off the points scored and efectividad)."""
    by_round: dict[int, int] = {}
    wins = games_won = draws = losses = 0
    points_for = points_against = deals = 0
    efectividad = 0.0
    for game in games:
        result = effective_result(game, settings)
        by_round[game.round] = by_round.get(game.round, 0) + settings.points_for(result)
        if result == "win":
            wins += 1
            games_won += game.played
        elif result == "draw":
            draws += 1
        else:
            losses += 1
        points_for += game.points_for
        points_against += game.points_against
        deals += game.deals_won
        efectividad += game_efectividad(game, settings)
    for round_number, points in deductions.items():
        by_round[round_number] = by_round.get(round_number, 0) - points
    cumulative = progressive = 0
    for round_number in range(1, last_round + 1):
        cumulative += by_round.get(round_number, 0)
        progressive += cumulative
    return Totals(
        match_points=sum(by_round.values()),
        wins=wins,
        games_won=games_won,
        draws=draws,
        losses=losses,
        points_for=points_for - game_points,
        points_against=points_against,
        deals_won=deals,
        efectividad=efectividad - game_points,
        progressive=progressive,
    )


def adjusted_score(games: Iterable[Game], settings: Settings, deduction: int) -> int:
    """A participant's score as seen by its opponents' Buchholz and Sonneborn-Berger.

    C.07 (2024) art. 16: the participant's unplayed rounds after its last played game (or
    pairing-allocated bye, or forfeit win) count as draws, whatever the reason and whatever its
    status; its earlier unplayed rounds count as they scored. Sanctions stay deducted.
    """
    games = list(games)
    last = max(
        (g.round for g in games if g.played or g.kind in ("bye", "forfeit_win")), default=0
    )
    score = -deduction
    for game in games:
        if not game.played and game.round > last:
            score += settings.draw
        else:
            score += scored(game, settings)
    return score


class Contribution(NamedTuple):
    """What one round adds to the opponent-based tie-breaks (a named tuple: a big event has
    tens of thousands of them, and a frozen dataclass is several times slower to build)."""

    opponent_score: float
    fraction: float  # share of the win the round scored: 1 win, draw/win draw, 0 loss
    voluntary: bool


def contributions(
    games: Sequence[Game], settings: Settings, own_score: int, adjusted: Mapping[int, int]
) -> list[Contribution]:
    """One contribution per round: the opponent's adjusted score, or for an unplayed round a
    dummy opponent with the participant's own score (C.07, 2024)."""
    result: list[Contribution] = []
    win = settings.win
    for game in games:
        fraction = scored(game, settings) / win if win else 0.0
        score: float
        if not game.played:
            score = own_score
        elif game.opponents:
            score = sum(adjusted[o] for o in game.opponents) / len(game.opponents)
        elif game.opponent is not None:
            score = adjusted[game.opponent]
        else:
            score = own_score
        voluntary = not game.played and game.kind in VOLUNTARY
        result.append(Contribution(score, fraction, voluntary))
    return result


def buchholz(items: Sequence[Contribution]) -> float:
    return float(sum(item.opponent_score for item in items))


def _without_lowest(items: Sequence[Contribution]) -> list[Contribution]:
    """Drop the least significant contribution; voluntary unplayed rounds are cut first."""
    if not items:
        return []
    pool = [item for item in items if item.voluntary] or list(items)
    lowest = min(pool, key=lambda item: item.opponent_score)
    remaining = list(items)
    remaining.remove(lowest)
    return remaining


def buchholz_cut1(items: Sequence[Contribution]) -> float:
    return buchholz(_without_lowest(items))


def median_buchholz(items: Sequence[Contribution]) -> float:
    """Buchholz without the lowest (voluntary first) and the highest contribution."""
    remaining = _without_lowest(items)
    if remaining:
        remaining.remove(max(remaining, key=lambda item: item.opponent_score))
    return buchholz(remaining)


def sonneborn_berger(items: Sequence[Contribution]) -> float:
    return float(sum(item.opponent_score * item.fraction for item in items))
