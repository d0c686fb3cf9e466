"""End-to-end time of the pairing task for a large Swiss field, on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/pairing_task_bench.py [--pairs 2000] [--rounds 2]

Creates a scratch database (``bench_pairing``, dropped at the end) beside the one DATABASE_URL
names, registers the pairs, and runs what the Celery worker runs for each round
(``tournaments.rounds.run_pairing``: load standings and history, pair, write every table and its
scoring match in one transaction), with every match of the previous round confirmed in between.
Prints the time and the number of queries of each phase. Asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scratch import scratch_database  # noqa: E402

SCRATCH = "bench_pairing"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of each task")
    args = parser.parse_args()
    with scratch_database(SCRATCH, keep=False):
        run(args.pairs, args.rounds, args.profile)


def run(pairs: int, rounds: int, profile: bool) -> None:
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.roles import CHIEF_REFEREE, ORGANISER
    from scoring.models import Match
    from tournaments import rounds as round_service
    from tournaments.models import Entry, Player, Round, Tournament

    call_command("migrate", verbosity=0)
    organiser = User.objects.create_user("bench-organiser")
    organiser.groups.add(Group.objects.get(name=ORGANISER))
    chief = User.objects.create_user("bench-chief")
    chief.groups.add(Group.objects.get(name=CHIEF_REFEREE))
    tournament = Tournament.objects.create(name="Bench", rounds=rounds, status="running")
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
    print(f"{pairs} pairs registered (PostgreSQL, scratch database {SCRATCH})")
    rng = random.Random(1)
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(
            tournament=tournament, number=number, status="pairing", requested_by=organiser
        )
        start = time.perf_counter()
        round_service.plan_round(round_)
        planned = time.perf_counter() - start
        profiler = cProfile.Profile() if profile else None
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            if profiler:
                profiler.enable()
            outcome = round_service.run_pairing(round_.pk)
            if profiler:
                profiler.disable()
            task = time.perf_counter() - start
        print(
            f"round {number}: {outcome}; the task end to end {task:.2f} s in "
            f"{len(queries)} queries, of which loading and pairing {planned:.2f} s"
        )
        if profiler:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        # Results for the next round's standings: confirm every match with a random winner.
        Match.objects.filter(pairing__round=round_).update(
            status="confirmed",
            finished=True,
            end="deals",
        )
        for match in Match.objects.filter(pairing__round=round_).only("pk"):
            winner = rng.choice(["NS", "EW"])
            Match.objects.filter(pk=match.pk).update(
                winner=winner,
                totals={"NS": 100 if winner == "NS" else 50, "EW": 100 if winner == "EW" else 50},
            )


if __name__ == "__main__":
    main()
