"""Standings of a big Swiss event on PostgreSQL: computing them, the snapshot, the public page.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/standings_bench.py [--pairs 1000] [--rounds 9] [--repeat 7]

Creates a scratch database (``bench_standings``, dropped at the end) beside the one DATABASE_URL
names. Each round is paired by the real pairing task (``rounds.run_pairing``), published, and
every table gets a whole legal match from the rules simulator (sports domino: 8 counted deals,
redeals included), folded by the engine and stored as confirmed. Rounds 1..N-1 are finished (a
snapshot each); round N stays published, so its standings are computed live.

Prints, for the full standings after round N (every metric: Buchholz, cut-1, median,
Sonneborn-Berger, progressive, head-to-head): the median time and the number of queries of
``results.live_table``; the time of reading a finished round's snapshot; the time of taking one;
and the median time of the public standings page through Django's test client, live and
snapshot, both "cold" (the cache cleared before every request: the table is computed and
rendered each time) and "cached" (what polling spectators get while nothing changes). Targets
(issue 6): ≤ 300 ms and ≤ 10 queries; the page ≤ 150 ms median. Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scratch import scratch_database  # noqa: E402

SCRATCH = "bench_standings"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--page-repeat", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--scratch", default=SCRATCH,
                        help="the scratch database's name (one per person running it at once)")
    args = parser.parse_args()
    with scratch_database(args.scratch, keep=args.keep):
        run(args)


def timed(call: Any, repeat: int) -> tuple[float, int, Any]:
    """Median seconds over ``repeat`` calls, the queries of the last call, its result."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    result = None
    queries = 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            result = call()
            times.append(time.perf_counter() - start)
        queries = len(captured)
    return statistics.median(times), queries, result


def build(pairs: int, rounds: int) -> Any:
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    from accounts.roles import ORGANISER
    from rules import Judge
    from rules.simulate import play_match
    from scoring.models import Deal, Match
    from tournaments import rounds as round_service
    from tournaments.models import Entry, Player, Round, Tournament

    call_command("migrate", verbosity=0)
    organiser = User.objects.create_user("bench-organiser")
    organiser.groups.add(Group.objects.get(name=ORGANISER))
    tournament = Tournament.objects.create(name="Bench", rounds=rounds, status="running",
                                           public=True)  # fmt: skip
    tournament.organisers.add(organiser)
    players = Player.objects.bulk_create(
        Player(last_name=f"Игрок{i}", first_name="Б") for i in range(2 * pairs)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, name=f"Пара {i + 1}", seed=i + 1) for i in range(pairs)
    )
    through = Entry.players.through
    through.objects.bulk_create(
        through(entry_id=e.pk, player_id=players[2 * i + k].pk)
        for i, e in enumerate(entries)
        for k in (0, 1)
    )
    rules = tournament.rules
    judge = Judge(rules)
    rng = random.Random(7)
    deals_total = 0
    start = time.perf_counter()
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="pairing",
                                      requested_by=organiser)  # fmt: skip
        round_service.run_pairing(round_.pk)
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
        matches = list(Match.objects.filter(pairing__round=round_))
        deals = []
        for match in matches:
            records = play_match(rules, rng, style="tiles")
            verdict = judge.fold(records)
            state = verdict.state
            match.totals = dict(state.totals)
            match.finished = state.finished
            match.end = state.end or ""
            match.winner = state.winner or ""
            match.status = Match.Status.CONFIRMED
            match.deals_won = {}
            for v in verdict.deals:
                if v.ok and v.winner:
                    match.deals_won[v.winner] = match.deals_won.get(v.winner, 0) + 1
            deals += [
                Deal(match=match, n=i, record=record, verdict=v.to_dict())
                for i, (record, v) in enumerate(zip(records, verdict.deals, strict=True), 1)
            ]
        fields = ["totals", "finished", "end", "winner", "status", "deals_won"]
        Match.objects.bulk_update(matches, fields, batch_size=500)
        Deal.objects.bulk_create(deals, batch_size=2000)
        deals_total += len(deals)
    print(f"built {pairs} pairs × {rounds} rounds: {Match.objects.count()} matches, "
          f"{deals_total} deals in {time.perf_counter() - start:.1f} s")  # fmt: skip
    return tournament, organiser


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from tournaments import ratings, results
    from tournaments import rounds as round_service
    from tournaments.models import Round, Tournament

    # the ratings task runs in the worker in production; eager here it would be timed with the
    # finishing of each round (bench/ratings_bench.py times it)
    ratings.schedule = lambda tournament_id: None
    tournament, organiser = build(args.pairs, args.rounds)
    last = args.rounds
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    snapshot_times = []
    for round_ in Round.objects.filter(tournament=tournament, number__lt=last).order_by("number"):
        start = time.perf_counter()
        round_service.finish_round(organiser, round_.pk)
        snapshot_times.append(time.perf_counter() - start)
    tournament = Tournament.objects.get(pk=tournament.pk)
    print(f"finishing a round (checks + snapshot of {args.pairs} rows): median "
          f"{statistics.median(snapshot_times) * 1000:.0f} ms (round {last - 1}: "
          f"{snapshot_times[-1] * 1000:.0f} ms)")  # fmt: skip

    def live() -> Any:
        return results.live_table(Tournament.objects.get(pk=tournament.pk))

    seconds, queries, table = timed(live, args.repeat)
    assert table.source == "live" and len(table.lines) == args.pairs
    row = table.lines[0].row
    assert row["sonneborn_berger"] and row["buchholz"]
    print(f"live standings after round {last} (all metrics, {args.pairs} pairs, "
          f"{args.pairs * last // 2} matches): median {seconds * 1000:.0f} ms, {queries} queries "
          f"(target ≤ 300 ms, ≤ 10 queries)")  # fmt: skip

    def snapshot() -> Any:
        return results.table(Tournament.objects.get(pk=tournament.pk), last - 1)

    seconds, queries, table = timed(snapshot, args.repeat)
    assert table.source == "snapshot"
    print(f"snapshot of round {last - 1} read: median {seconds * 1000:.0f} ms, {queries} queries")

    try:
        url = reverse("tournaments:standings", args=[tournament.pk])
    except NoReverseMatch:
        print("public standings page: not built yet")
        return
    from django.core.cache import cache

    client = Client(HTTP_HOST="localhost")
    for label, query in (("live", ""), ("snapshot", f"?round={last - 1}")):
        for mode in ("cold", "cached"):
            times, cpu = [], []
            for _ in range(args.page_repeat):
                if mode == "cold":
                    cache.clear()  # every request computes and renders the table again
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(url + query)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                assert response.status_code == 200, response.status_code
            # the CPU time of this process (the database's work excluded) shows what the page
            # costs when other work on the machine stretches the wall time
            print(f"public standings page ({label}, {mode}, {args.pairs} rows): median "
                  f"{statistics.median(times) * 1000:.0f} ms over {args.page_repeat} requests "
                  f"(target ≤ 150 ms; CPU {statistics.median(cpu) * 1000:.0f} ms; load average "
                  f"{os.getloadavg()[0]:.1f})")  # fmt: skip


if __name__ == "__main__":
    main()
