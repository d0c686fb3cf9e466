"""Per-participant metrics computed from plain games: no Django, no database.

Every function takes the games of the rounds being counted (the caller has already dropped later
rounds) and returns numbers; ordering and ranks live in ``ranking``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .types import VOLUNTARY, Game, Result, Settings

#: unplayed rounds in which the participant was paired against an opponent (a forfeit, won or
#: lost): its score there stands in the opponents' view, wherever the round falls (C.07 art. 16)
PAIRED_UNPLAYED = frozenset({"forfeit_win", "forfeit_loss"})


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


class Totals(NamedTuple):
    """Sums over one participant's rounds (scores already net of sanctions). A named tuple: a
    big event builds one per participant on every live table, and it is built several times
    faster than a frozen dataclass."""

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
    return tally(games, settings, deductions, last_round, game_points)[0]


def tally(
    games: Sequence[Game],
    settings: Settings,
    deductions: Mapping[int, int],
    last_round: int,
    game_points: int = 0,
) -> tuple[Totals, int]:
    """``totals`` and ``adjusted_score`` (the deductions summed) in one pass over the games:
    the standings need both for every participant."""
    by_round: dict[int, int] = {}
    wins = games_won = draws = losses = 0
    points_for = points_against = deals = 0
    efectividad = 0.0
    # ``effective_result``, ``Settings.points_for`` and ``game_efectividad`` inlined for a
    # played game (nearly every one): the standings of a big event sum tens of thousands
    win, draw, loss = settings.win, settings.draw, settings.loss
    target = settings.target
    capped = target is not None and settings.efectividad != "plain"
    # for ``adjusted_score``: the last round played (or won unplayed) and the unplayed rounds
    counted_until = 0
    unplayed: list[tuple[int, int, bool]] = []
    for game in games:
        played = game.played
        result = game.result if played or game.kind != "bye" else settings.bye_result
        if result == "win":
            wins += 1
            games_won += played
            scored = win
        elif result == "draw":
            draws += 1
            scored = draw
        else:
            losses += 1
            scored = loss
        number = game.round
        by_round[number] = by_round.get(number, 0) + scored
        ours, theirs = game.points_for, game.points_against
        points_for += ours
        points_against += theirs
        deals += game.deals_won
        if not played:
            efectividad += game_efectividad(game, settings)
            unplayed.append((number, scored, game.kind in PAIRED_UNPLAYED))
            if game.kind in ("bye", "forfeit_win") and number > counted_until:
                counted_until = number
        elif capped and game.end == "target" and result != "draw":
            efectividad += float(min(ours, target) - min(theirs, target))  # type: ignore[type-var]
        else:
            efectividad += float(ours - theirs)
        if played and number > counted_until:
            counted_until = number
    # the opponents' view (``adjusted_score``): unplayed rounds after the last counted one are
    # draws, except a forfeit (paired: its score stands); deductions stay
    adjusted = sum(by_round.values()) + sum(
        draw - points for number, points, paired in unplayed
        if number > counted_until and not paired
    )
    cumulative = progressive = 0
    for round_number, points in deductions.items():
        by_round[round_number] = by_round.get(round_number, 0) - points
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
    ), adjusted - sum(deductions.values())


def adjusted_score(games: Iterable[Game], settings: Settings, deduction: int) -> int:
    """A participant's score as seen by its opponents' Buchholz and Sonneborn-Berger.

    C.07 (2024) art. 16: the participant's unplayed rounds after its last played game (or
    pairing-allocated bye, or forfeit win) count as draws, whatever the reason and whatever its
    status — except a forfeit, won or lost: the participant was paired that round, and its score
    stands (16.2.5 is about rounds without an opponent; FIDE's TieBreakServer, Vega and
    Swiss-Manager agree). Its earlier unplayed rounds count as they scored. Sanctions stay
    deducted.
    """
    games = list(games)
    last = max(
        (g.round for g in games if g.played or g.kind in ("bye", "forfeit_win")), default=0
    )
    score = -deduction
    for game in games:
        if not game.played and game.round > last and game.kind not in PAIRED_UNPLAYED:
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


def _win_shares(settings: Settings) -> dict[str, float]:
    """The share of a win each result of a played game scores (``scored`` / win)."""
    win = settings.win
    if not win:
        return {"win": 0.0, "draw": 0.0, "loss": 0.0}
    return {"win": settings.win / win, "draw": settings.draw / win, "loss": settings.loss / win}


def contributions(
    games: Sequence[Game], settings: Settings, own_score: int, adjusted: Mapping[int, int]
) -> list[Contribution]:
    """One contribution per round: the opponent's adjusted score, or for an unplayed round a
    dummy opponent with the participant's own score (C.07, 2024)."""
    result: list[Contribution] = []
    add = result.append
    win = settings.win
    share = _win_shares(settings)
    for game in games:
        score: float
        if not game.played:
            fraction = scored(game, settings) / win if win else 0.0
            add(Contribution(own_score, fraction, game.kind in VOLUNTARY))
            continue
        if game.opponents:
            score = sum(adjusted[o] for o in game.opponents) / len(game.opponents)
        elif game.opponent is not None:
            score = adjusted[game.opponent]
        else:
            score = own_score
        add(Contribution(score, share[game.result], False))
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


def opponent_figures(
    games: Sequence[Game], settings: Settings, own_score: int, adjusted: Mapping[int, int]
) -> tuple[float, float, float, float]:
    """(Buchholz, cut-1, median Buchholz, Sonneborn-Berger) of one participant in one pass over
    its games, without building its ``contributions``: a live table computes them for every
    entry. The same values as ``buchholz`` … ``sonneborn_berger`` of the contributions, each
    summed over the same scores in the same order, with the same round cut (the first lowest of
    the voluntary rounds, else of all; then the first highest of the rest); the property test
    ``test_every_metric_is_the_one_its_definition_gives`` holds them to it."""
    win = settings.win
    share = _win_shares(settings)
    scores: list[float] = []
    weighted: list[float] = []
    voluntary: list[int] = []  # indexes of the voluntary unplayed rounds
    for game in games:
        score: float
        if not game.played:
            fraction = scored(game, settings) / win if win else 0.0
            if game.kind in VOLUNTARY:
                voluntary.append(len(scores))
            score = own_score
        else:
            fraction = share[game.result]
            if game.opponents:
                score = sum(adjusted[o] for o in game.opponents) / len(game.opponents)
            elif game.opponent is not None:
                score = adjusted[game.opponent]
            else:
                score = own_score
        scores.append(score)
        weighted.append(score * fraction)
    if not scores:
        return 0.0, 0.0, 0.0, 0.0
    if voluntary:
        lowest = min(voluntary, key=scores.__getitem__)  # the first of the lowest
    else:
        lowest = scores.index(min(scores))
    remaining = scores[:lowest] + scores[lowest + 1:]
    cut1 = float(sum(remaining))
    if remaining:
        del remaining[remaining.index(max(remaining))]
    return float(sum(scores)), cut1, float(sum(remaining)), float(sum(weighted))
