"""How long one round of pairing takes on large fields, and how much memory it needs.

    python bench/pairing_bench.py [--swiss 2000,5000] [--individual 2000] [--rounds 9] [--seed 1]

Simulates Swiss tournaments of fixed pairs (random results between rounds, ``play_round``) and
times ``swiss`` alone for every round; then an individual event with rotating partners, timing
``individual``. Peak memory is given two ways: the process's peak resident set
(``resource.getrusage``, which includes rustworkx's own allocations) and the peak of Python
allocations during one more pairing of the last round under ``tracemalloc`` (which does not see
rustworkx's). Targets: Swiss 2,000 pairs ≤ 1 s a round, 5,000 ≤ 10 s; individual 2,000 players
≤ 5 s. Prints the figures; asserts nothing about speed. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.pairing import (  # noqa: E402
    Competitor,
    IndividualOptions,
    RoundPairing,
    SwissOptions,
    individual,
    swiss,
)
from tournaments.pairing.simulate import field, play_round  # noqa: E402

Pairer = Callable[[list[Competitor], int], RoundPairing]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def run(name: str, size: int, rounds: int, seed: int, pair: Pairer) -> None:
    rng = random.Random(seed)
    competitors = field(size)
    times: list[float] = []
    flagged: dict[str, int] = {}
    pairing = RoundPairing(tables=())
    print(f"\n{name}, {size} entries, {rounds} rounds")
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        pairing = pair(competitors, number)
        times.append(time.perf_counter() - started)
        for table in pairing.tables:
            for flag in table.flags:
                flagged[flag] = flagged.get(flag, 0) + 1
        print(
            f"  round {number}: {times[-1]:.3f} s, {len(pairing.tables)} tables, "
            f"{len(pairing.byes)} byes, peak RSS {peak_rss_mb():.0f} MB"
        )
        if number < rounds:
            competitors = play_round(competitors, pairing, rng)
    tracemalloc.start()
    pair(competitors, rounds)
    _, python_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"  per round: mean {sum(times) / len(times):.3f} s, max {max(times):.3f} s; "
        f"peak Python allocations {python_peak / 2**20:.1f} MB; peak RSS {peak_rss_mb():.0f} MB"
    )
    print(
        "  tables flagged over all rounds: "
        + ", ".join(f"{flag} {count}" for flag, count in sorted(flagged.items()))
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--swiss", default="2000,5000", help="field sizes, comma-separated")
    parser.add_argument("--individual", default="2000", help="field sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--individual-rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; start-up peak RSS {peak_rss_mb():.0f} MB")
    for size in (int(s) for s in args.swiss.split(",") if s):
        run(
            "Swiss, fixed pairs",
            size,
            args.rounds,
            args.seed,
            lambda c, n: swiss(c, SwissOptions(round_number=n)),
        )
    for size in (int(s) for s in args.individual.split(",") if s):
        run(
            "Individual, rotating partners",
            size,
            args.individual_rounds,
            args.seed,
            lambda c, n: individual(c, IndividualOptions(round_number=n)),
        )


if __name__ == "__main__":
    main()
