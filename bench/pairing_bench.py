"""How long one round of pairing takes on large fields, and how much memory it needs.

    python bench/pairing_bench.py [--swiss 2000,5000] [--individual 2000] [--rounds 9] [--seed 1]
    python bench/pairing_bench.py --free-for-all 16,100,2000 [--free-for-all-rounds 6]
        [--histories 100]

Simulates Swiss tournaments of fixed pairs (random results between rounds, ``play_round``) and
times ``swiss`` alone for every round; then an individual event with rotating partners, timing
``individual``. With ``--free-for-all`` it runs free-for-all events instead (random finishing
orders, points by place), timing ``free_for_all``, and then checks it against every possible
seating of ``--histories`` random histories for each field of 6 to 12 players: how often it
reaches the fewest repeats, the best place for the tables of three and the least spread, and
the spread it gives away when it does not; ``--swiss`` and ``--individual`` run besides only
when given. Peak memory is given two ways: the process's peak resident set
(``resource.getrusage``, which includes rustworkx's own allocations) and the peak of Python
allocations during one more pairing of the last round under ``tracemalloc`` (which does not see
rustworkx's). Targets: Swiss 2,000 pairs ≤ 1 s a round, 5,000 ≤ 10 s; individual 2,000 players
≤ 5 s; free-for-all 2,000 players ≤ 2 s. Prints the figures; asserts nothing about speed. Run it
on an otherwise idle machine.
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
    FreeForAllOptions,
    IndividualOptions,
    RoundPairing,
    SwissOptions,
    free_for_all,
    individual,
    swiss,
)
from tournaments.pairing.simulate import field, play_round  # noqa: E402

# the exhaustive search of the tests, so that both count the same way
from tournaments.tests.pairing.test_free_for_all import SIZES, history, judge, seatings  # noqa: E402

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


def against_every_seating(histories: int, seed: int) -> None:
    """Free-for-all on small fields against the best of every seating (``judge``: repeats, tables
    of three out of place, spread)."""
    print(f"\nFree-for-all against every seating, {histories} random histories a field")
    rng = random.Random(seed)
    for size in range(6, 13):
        repeats = placed = spread = 0
        gaps: list[float] = []
        spent = 0.0
        for number in range(histories):
            players = history(size, rng)
            started = time.perf_counter()
            pairing = free_for_all(players, FreeForAllOptions(round_number=5, random_seed=number))
            spent += time.perf_counter() - started
            got = judge(players, [t.seated for t in pairing.tables])
            best = min(judge(players, s) for s in seatings([p.id for p in players], SIZES[size]))
            repeats += got[0] == best[0]
            placed += got[:2] == best[:2]
            spread += got == best
            if got[:2] == best[:2] and got != best:
                gaps.append(got[2] - best[2])
        given_away = (
            f" (spread given away {sum(gaps) / len(gaps):.2f} on average, {max(gaps):.1f} at most)"
            if gaps
            else ""
        )
        print(
            f"  {size:2} players: fewest repeats {repeats}/{histories}, tables of three placed "
            f"{placed}/{histories}, least spread {spread}/{histories}{given_away}; "
            f"{spent / histories * 1000:.1f} ms a round"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--swiss", help="field sizes, comma-separated (default 2000,5000)")
    parser.add_argument("--individual", help="field sizes, comma-separated (default 2000)")
    parser.add_argument("--free-for-all", help="field sizes, comma-separated (e.g. 16,100,2000)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--individual-rounds", type=int, default=5)
    parser.add_argument("--free-for-all-rounds", type=int, default=6)
    parser.add_argument("--histories", type=int, default=100, help="a small field, free-for-all")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    alone = args.free_for_all is not None
    swiss_sizes = args.swiss if args.swiss is not None else "" if alone else "2000,5000"
    individual_sizes = args.individual if args.individual is not None else "" if alone else "2000"
    print(f"Python {sys.version.split()[0]}; start-up peak RSS {peak_rss_mb():.0f} MB")
    for size in (int(s) for s in swiss_sizes.split(",") if s):
        run(
            "Swiss, fixed pairs",
            size,
            args.rounds,
            args.seed,
            lambda c, n: swiss(c, SwissOptions(round_number=n)),
        )
    for size in (int(s) for s in individual_sizes.split(",") if s):
        run(
            "Individual, rotating partners",
            size,
            args.individual_rounds,
            args.seed,
            lambda c, n: individual(c, IndividualOptions(round_number=n)),
        )
    for size in (int(s) for s in (args.free_for_all or "").split(",") if s):
        run(
            "Free-for-all, each for himself",
            size,
            args.free_for_all_rounds,
            args.seed,
            lambda c, n: free_for_all(c, FreeForAllOptions(round_number=n)),
        )
    if alone and args.histories:
        against_every_seating(args.histories, args.seed)


if __name__ == "__main__":
    main()
