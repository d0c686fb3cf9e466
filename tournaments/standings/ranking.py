"""Standings: metrics per participant, then the tie-break order, then ranks. Pure Python.

The order is refined criterion by criterion: participants are kept in groups that are equal on
every criterion so far, and each criterion splits the groups further. Head-to-head is computed
inside such a group, which is why the refinement is incremental rather than one sort.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from . import metrics
from .types import Game, Row, Sanction, Settings


def head_to_head(
    group: Sequence[int], games_of: Mapping[int, Sequence[Game]], settings: Settings
) -> dict[int, float]:
    """Match points scored in played games among ``group``, if every two of them have met.

    If some two members of the group have not played each other the criterion does not
    separate anybody: everybody gets 0.
    """
    members = set(group)
    met: set[frozenset[int]] = set()
    scored: dict[int, float] = dict.fromkeys(group, 0.0)
    for participant in group:
        for game in games_of.get(participant, ()):
            inside = [o for o in game.faced() if o in members and o != participant]
            if inside:
                met.update(frozenset((participant, o)) for o in inside)
                scored[participant] += settings.points_for(game.result)
    pairs = len(members) * (len(members) - 1) // 2
    if len(members) < 2 or len(met) < pairs:
        return dict.fromkeys(group, 0.0)
    return scored


def lot(participants: Iterable[int], seed: int) -> dict[int, int]:
    """A seeded draw: a distinct number per participant, higher ranks first."""
    ordered = sorted(participants)
    random.Random(seed).shuffle(ordered)
    return {participant: len(ordered) - index for index, participant in enumerate(ordered)}


def standings(
    participants: Iterable[int],
    games: Iterable[Game],
    settings: Settings,
    sanctions: Iterable[Sanction] = (),
    upto_round: int | None = None,
) -> list[Row]:
    """Rank ``participants`` after ``upto_round`` (all rounds when None).

    Ranks are 1..n and never shared: the seeded lot is always the last resort, appended to the
    settings' order when it is not there.
    """
    ids = list(dict.fromkeys(participants))
    known = set(ids)
    games_of: dict[int, list[Game]] = defaultdict(list)
    last_round = 0
    for game in games:
        if upto_round is not None and game.round > upto_round:
            continue
        if game.participant not in known or any(o not in known for o in game.faced()):
            raise ValueError(f"game of an unknown participant: {game}")
        games_of[game.participant].append(game)
        last_round = max(last_round, game.round)
    if upto_round is not None:
        last_round = max(last_round, upto_round)
    deductions: dict[int, dict[int, int]] = defaultdict(dict)
    game_points: dict[int, int] = defaultdict(int)
    for sanction in sanctions:
        if upto_round is not None and sanction.round > upto_round:
            continue
        if sanction.participant not in known:
            raise ValueError(f"sanction of an unknown participant: {sanction}")
        per_round = deductions[sanction.participant]
        per_round[sanction.round] = per_round.get(sanction.round, 0) + sanction.points
        game_points[sanction.participant] += sanction.game_points

    totals = {
        pid: metrics.totals(
            games_of[pid], settings, deductions[pid], last_round, game_points.get(pid, 0)
        )
        for pid in ids
    }
    adjusted = {
        pid: metrics.adjusted_score(games_of[pid], settings, sum(deductions[pid].values()))
        for pid in ids
    }
    contributions = {
        pid: metrics.contributions(games_of[pid], settings, totals[pid].match_points, adjusted)
        for pid in ids
    }
    lots = lot(ids, settings.seed)
    fixed: dict[str, Callable[[int], float]] = {
        "match_points": lambda pid: totals[pid].match_points,
        "wins": lambda pid: totals[pid].wins,
        "difference": lambda pid: totals[pid].difference,
        "points": lambda pid: totals[pid].points_for,
        "efectividad": lambda pid: totals[pid].efectividad,
        "buchholz": lambda pid: metrics.buchholz(contributions[pid]),
        "buchholz_cut1": lambda pid: metrics.buchholz_cut1(contributions[pid]),
        "median_buchholz": lambda pid: metrics.median_buchholz(contributions[pid]),
        "sonneborn_berger": lambda pid: metrics.sonneborn_berger(contributions[pid]),
        "progressive": lambda pid: totals[pid].progressive,
        "lot": lambda pid: lots[pid],
    }
    order = settings.order if "lot" in settings.order else (*settings.order, "lot")
    values: dict[int, list[float]] = {pid: [] for pid in ids}
    h2h: dict[int, float] = dict.fromkeys(ids, 0.0)
    groups: list[list[int]] = [ids] if ids else []
    for name in order:
        refined: list[list[int]] = []
        for group in groups:
            if name == "head_to_head":
                scores = head_to_head(group, games_of, settings) if len(group) > 1 else {}
                h2h.update(scores)
                value = {pid: scores.get(pid, 0.0) for pid in group}
            else:
                value = {pid: float(fixed[name](pid)) for pid in group}
            for pid in group:
                values[pid].append(value[pid])
            buckets: dict[float, list[int]] = defaultdict(list)
            for pid in group:
                buckets[value[pid]].append(pid)
            refined.extend(buckets[key] for key in sorted(buckets, reverse=True))
        groups = refined

    rows: list[Row] = []
    for rank, (pid,) in enumerate(groups, start=1):
        total = totals[pid]
        items = contributions[pid]
        rows.append(
            Row(
                rank=rank,
                participant=pid,
                match_points=total.match_points,
                wins=total.wins,
                games_won=total.games_won,
                draws=total.draws,
                losses=total.losses,
                points_for=total.points_for,
                points_against=total.points_against,
                difference=total.difference,
                deals_won=total.deals_won,
                efectividad=total.efectividad,
                buchholz=metrics.buchholz(items),
                buchholz_cut1=metrics.buchholz_cut1(items),
                median_buchholz=metrics.median_buchholz(items),
                sonneborn_berger=metrics.sonneborn_berger(items),
                progressive=total.progressive,
                head_to_head=h2h[pid],
                lot=lots[pid],
                tiebreaks=tuple(values[pid]),
            )
        )
    return rows
