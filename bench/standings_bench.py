"""Standings of a big Swiss event on PostgreSQL: computing them, the snapshot, the public page.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/standings_bench.py [--pairs 1000] [--rounds 9] [--repeat 7]

Creates a scratch database (``bench_standings``, dropped at the end) beside the one DATABASE_URL
names. Each round is paired by the real pairing task (``rounds.run_pairing``), published, and
every table gets a whole legal match from the rules simulator (sports domino: 8 counted deals,
redeals included), folded by the engine and stored as confirmed. Rounds 1..N-1 are finished (a
snapshot each); round N stays published, so its standings are computed live.

The last ``--confirmations`` tables of round N are left submitted, not confirmed.

Prints, for the full standings after round N (every metric: Buchholz, cut-1, median,
Sonneborn-Berger, progressive, head-to-head): the median time and the number of queries of
``results.live_table``; the time of reading a finished round's snapshot; the time of taking one;
then the live table after each confirmation of a submitted table (``scoring.confirm``), computed
both ways in turn, the order alternating: in full (``ledger.load`` + ``live_table``, the
entries' players — what the page computed before issue 31) and kept (``results.live_state``:
the rows the confirmation touched updated), with the CPU time of this process (the database's
work excluded) and the wall time of each, their medians and ratios, and both checked equal; and
the median time of the public standings page through Django's test client, live and snapshot,
"cold" (the cache cleared and nothing kept before every request: the table is computed in full
and rendered each time), "kept" (live only: the cache cleared, the kept table up to date) and
"cached" (what polling spectators get while nothing changes). Targets (issue 6): ≤ 300 ms and
≤ 10 queries; the page ≤ 150 ms median; (issue 31) the kept table's update ≤ 20 ms of CPU.
Asserts nothing about speed.
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
    parser.add_argument("--confirmations", type=int, default=20,
                        help="tables of the last round left submitted, then confirmed one by one")
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


def build(pairs: int, rounds: int, submitted: int = 0) -> Any:
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
        if number == rounds and submitted:  # handed in, waiting for the desk
            for match in matches[-submitted:]:
                match.status = Match.Status.SUBMITTED
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
    tournament, organiser = build(args.pairs, args.rounds, args.confirmations)
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

    confirmations(tournament, organiser, args.confirmations)

    try:
        url = reverse("tournaments:standings", args=[tournament.pk])
    except NoReverseMatch:
        print("public standings page: not built yet")
        return
    from django.core.cache import cache

    from tournaments.results import live_state

    client = Client(HTTP_HOST="localhost")
    for label, query in (("live", ""), ("snapshot", f"?round={last - 1}")):
        for mode in ("cold", "kept", "cached") if label == "live" else ("cold", "cached"):
            times, cpu = [], []
            for _ in range(args.page_repeat):
                if mode in ("cold", "kept"):
                    cache.clear()  # every request computes and renders the table again
                if mode == "cold":
                    live_state.forget()  # … in full
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


def confirmations(tournament: Any, organiser: Any, count: int) -> None:
    """The live table after each confirmation, in full and kept, in turn (see the docstring)."""
    from scoring import services as scoring
    from scoring.models import Match
    from tournaments.results import live_state, tables
    from tournaments.results.ledger import load

    waiting = list(Match.objects.filter(pairing__round__tournament=tournament,
                                        status=Match.Status.SUBMITTED)
                   .order_by("pk").values_list("pk", flat=True))  # fmt: skip
    if not waiting:
        return

    def full() -> Any:
        ledger = load(tournament, None, players=False, with_cells=False)
        table = tables.live_table(tournament, None, "entries", ledger=ledger)
        return table.lines, ledger.pending_tables, tables.ledger_players(ledger)

    def kept() -> Any:
        live = live_state.live_entries(tournament, None)
        return live.table.lines, live.pending_tables, live.players

    def measured(call: Any) -> tuple[float, float, Any]:
        start, start_cpu = time.perf_counter(), time.process_time()
        result = call()
        return time.process_time() - start_cpu, time.perf_counter() - start, result

    live_state.forget()
    cpu, wall, _ = measured(kept)
    print(f"kept live table built (a process's first, in full, and what it keeps): CPU "
          f"{cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms")  # fmt: skip
    times: dict[str, list[tuple[float, float]]] = {"full": [], "kept": []}
    for n, match_id in enumerate(waiting):
        scoring.confirm(match_id, organiser)
        order = (("kept", kept), ("full", full)) if n % 2 == 0 else (("full", full),
                                                                     ("kept", kept))  # fmt: skip
        answers = {}
        for name, call in order:
            cpu, wall, answers[name] = measured(call)
            times[name].append((cpu, wall))
        assert answers["kept"] == answers["full"], f"the kept table differs after {match_id}"
    cpu_full = statistics.median(c for c, _ in times["full"])
    cpu_kept = statistics.median(c for c, _ in times["kept"])
    wall_full = statistics.median(w for _, w in times["full"])
    wall_kept = statistics.median(w for _, w in times["kept"])
    print(f"live table after one confirmation, {len(waiting)} confirmations, in turn (medians):")
    print(f"  in full (load + live_table + players): CPU {cpu_full * 1000:.1f} ms, "
          f"wall {wall_full * 1000:.1f} ms")  # fmt: skip
    print(f"  kept (live_state update):              CPU {cpu_kept * 1000:.1f} ms, "
          f"wall {wall_kept * 1000:.1f} ms (target ≤ 20 ms CPU)")  # fmt: skip
    print(f"  ratio full / kept: CPU {cpu_full / cpu_kept:.1f}×, "
          f"wall {wall_full / wall_kept:.1f}×; the two tables equal after every confirmation; "
          f"load average "
          f"{os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
