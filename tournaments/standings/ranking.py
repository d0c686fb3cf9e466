"""Standings: metrics per participant, then the tie-break order, then ranks. Pure Python.

The order is refined criterion by criterion: participants equal on every criterion so far are
split by the next one, higher values first. Head-to-head is computed inside each group equal on
every criterion before it (and again inside the sub-groups it leaves tied,
``direct_encounter``); once its values are known, the refinement is one sort of each
participant's tuple of values (the lot, always last, makes the tuples distinct).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from . import metrics
from .types import Game, Row, Sanction, Settings


def _encounters(
    group: Sequence[int], games_of: Mapping[int, Sequence[Game]], settings: Settings
) -> tuple[dict[int, float], dict[int, int]]:
    """Each member's match points against the others of ``group`` (a repeated encounter counts
    its mean, so a double round robin weighs every opponent once) and how many of them it has
    not met."""
    members = set(group)
    scored: dict[int, dict[int, list[int]]] = {pid: defaultdict(list) for pid in group}
    for pid in group:
        for game in games_of.get(pid, ()):
            for other in game.faced():
                if other in members and other != pid:
                    scored[pid][other].append(settings.points_for(game.result))
    points = {pid: float(sum(sum(v) / len(v) for v in scored[pid].values())) for pid in group}
    unmet = {pid: len(group) - 1 - len(scored[pid]) for pid in group}
    return points, unmet


def direct_encounter(
    group: Sequence[int], games_of: Mapping[int, Sequence[Game]], settings: Settings
) -> list[list[int]]:
    """C.07's direct encounter: ``group`` (tied so far) split into ordered sub-groups.

    When every two members have met, the match points scored in those games order them, and
    the criterion is applied again within each sub-group it leaves tied. When some have not
    met, a member is placed above the rest only if its points exceed what any other of them
    could reach by winning its games still unplayed within the group; the others stay tied
    (and the criterion is applied again to them if it separated somebody).
    """
    if len(group) < 2:
        return [list(group)]
    points, unmet = _encounters(group, games_of, settings)
    buckets: list[list[int]]
    if not any(unmet.values()):
        by_points: dict[float, list[int]] = defaultdict(list)
        for pid in group:
            by_points[points[pid]].append(pid)
        buckets = [by_points[key] for key in sorted(by_points, reverse=True)]
    else:
        reach = {pid: points[pid] + unmet[pid] * settings.win for pid in group}
        rest = sorted(group, key=lambda pid: (-points[pid], -reach[pid]))
        buckets = []
        while len(rest) > 1 and points[rest[0]] > max(reach[pid] for pid in rest[1:]):
            buckets.append([rest[0]])
            rest = rest[1:]
        buckets.append(rest)
    if len(buckets) == 1:
        return buckets
    return [sub for bucket in buckets for sub in direct_encounter(bucket, games_of, settings)]


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
    games_of, last_round = grouped(known, games, upto_round)
    deductions, game_points = deducted(known, sanctions, upto_round)
    tallies = {
        pid: metrics.tally(
            games_of[pid], settings, deductions.get(pid, {}), last_round, game_points.get(pid, 0)
        )
        for pid in ids
    }
    totals = {pid: tally[0] for pid, tally in tallies.items()}
    adjusted = {pid: tally[1] for pid, tally in tallies.items()}
    # each opponent-based metric once per participant: the order and the rows both read it
    opponent = {
        pid: metrics.opponent_figures(games_of[pid], settings, totals[pid].match_points, adjusted)
        for pid in ids
    }
    return ranked(ids, games_of, settings, totals, opponent, lot(ids, settings.seed),
                  deductions, game_points)  # fmt: skip


def grouped(
    known: set[int], games: Iterable[Game], upto_round: int | None
) -> tuple[defaultdict[int, list[Game]], int]:
    """Each participant's games of the rounds counted, in the order given, and the last round
    counted; ValueError for a game of (or against) somebody not in ``known``."""
    games_of: defaultdict[int, list[Game]] = defaultdict(list)
    last_round = 0
    # everybody a counted game names, checked against ``known`` once after the loop (a check
    # per game was a fifth of a 1,000-entry table's time)
    named: set[int | None] = set()
    for game in games:
        if upto_round is not None and game.round > upto_round:
            continue
        games_of[game.participant].append(game)
        if game.played:
            named.add(game.opponent)
            if game.opponents:
                named.update(game.opponents)
        if game.round > last_round:
            last_round = game.round
    named.discard(None)
    unknown = (named | games_of.keys()) - known
    if unknown:
        raise ValueError(f"games of unknown participants: {sorted(unknown)}")  # type: ignore[type-var]
    if upto_round is not None:
        last_round = max(last_round, upto_round)
    return games_of, last_round


def deducted(
    known: set[int], sanctions: Iterable[Sanction], upto_round: int | None
) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """The match points sanctions deduct (participant -> round -> points) and the points
    recorded they deduct (participant -> points), of the rounds counted."""
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
    return dict(deductions), dict(game_points)


def ranked(
    ids: list[int],
    games_of: Mapping[int, Sequence[Game]],
    settings: Settings,
    totals: Mapping[int, metrics.Totals],
    opponent: Mapping[int, tuple[float, float, float, float]],
    lots: Mapping[int, int],
    deductions: Mapping[int, Mapping[int, int]],
    game_points: Mapping[int, int],
) -> list[Row]:
    """The rows in the settings' order from each participant's figures (``totals``, the
    opponent-based ``opponent`` figures and its lot): the tie-break refinement and the ranks.
    ``standings`` computes the figures of everybody; ``incremental.Kept`` keeps them and
    recomputes those a change touches.

    Each criterion is a column of values in the order of ``ids`` (a comprehension per column:
    a call per value was most of a 1,000-entry ranking's time); head-to-head's column is
    filled group by group, the groups being the participants equal on every column before it.
    """
    listed = [totals[pid] for pid in ids]
    figures = [opponent[pid] for pid in ids]
    columns: dict[str, Callable[[], list[float]]] = {
        "match_points": lambda: [float(t.match_points) for t in listed],
        "wins": lambda: [float(t.wins) for t in listed],
        "difference": lambda: [float(t.points_for - t.points_against) for t in listed],
        "points": lambda: [float(t.points_for) for t in listed],
        "efectividad": lambda: [float(t.efectividad) for t in listed],
        "buchholz": lambda: [float(f[0]) for f in figures],
        "buchholz_cut1": lambda: [float(f[1]) for f in figures],
        "median_buchholz": lambda: [float(f[2]) for f in figures],
        "sonneborn_berger": lambda: [float(f[3]) for f in figures],
        "progressive": lambda: [float(t.progressive) for t in listed],
        "lot": lambda: [float(lots[pid]) for pid in ids],
    }
    order = settings.order if "lot" in settings.order else (*settings.order, "lot")
    values: list[list[float]] = []
    h2h = [0.0] * len(ids)
    for name in order:
        if name != "head_to_head":
            values.append(columns[name]())
            continue
        # the value: how many of the tied the direct encounter ranks below
        h2h = [0.0] * len(ids)
        tied: dict[tuple[float, ...], list[int]] = defaultdict(list)
        for index, key in enumerate(zip(*values, strict=True) if values else [()] * len(ids)):
            tied[key].append(index)
        for members in tied.values():
            if len(members) < 2:
                continue
            group = [ids[index] for index in members]
            position = dict(zip(group, members, strict=True))
            below = len(group)
            for subgroup in direct_encounter(group, games_of, settings):
                below -= len(subgroup)
                for pid in subgroup:
                    h2h[position[pid]] = float(below)
        values.append(h2h)
    keys = list(zip(*values, strict=True))
    deducted = {pid: sum(per_round.values()) for pid, per_round in deductions.items()}
    make = Row._make  # positional: a thousand rows of 22 fields each
    rows: list[Row] = []
    for rank, index in enumerate(sorted(range(len(ids)), key=keys.__getitem__, reverse=True),
                                 start=1):  # fmt: skip
        pid = ids[index]
        won, wins, games_won, draws, losses, scored, conceded, deals, efectividad, progressive = (
            listed[index])
        bh, cut1, median, sb = figures[index]
        rows.append(make((
            rank, pid, won, wins, games_won, draws, losses, scored, conceded, scored - conceded,
            deals, efectividad, bh, cut1, median, sb, progressive, h2h[index], lots[pid],
            keys[index], deducted.get(pid, 0), game_points.get(pid, 0),
        )))  # fmt: skip
    return rows
