"""What one deal written through the API costs the server: CPU milliseconds and database queries
per deal, of an old tree of the code (``main`` by default) and of this one, measured in
alternating batches in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/deal_write.py [--old main] [--tables 30] [--batch 40]
            [--profile new|old [--profile-out FILE]] [--keep]

Both trees are served at once by gunicorn (one sync worker each, ``DEBUG=0``,
``CONN_MAX_AGE=60``, Redis as cache and channel layer: as in production) on one scratch
PostgreSQL database (``<name>_deal_write`` beside the one DATABASE_URL names, migrated by this
tree, dropped at the end). ``--old REF`` is checked out into a temporary ``git worktree``
(removed at the end); ``--old-tree PATH`` uses a directory as it is.

A tournament of ``2 × (tables + 1)`` tables is set up through the API (``bench/load_hall.py``'s
setup, served by a gunicorn of its own; the pairing runs in-process); each tree gets half of
the tables, the same simulated matches (``rules.simulate.play_match``, table by table), and
one table more whose whole match is written first to warm its worker up (not counted). Then
one client sends the deals one at a time, as a referee's phone does (``POST
/api/v1/matches/{id}/deals/`` with a fresh ``Idempotency-Key`` and the ``expected_version`` it
holds), ``--batch`` deals to the old tree, then as many to the new one, and so on, until every
match is written: both trees meet the same deals at the same point of their matches, and a
change in the machine's load falls on both.

Per deal it prints the CPU time of the tree's gunicorn worker (all its threads, from
``/proc/<pid>/task/*/schedstat``, nanoseconds), the queries it sent (counted in the worker by
``bench/deal_write_app.py``, the answer's ``X-Bench-Queries``), the wall time the client waited,
and new/old ratios. Every answer must be 201 and every match must hold exactly the deals sent,
else it fails (exit status 1). ``--profile new`` (or ``old``) runs that tree's worker under
cProfile and prints its 40 costliest functions (its CPU figures are then the profiler's, not
comparable).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pstats
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_hall import Services, free_port, setup, wait_http  # noqa: E402


def scratch_name() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL=postgres://… (a scratch database is created beside it)")
    return (urlsplit(url).path.lstrip("/") or "postgres") + "_deal_write"


def admin(sql: str) -> None:
    import psycopg

    parts = urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(sql)


def environment(scratch: str, profile: str = "") -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_NAME_OVERRIDE=scratch, DEBUG="0",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0", LOG_LEVEL="ERROR",
    )  # fmt: skip
    env.setdefault("CONN_MAX_AGE", "60")
    env.pop("CELERY_BROKER_URL", None)  # the setup's pairing runs in-process
    env.pop("BENCH_PROFILE", None)
    if profile:
        env["BENCH_PROFILE"] = profile
    return env


def migrations(tree: Path) -> set[str]:
    return {str(p.relative_to(tree)) for p in tree.glob("*/migrations/0*.py")}


# --- one tree served --------------------------------------------------------------------------


@dataclass
class Tree:
    name: str
    path: Path
    url: str = ""
    master: int = 0
    #: (match id, token, records) per table; the first is the warm-up table
    tables: list[tuple[int, str, list[dict[str, Any]]]] = field(default_factory=list)
    versions: dict[int, int] = field(default_factory=dict)
    cpu_ns: list[int] = field(default_factory=list)  # per batch
    deals: list[int] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)  # per deal
    wall: list[float] = field(default_factory=list)  # per deal
    failures: list[str] = field(default_factory=list)
    profile: str = ""

    def start(self, services: Services, scratch: str, profile: str) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.profile = profile
        services.start(self.name, [
            sys.executable, "-m", "gunicorn", "deal_write_app:application",
            "--chdir", str(self.path), "--pythonpath", str(ROOT / "bench"),
            "--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "60",
        ], environment(scratch, profile))  # fmt: skip
        self.master = services.processes[-1].pid

    def worker(self) -> int:
        children = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()
                    and _ppid(p) == self.master]  # fmt: skip
        if len(children) != 1:
            sys.exit(f"{self.name}: {len(children)} gunicorn workers, 1 expected")
        return children[0]

    def cpu(self) -> int:
        """CPU nanoseconds used so far by the worker, every thread of it."""
        total = 0
        for task in Path(f"/proc/{self.worker()}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, IndexError, ValueError):
                continue
        return total


def _ppid(proc: Path) -> int:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def post_deal(tree: Tree, match_id: int, token: str, record: dict[str, Any]) -> None:
    body = json.dumps({**record, "expected_version": tree.versions[match_id]})
    parts = urlsplit(tree.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    started = time.perf_counter()
    conn.request("POST", f"/api/v1/matches/{match_id}/deals/", body=body, headers={
        "Authorization": f"Token {token}", "Idempotency-Key": str(uuid.uuid4()),
        "Content-Type": "application/json",
    })  # fmt: skip
    answer = conn.getresponse()
    text = answer.read()
    tree.wall.append(time.perf_counter() - started)
    conn.close()
    if answer.status != 201:
        tree.failures.append(f"match {match_id}: {answer.status} {text[:300]!r}")
        return
    tree.queries.append(int(answer.getheader("X-Bench-Queries", "-1")))
    tree.versions[match_id] = json.loads(text)["match_version"]


def read_versions(tree: Tree) -> None:
    for match_id, token, _records in tree.tables:
        parts = urlsplit(tree.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        conn.request("GET", f"/api/v1/matches/{match_id}/",
                     headers={"Authorization": f"Token {token}"})  # fmt: skip
        answer = conn.getresponse()
        body = answer.read()
        if answer.status != 200:
            sys.exit(f"{tree.name}: GET match {match_id}: {answer.status} {body[:300]!r}")
        tree.versions[match_id] = json.loads(body)["version"]
        conn.close()


def queue(tree: Tree) -> list[tuple[int, str, dict[str, Any]]]:
    """The measured deals in the order sent: every table's first deal, then every second …"""
    tables = tree.tables[1:]
    longest = max(len(records) for _m, _t, records in tables)
    return [(match_id, token, records[n]) for n in range(longest)
            for match_id, token, records in tables if n < len(records)]  # fmt: skip


def run_batch(tree: Tree, deals: list[tuple[int, str, dict[str, Any]]]) -> None:
    before = tree.cpu()
    for match_id, token, record in deals:
        post_deal(tree, match_id, token, record)
    tree.cpu_ns.append(tree.cpu() - before)
    tree.deals.append(len(deals))


def verify(tree: Tree) -> None:
    from scoring.models import Deal

    for match_id, _token, records in tree.tables:
        stored = list(Deal.objects.filter(match_id=match_id).order_by("n")
                      .values_list("record", flat=True))  # fmt: skip
        if len(stored) != len(records):
            tree.failures.append(f"match {match_id}: {len(stored)} deals stored, "
                                 f"{len(records)} sent")  # fmt: skip


# --- report -----------------------------------------------------------------------------------


def figures(tree: Tree) -> dict[str, float]:
    per_batch = [ns / n / 1e6 for ns, n in zip(tree.cpu_ns, tree.deals, strict=True) if n]
    return {
        "cpu": sum(tree.cpu_ns) / max(1, sum(tree.deals)) / 1e6,
        "cpu_median": statistics.median(per_batch) if per_batch else 0.0,
        "queries": statistics.mean(tree.queries) if tree.queries else 0.0,
        "queries_max": max(tree.queries, default=0),
        "wall": statistics.median(tree.wall) * 1000 if tree.wall else 0.0,
    }


def report(old: Tree, new: Tree, label_old: str, label_new: str) -> None:
    a, b = figures(old), figures(new)
    print(f"\n{sum(new.deals)} deals a tree in {len(new.deals)} alternating batches\n")
    print(f"{'':<28}{'CPU ms/deal':>12}{'(median of':>12}{'queries/deal':>14}{'(max)':>7}"
          f"{'wall ms/deal':>14}")  # fmt: skip
    print(f"{'':<28}{'':>12}{'batches)':>12}{'':>14}{'':>7}{'(median)':>14}")
    for label, f in ((label_old, a), (label_new, b)):
        print(f"{label[:27]:<28}{f['cpu']:>12.2f}{f['cpu_median']:>12.2f}{f['queries']:>14.2f}"
              f"{f['queries_max']:>7}{f['wall']:>14.2f}")  # fmt: skip

    def ratio(key: str) -> str:
        return f"{b[key] / a[key]:.2f}" if a[key] else "-"

    print(f"{'new / old':<28}{ratio('cpu'):>12}{ratio('cpu_median'):>12}{ratio('queries'):>14}"
          f"{'':>7}{ratio('wall'):>14}")  # fmt: skip
    per_batch = [f"{o / m / 1e6:.2f}/{n / k / 1e6:.2f}" for o, m, n, k
                 in zip(old.cpu_ns, old.deals, new.cpu_ns, new.deals, strict=True)]  # fmt: skip
    print("CPU ms/deal by batch (old/new):", " ".join(per_batch))


def print_profile(tree: Tree, save: str | None) -> None:
    files = list(Path(tree.profile).parent.glob(Path(tree.profile).name + ".*"))
    if not files:
        print(f"no profile written by {tree.name}'s worker")
        return
    stats = pstats.Stats(*map(str, files))
    if save:
        stats.dump_stats(save)
    print(f"\n--- cProfile of {tree.name}'s worker: the deals written (warm-up included) ---")
    stats.sort_stats("cumulative").print_stats(40)
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", default="main", help="the git ref to compare with")
    parser.add_argument("--old-tree", help="a directory holding the old code (instead of --old)")
    parser.add_argument("--tables", type=int, default=30, help="measured tables a tree")
    parser.add_argument("--batch", type=int, default=40, help="deals a tree per batch")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", choices=["old", "new"], help="cProfile that tree's worker")
    parser.add_argument("--profile-out", help="save the profile (pstats) to this file")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    scratch = scratch_name()
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/1")
    made_tree = None
    if args.old_tree:
        old_path = Path(args.old_tree).resolve()
    else:
        made_tree = Path(tempfile.mkdtemp(prefix="deal-write-old-")) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(made_tree), args.old],
                       cwd=ROOT, check=True)  # fmt: skip
        old_path = made_tree
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=old_path,
                            capture_output=True, text=True).stdout.strip()  # fmt: skip
    label_old = f"old ({args.old_tree or args.old} {commit})"
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    label_new = f"new ({ROOT.name} {head})"
    if migrations(old_path) != migrations(ROOT):
        print("warning: the trees' migrations differ; the scratch database has this tree's")
    profile_dir = Path(tempfile.mkdtemp(prefix="deal-write-profile-"))
    services = Services()
    status = 1
    admin(f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)")
    admin(f"CREATE DATABASE {scratch}")
    os.environ["DATABASE_NAME_OVERRIDE"] = scratch
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    old, new = Tree("old", old_path), Tree("new", ROOT)
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from rules import make_rules
        from rules.simulate import play_match

        call_command("migrate", verbosity=0)
        for tree in (old, new):
            subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                           cwd=tree.path, env=environment(scratch), check=True)  # fmt: skip
        # the setup is served by a server of its own, stopped before the measured ones start:
        # neither of them has seen the tables before (a process remembers what it looked up)
        organiser = Services()
        try:
            helper = Tree("setup", ROOT)
            helper.start(organiser, scratch, "")
            wait_http(helper.url, organiser)
            hall = setup(helper.url, 2 * (args.tables + 1), organiser)
        finally:
            organiser.stop()
        for tree in (old, new):
            profile = str(profile_dir / "worker.prof") if args.profile == tree.name else ""
            tree.start(services, scratch, profile)
        for tree in (old, new):
            wait_http(tree.url, services)
        rules = make_rules(hall.rules_preset)
        ordered = sorted(hall.tables.items(), key=lambda item: item[1][1])  # by table number
        for i in range(args.tables + 1):
            records = play_match(rules, random.Random(args.seed * 100_003 + i))
            for tree, (match_id, (token, _table)) in zip((old, new), ordered[2 * i:2 * i + 2],
                                                          strict=True):  # fmt: skip
                tree.tables.append((match_id, token, records))
        for tree in (old, new):
            read_versions(tree)
            match_id, token, records = tree.tables[0]
            for record in records:  # the warm-up table
                post_deal(tree, match_id, token, record)
            tree.queries.clear()
            tree.wall.clear()
        queues = {tree.name: queue(tree) for tree in (old, new)}
        for start in range(0, len(queues["new"]), args.batch):
            for tree in (old, new):
                run_batch(tree, queues[tree.name][start:start + args.batch])
        for tree in (old, new):
            verify(tree)
        report(old, new, label_old, label_new)
        failures = old.failures + new.failures
        for failure in failures[:20]:
            print("  FAIL:", failure)
        status = 1 if failures else 0
        services.stop()  # the workers exit: their profiles are written
        if args.profile:
            print_profile(old if args.profile == "old" else new, args.profile_out)
        print("FAIL" if failures else "PASS")
    finally:
        services.stop()
        from django.db import connections

        connections.close_all()
        if not args.keep:
            admin(f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)")
        if made_tree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(made_tree)], cwd=ROOT,
                           check=False)  # fmt: skip
        for stale in profile_dir.glob("*"):
            stale.unlink()
        profile_dir.rmdir()
    sys.exit(status)


if __name__ == "__main__":
    main()
