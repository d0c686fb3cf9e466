"""How long the pure standings take on a large Swiss-like event (no database).

    python bench/standings_pure_bench.py [--participants 1000] [--rounds 9] [--repeat 5] [--seed 1]

Builds a Swiss-like event: each round the field is sorted by match points (random order inside a
score group) and neighbours meet; results and recorded points are random, with a few forfeits
and an odd participant's bye. Then times ``standings`` for the whole event, once with the sports
order and once with every tie-break (Buchholz family, Sonneborn-Berger, head-to-head...), and
prints the best and median of ``--repeat`` runs. Asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.standings import TIEBREAKS, Game, Settings, standings  # noqa: E402
from tournaments.standings.types import Result  # noqa: E402


def swiss_like(participants: int, rounds: int, rng: random.Random) -> list[Game]:
    score = dict.fromkeys(range(1, participants + 1), 0)
    games: list[Game] = []
    for rnd in range(1, rounds + 1):
        field = sorted(score, key=lambda pid: (-score[pid], rng.random()))
        if len(field) % 2:
            bye = field.pop()
            games.append(Game(rnd, bye, None, "win", played=False, kind="bye"))
            score[bye] += 2
        for a, b in zip(field[0::2], field[1::2], strict=True):
            if rng.random() < 0.01:
                games.append(Game(rnd, a, None, "win", played=False, kind="forfeit_win"))
                games.append(Game(rnd, b, None, "loss", played=False, kind="forfeit_loss"))
                score[a] += 2
                continue
            pa, pb = rng.randint(0, 200), rng.randint(0, 200)
            ra: Result = "win" if pa > pb else "loss" if pa < pb else "draw"
            rb: Result = "loss" if pa > pb else "win" if pa < pb else "draw"
            games.append(Game(rnd, a, b, ra, pa, pb, rng.randint(0, 8), True, "", "time"))
            games.append(Game(rnd, b, a, rb, pb, pa, rng.randint(0, 8), True, "", "time"))
            score[a] += {"win": 2, "draw": 1, "loss": 0}[ra]
            score[b] += {"win": 2, "draw": 1, "loss": 0}[rb]
    return games


def time_it(games: list[Game], participants: int, settings: Settings, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        standings(range(1, participants + 1), games, settings)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--participants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = swiss_like(args.participants, args.rounds, random.Random(args.seed))
    print(f"{args.participants} participants x {args.rounds} rounds: {len(games)} game rows")
    for label, settings in (
        ("sports order", Settings(target=200)),
        ("every tie-break", Settings(target=200, order=TIEBREAKS)),
    ):
        times = time_it(games, args.participants, settings, args.repeat)
        print(
            f"  {label:16} best {min(times) * 1000:7.1f} ms"
            f"   median {statistics.median(times) * 1000:7.1f} ms"
        )


if __name__ == "__main__":
    main()
