"""How long another organiser's pairing waits when one organiser switches a tournament public and
private 100 times in a row (issue 25: 0.7 s before the burst, 208 s behind it).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python bench/ratings_burst.py [--matches 6000] [--switches 100]
            [--workers split|single]

Creates a scratch database (``bench_ratings_burst``, dropped at the end) with a rated history of
``--matches`` matches (``ratings_bench.build``) and recomputes it once. Starts real Celery workers
as ``deploy/Procfile`` does — ``split``: the default queue (concurrency 2) and the ratings' queue
(concurrency 1); ``single``: one worker on the default queue, as before the ratings had a queue of
their own. To measure older code, copy this file into a worktree of that commit and run it there
with ``--workers single``. Then times another organiser's pairing request (40 pairs) until its
round is paired: once alone, once right after the burst of switches sent through the organiser's
service. Also prints how many recomputes the burst ran, when the code records it. Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = "bench_ratings_burst"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=6000)
    parser.add_argument("--switches", type=int, default=100)
    parser.add_argument("--workers", choices=["split", "single"], default="split")
    args = parser.parse_args()
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
        sys.exit("set CELERY_BROKER_URL=redis://… (the workers' broker)")
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from ratings_bench import build
    from scratch import scratch_database

    queue = f"bench-{uuid.uuid4().hex[:8]}"
    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = queue
    os.environ["RATINGS_QUEUE"] = f"{queue}-ratings"
    with scratch_database(SCRATCH, keep=False):
        import django

        django.setup()
        build(args.matches, 600)
        from tournaments import ratings

        started = time.perf_counter()
        ratings.recompute()
        took = time.perf_counter() - started
        print(f"code {ROOT}: one recompute of the whole history {took:.1f} s")
        workers = start_workers(queue, args.workers)
        try:
            measure(args.switches)
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=60)


def start_workers(queue: str, mode: str) -> list[subprocess.Popen[bytes]]:
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING",
               "--without-gossip", "--without-mingle"]  # fmt: skip
    plans = [([queue], 2)] if mode == "single" else [([queue], 2), ([f"{queue}-ratings"], 1)]
    workers = []
    for index, (queues, concurrency) in enumerate(plans):
        workers.append(subprocess.Popen(
            [*command, "-Q", ",".join(queues), f"--concurrency={concurrency}",
             "-n", f"{queue}-{index}@%h"], cwd=ROOT, env=dict(os.environ),
        ))  # fmt: skip
    time.sleep(8)  # the workers connect and are ready
    return workers


def pairing_time(organiser: object, tournament_id: int) -> float:
    from tournaments import rounds
    from tournaments.models import Round

    started = time.perf_counter()
    round_ = rounds.start_pairing(organiser, tournament_id)  # type: ignore[arg-type]
    while Round.objects.get(pk=round_.pk).status == Round.Status.PAIRING:
        if time.perf_counter() - started > 900:
            return float("inf")
        time.sleep(0.05)
    return time.perf_counter() - started


def measure(switches: int) -> None:
    from django.contrib.auth.models import Group, User

    from accounts.roles import ORGANISER
    from tournaments import registration
    from tournaments.models import Entry, Player, Tournament

    def organiser(name: str) -> User:
        user = User.objects.create_user(name)
        user.groups.add(Group.objects.get(name=ORGANISER))
        return user

    mine, theirs = organiser("switcher"), organiser("pairer")
    switched = Tournament.objects.order_by("pk").first()
    assert switched is not None
    switched.organisers.add(mine)

    def event(name: str) -> Tournament:
        t = Tournament.objects.create(name=name, rounds=5, status="running", public=True)
        t.organisers.add(theirs)
        players = Player.objects.bulk_create(Player(last_name=f"{name}{i}") for i in range(80))
        entries = Entry.objects.bulk_create(Entry(tournament=t, name=f"Пара {i}", seed=i + 1)
                                            for i in range(40))  # fmt: skip
        Entry.players.through.objects.bulk_create(
            Entry.players.through(entry_id=e.pk, player_id=players[2 * i + k].pk)
            for i, e in enumerate(entries) for k in (0, 1))  # fmt: skip
        return t

    alone = pairing_time(theirs, event("Первый").pk)
    print(f"pairing alone: {alone:.2f} s")
    job = _runs()
    started = time.perf_counter()
    for n in range(switches):
        registration.update_tournament(mine, switched.pk, public=n % 2 == 1)
    print(f"{switches} switches sent in {time.perf_counter() - started:.1f} s")
    behind = pairing_time(theirs, event("Второй").pk)
    print(f"pairing right after the burst: {behind:.2f} s ({behind / alone:.1f}x alone)")
    if job is not None:
        time.sleep(15)
        print(f"recomputes the burst ran so far: {(_runs() or 0) - job}")


def _runs() -> int | None:
    try:
        from tournaments.ratings import jobs
    except ImportError:  # the code before the job was recorded
        return None
    return jobs.status().runs


if __name__ == "__main__":
    main()
