"""Ratings from a match history, in order: openskill's Plackett-Luce team model.

Plain data in, plain data out (no database): ``replay(matches)`` rates every match in the order
given and returns each player's final rating and the rating before and after every match. A
pair is a team of two; partners drawn each round are a team formed for that match; an
each-for-himself table (3–4 players) is a match of three or four one-player teams ranked by the
match's totals. Replaying the whole history in a fixed order is what makes a correction or a
late import give the same numbers as if it had always been there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A decided match: the players of each side and each side's place (0 the best; equal
    places are a draw between those sides)."""

    match: int
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]


@dataclass(slots=True)
class State:
    mu: float
    sigma: float
    matches: int = 0


@dataclass(frozen=True, slots=True)
class Change:
    player: int
    match: int
    sequence: int
    result: str  # win, draw, loss
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def result_of(places: Sequence[int], side: int) -> str:
    """win: alone in the best place; draw: sharing it; loss: below it."""
    best = min(places)
    if places[side] != best:
        return "loss"
    return "draw" if list(places).count(best) > 1 else "win"


def replay(matches: Iterable[RatedMatch], states: dict[int, State] | None = None,
           first: int = 1) -> tuple[dict[int, State], list[Change]]:
    """Rate ``matches`` in the order given, numbered from ``first``; each player starts where
    ``states`` has him (updated in place), or at the model's default."""
    states = {} if states is None else states
    changes: list[Change] = []
    for sequence, match in enumerate(matches, start=first):
        sides = [side for side in match.sides if side]
        if len(sides) < 2 or len(sides) != len(match.places):
            continue
        teams = []
        for side in sides:
            team = []
            for player in side:
                state = states.get(player)
                if state is None:
                    state = states[player] = State(MODEL.mu, MODEL.sigma)
                team.append(MODEL.rating(mu=state.mu, sigma=state.sigma))
            teams.append(team)
        rated = MODEL.rate(teams, ranks=[float(p) for p in match.places])
        for index, (side, team) in enumerate(zip(sides, rated, strict=True)):
            result = result_of(match.places, index)
            for player, new in zip(side, team, strict=True):
                state = states[player]
                changes.append(Change(player, match.match, sequence, result, state.mu,
                                      state.sigma, new.mu, new.sigma))  # fmt: skip
                state.mu, state.sigma = new.mu, new.sigma
                state.matches += 1
    return states, changes
