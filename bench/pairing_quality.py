"""How good the pairings are, measured against exact optima and simple baselines.

    python bench/pairing_quality.py [--swiss 16,25,64,201,1000] [--seeds 10] [--rounds 9]
                                    [--individual 12,24,100] [--big 2000] [--skip-swiss] …

Swiss (fixed pairs, three clubs, avoidance among equals): simulated events (random results,
``play_round``); in every round from 2 on, the pairing's value — rematches, bye, worst table,
total score difference — is compared with the exact optimum computed independently of the
pairing code (``tournaments/tests/pairing/exact.py``): first its lower bound (cuts between
score levels, our own blossom for the sides); a round meeting it is optimal; any other round is
solved exactly (our blossom in stages; rustworkx on the complete graph above 300 entries).
Prints rounds above the optimum (target 0), the summed excess of total and worst table, the
time per round, and how much strict club avoidance costs against avoidance among equals.

Individual (rotating partners): repeated opponents, partner repeats and the score spread at a
table (highest minus lowest match points) over simulated events, against
  * the exhaustive optimum at 12 players: every seating tried each round, fewest repeated
    partners, then opponents, then spread (targets: within 10 % in repeated opponents);
  * two greedy passes down the standings, each table from the first free player and the
    earliest three below him: "greedy (same order)" takes the earliest three with the fewest
    repeated partners and then opponents, "greedy (blocks)" the earliest three without a
    repeated partner, ignoring opponents (target: spread mean ≤ the greedy's at 24 and 100);
  * 2,000 players: time per round (target ≤ 5 s).
Prints figures; asserts nothing. Run it on an otherwise idle machine for the times.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.pairing import (  # noqa: E402
    Bye,
    Competitor,
    IndividualOptions,
    RoundPairing,
    SwissOptions,
    Table,
    individual,
    swiss,
)
from tournaments.pairing import seating as seating_module  # noqa: E402
from tournaments.pairing.simulate import field, play_round  # noqa: E402
from tournaments.tests.pairing import exact  # noqa: E402

Pairer = Callable[[list[Competitor], int], RoundPairing]


# --- Swiss -----------------------------------------------------------------------------------


def exact_optimum(problem: exact.Problem) -> exact.Value:
    if problem.n <= 300:
        return exact.blossom_optimum(problem)
    with mock.patch.object(exact, "max_weight_matching", rustworkx_mates):
        return exact.blossom_optimum(problem)


def rustworkx_mates(n: int, edges: list[tuple[int, int, int]]) -> list[int]:
    from tournaments.pairing.matching import max_weight_matching  # noqa: PLC0415

    found = max_weight_matching(n, edges)
    return [found.get(v, -1) for v in range(n)]


def swiss_quality(size: int, seeds: int, rounds: int, mode: str) -> dict[str, float]:
    above = checked = exact_solves = 0
    total_excess = worst_excess = 0.0
    times: list[float] = []
    total_score_difference = 0.0
    for seed in range(seeds):
        rng = random.Random(seed)
        entries = field(size, clubs=3, rng=rng)
        for number in range(1, rounds + 1):
            started = time.perf_counter()
            pairing = swiss(entries, SwissOptions(round_number=number, clubs=mode))
            times.append(time.perf_counter() - started)
            problem = exact.Problem(entries, mode)
            got = problem.value_of(pairing)
            total_score_difference += float(got.total)
            if number > 1:
                checked += 1
                best = None
                if got.rematches == 0 and got.bye == 0 and got.strict_clubs == 0:
                    if (got.worst, got.total) == exact.lower_bound(problem):
                        best = got  # the lower bound proves it
                if best is None:
                    exact_solves += 1
                    best = exact_optimum(problem)
                score = (got.rematches, got.bye, got.strict_clubs, got.worst, got.total)
                if score != (best.rematches, best.bye, best.strict_clubs, best.worst,
                             best.total):  # fmt: skip
                    above += 1
                    total_excess += float(got.total - best.total)
                    worst_excess += float(got.worst - best.worst)
            entries = play_round(entries, pairing, rng)
    return {
        "checked": checked, "above": above, "total_excess": total_excess,
        "worst_excess": worst_excess, "exact_solves": exact_solves,
        "mean_s": sum(times) / len(times), "max_s": max(times),
        "total": total_score_difference,
    }  # fmt: skip


def club_cost(size: int, seeds: int, rounds: int) -> tuple[float, float, int, int]:
    """Total score difference and same-club tables with strict avoidance and among equals."""
    totals = {"strict": 0.0, "among_equals": 0.0}
    same = {"strict": 0, "among_equals": 0}
    for mode in totals:
        for seed in range(seeds):
            rng = random.Random(seed)
            entries = field(size, clubs=3, rng=rng)
            for number in range(1, rounds + 1):
                pairing = swiss(entries, SwissOptions(round_number=number, clubs=mode))
                value = exact.Problem(entries, mode).value_of(pairing)
                totals[mode] += float(value.total)
                same[mode] += value.strict_clubs + value.equal_clubs
                entries = play_round(entries, pairing, rng)
    return totals["strict"], totals["among_equals"], same["strict"], same["among_equals"]


# --- individual ------------------------------------------------------------------------------


def met(a: Competitor, b: Competitor) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def partnered(a: Competitor, b: Competitor) -> bool:
    return b.id in a.partners or a.id in b.partners


SPLITS = (((0, 2), (1, 3)), ((0, 3), (1, 2)), ((0, 1), (2, 3)))


def seated_and_byes(players: list[Competitor]) -> tuple[list[Competitor], tuple[Bye, ...]]:
    """The production's bye rule: the fewest byes first, then the lowest ranked."""
    order = sorted(players, key=lambda p: (p.rank, p.id))
    sitting = set(sorted(range(len(order)), key=lambda i: (order[i].byes, -i))[: len(order) % 4])
    seated = [p for i, p in enumerate(order) if i not in sitting]
    return seated, tuple(Bye(order[i].id) for i in sorted(sitting))


def as_pairing(tables: list[tuple[list[Competitor], list[Competitor]]],
               byes: tuple[Bye, ...]) -> RoundPairing:  # fmt: skip
    return RoundPairing(tables=tuple(
        Table(number=k + 1, ns=tuple(p.id for p in ns), ew=tuple(p.id for p in ew))
        for k, (ns, ew) in enumerate(tables)), byes=byes)  # fmt: skip


def greedy(players: list[Competitor], same_order: bool) -> RoundPairing:
    seated, byes = seated_and_byes(players)
    free = list(range(len(seated)))
    tables = []
    while free:
        first, best = free[0], None
        for trio in itertools.combinations(free[1:], 3):
            four = (first, *trio)
            for one, two in SPLITS:
                ns = [seated[four[k]] for k in one]
                ew = [seated[four[k]] for k in two]
                repeats = partnered(*ns) + partnered(*ew)
                cost = (repeats, sum(met(x, y) for x in ns for y in ew) if same_order else 0)
                if best is None or cost < best[0]:
                    best = (cost, ns, ew)
            if best is not None and best[0] == (0, 0):
                break
        assert best is not None
        tables.append((best[1], best[2]))
        for p in (*best[1], *best[2]):
            free.remove(seated.index(p))
    return as_pairing(tables, byes)


def exhaustive(players: list[Competitor]) -> RoundPairing:
    """Every seating tried: fewest repeated partners, then opponents, then summed spread."""
    seated, byes = seated_and_byes(players)
    Option = tuple[tuple[int, int, float], list[Competitor], list[Competitor]]
    best_of: dict[tuple[int, ...], Option] = {}
    for four in itertools.combinations(range(len(seated)), 4):
        options = []
        for one, two in SPLITS:
            ns, ew = [seated[four[k]] for k in one], [seated[four[k]] for k in two]
            scores = [p.score for p in ns + ew]
            options.append(((partnered(*ns) + partnered(*ew),
                             sum(met(x, y) for x in ns for y in ew),
                             max(scores) - min(scores)), ns, ew))  # fmt: skip
        best_of[four] = min(options, key=lambda o: o[0])

    def partitions(items: list[int]) -> itertools.chain[list[tuple[int, ...]]]:
        if not items:
            return itertools.chain([[]])
        first = items[0]
        return itertools.chain.from_iterable(
            ([(first, *trio), *rest]
             for rest in partitions([x for x in items[1:] if x not in trio]))
            for trio in itertools.combinations(items[1:], 3))  # fmt: skip

    chosen = min(partitions(list(range(len(seated)))),
                 key=lambda part: tuple(map(sum, zip(*(best_of[f][0] for f in part), strict=True))))
    return as_pairing([(best_of[f][1], best_of[f][2]) for f in chosen], byes)


def individual_quality(size: int, seeds: int, rounds: int, pair: Pairer) -> dict[str, float]:
    opponents = partners = 0
    spreads: list[float] = []
    times: list[float] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        players = field(size)
        for number in range(1, rounds + 1):
            started = time.perf_counter()
            pairing = pair(players, number)
            times.append(time.perf_counter() - started)
            by_id = {p.id: p for p in players}
            for table in pairing.tables:
                ns, ew = [by_id[i] for i in table.ns], [by_id[i] for i in table.ew]
                opponents += sum(met(x, y) for x in ns for y in ew)
                partners += partnered(*ns) + partnered(*ew)
                scores = [p.score for p in ns + ew]
                spreads.append(max(scores) - min(scores))
            players = play_round(players, pairing, rng)
    return {"opponents": opponents / seeds, "partners": partners / seeds,
            "mean": sum(spreads) / len(spreads), "max": max(spreads),
            "max_s": max(times), "mean_s": sum(times) / len(times)}  # fmt: skip


def ours(players: list[Competitor], number: int) -> RoundPairing:
    return individual(players, IndividualOptions(round_number=number))


def ours_local_search(players: list[Competitor], number: int) -> RoundPairing:
    with mock.patch.object(seating_module, "EXACT_LIMIT", 0):
        return ours(players, number)


# --- the report ------------------------------------------------------------------------------


def row(name: str, q: dict[str, float]) -> str:
    return (f"  {name:<28} repeated opponents {q['opponents']:6.1f}  repeated partners "
            f"{q['partners']:4.1f}  spread mean {q['mean']:.2f} max {q['max']:g}  "
            f"{q['max_s']:.2f} s max a round")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--swiss", default="16,25,64,201,1000")
    parser.add_argument("--individual", default="12,24,100")
    parser.add_argument("--big", default="2000", help="individual field timed alone")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--skip-swiss", action="store_true")
    parser.add_argument("--skip-individual", action="store_true")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; {args.rounds} rounds × {args.seeds} seeds")
    if not args.skip_swiss:
        print("\nSwiss, three clubs, avoidance among equals: against the exact optimum "
              "(rounds 2 on)")  # fmt: skip
        print(f"  {'pairs':>5} {'rounds':>6} {'above':>5} {'total+':>7} {'worst+':>7} "
              f"{'solved':>6} {'mean s':>7} {'max s':>7}")  # fmt: skip
        for size in (int(s) for s in args.swiss.split(",") if s):
            q = swiss_quality(size, args.seeds, args.rounds, "among_equals")
            print(f"  {size:>5} {q['checked']:>6} {q['above']:>5} {q['total_excess']:>7g} "
                  f"{q['worst_excess']:>7g} {q['exact_solves']:>6} {q['mean_s']:>7.3f} "
                  f"{q['max_s']:>7.3f}")  # fmt: skip
        print("  (above: rounds above the optimum; total+/worst+: their summed excess; solved: "
              "rounds the bound did not settle, solved exactly)")  # fmt: skip
        print("\nSwiss, three clubs: what strict avoidance costs")
        for size in (16, 25):
            strict, equal, same_strict, same_equal = club_cost(size, args.seeds, args.rounds)
            print(f"  {size} pairs: total score difference strict {strict:g}, among equals "
                  f"{equal:g} (+{100 * (strict - equal) / equal:.0f} % strict); same-club "
                  f"tables {same_strict} strict, {same_equal} among equals")  # fmt: skip
    if not args.skip_individual:
        print("\nIndividual, rotating partners")
        for size in (int(s) for s in args.individual.split(",") if s):
            print(f" {size} players")
            found = individual_quality(size, args.seeds, args.rounds, ours)
            print(row("this project", found))
            if size <= 12:
                search = individual_quality(size, args.seeds, args.rounds, ours_local_search)
                print(row("  its local search alone", search))
                best = individual_quality(size, args.seeds, args.rounds,
                                          lambda p, _n: exhaustive(p))  # fmt: skip
                print(row("exhaustive each round", best))
                excess = 100 * found["opponents"] / best["opponents"] - 100
                print(f"  repeated opponents {excess:+.1f} % against exhaustive (target ≤ +10 %)")
            for name, same in (("greedy (same order)", True), ("greedy (blocks)", False)):
                if size > 200:
                    continue
                base = individual_quality(size, args.seeds, args.rounds,
                                          lambda p, _n, s=same: greedy(p, s))  # fmt: skip
                print(row(name, base))
        for size in (int(s) for s in args.big.split(",") if s):
            big = individual_quality(size, 1, args.rounds, ours)
            print(f" {size} players, one event: {big['mean_s']:.2f} s mean, {big['max_s']:.2f} s "
                  f"max a round (target ≤ 5 s); repeated opponents {big['opponents']:g}, spread "
                  f"mean {big['mean']:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
