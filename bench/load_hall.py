"""A tournament hall under load: 100 referees record their matches while 50 spectators watch.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/load_hall.py [--tables 100] [--rate 160] [--spectators 50]

Everything runs on loopback, as in production: a scratch PostgreSQL database (``bench_load``,
created beside the one DATABASE_URL names and dropped at the end), the app under gunicorn with
4 sync workers (as deploy/domino-web.service runs it; ``DEBUG=0``), and a real Celery worker
on a queue of its own.

1. Setup, through the API: an organiser creates a tournament of ``2 × tables`` pairs (CSV
   import), pairs round 1 (the real pairing task, through the broker), assigns a referee user
   (with an API token) to every table and publishes the round.
2. Load: every referee records a whole match of legal deals from ``rules.simulate.play_match``,
   one ``POST /api/v1/matches/{id}/deals/`` per deal with an ``Idempotency-Key`` and the
   ``expected_version`` it holds, then submits it. About 5 % of the deals are sent again with
   the same key (half after the answer came, as a phone whose answer was lost; half after
   giving up on the first attempt a few milliseconds in, as a phone that timed out), and about
   3 % are sent twice at the same moment. Referees are paced so that together they offer
   ``--rate`` deals per second (``--rate 0``: as fast as the server answers). Meanwhile
   ``--spectators`` clients poll the standings, API and public page in turn, every
   ``--poll`` seconds each (20 s by default: what the live standings page itself does, so
   50 phones with the page open; ``--poll 2`` is a ten times heavier crowd).
3. Report: deal submissions per second, p50/p95/p99 latency of the deal submissions and of
   the standings polls, answers by status.
4. Check in the database: every match holds exactly the simulated deals, each once, in order,
   with the keys that were sent and no other; its stored totals, end and winner equal
   ``rules.Judge(rules).fold(records)``; it is submitted. Prints PASS or FAIL (exit status 1).

Targets (issue 7): ≥ 150 deal submissions per second, p99 ≤ 300 ms, no deal lost or doubled.
``--url`` runs against an app already serving the database DATABASE_URL names (nothing is
started or dropped then; the worker must already be running).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = "bench_load"
PASSWORD = "bench-load-password"


# --- processes ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def app_environment(queue: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_NAME_OVERRIDE=SCRATCH,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        DEBUG="0",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL=env.get("LOG_LEVEL", "ERROR"),
    )
    env.setdefault("CONN_MAX_AGE", "60")
    return env


@dataclass
class Services:
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)

    def start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        log = tempfile.NamedTemporaryFile(prefix=f"load-{name}-", suffix=".log", delete=False)
        self.logs.append(Path(log.name))
        self.processes.append(
            subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        )

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.processes)

    def tail(self) -> str:
        return "\n".join(f"--- {p}\n{p.read_text(errors='replace')[-3000:]}" for p in self.logs)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        for log in self.logs:
            log.unlink(missing_ok=True)


def wait_http(url: str, services: Services, timeout: float = 60) -> None:
    import urllib.request

    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if not services.alive():
            sys.exit(f"a service exited early:\n{services.tail()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                return
        except OSError:
            pass
        time.sleep(0.3)
    sys.exit(f"the app did not answer in {timeout} s:\n{services.tail()}")


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by the app's web workers, PostgreSQL, this client, the machine."""
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = defaultdict(float)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if "gunicorn" in command and "config.wsgi" in command:
            used["gunicorn"] += seconds
        elif stat.split(" (", 1)[1].startswith("postgres"):
            used["postgres"] += seconds
    me = os.times()
    used["client"] = me.user + me.system
    total = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    used["machine"] = (sum(map(int, total)) - int(total[3]) - int(total[4])) / tick
    return used


# --- setup through the API ----------------------------------------------------------------------


@dataclass
class Hall:
    tournament: int
    round: int
    #: match id -> (referee token, table number)
    tables: dict[int, tuple[str, int]]
    rules_preset: str = "sport"


@dataclass
class Answer:
    """What the checks need of an HTTP answer, read while its connection was open."""

    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


async def request(session: Any, method: str, path: str, **kwargs: Any) -> Answer:
    async with session.request(method, path, **kwargs) as answer:
        return Answer(answer.status, await answer.text())


def session(url: str, connections: int = 10, **kwargs: Any) -> Any:
    import aiohttp

    return aiohttp.ClientSession(
        base_url=url, connector=aiohttp.TCPConnector(limit=connections),
        timeout=aiohttp.ClientTimeout(total=60), **kwargs,
    )  # fmt: skip


def setup(url: str, tables: int, services: Services | None) -> Hall:
    from django.contrib.auth.models import Group, User

    from accounts.roles import ORGANISER, REFEREE
    from accounts.tokens import issue

    tag = uuid.uuid4().hex[:6]
    organiser = User.objects.create_user(f"load-organiser-{tag}", password=PASSWORD)
    organiser.groups.add(Group.objects.get(name=ORGANISER))
    _, token = issue(organiser)
    referee_group = Group.objects.get(name=REFEREE)
    referees = User.objects.bulk_create(
        User(username=f"load-referee-{tag}-{i + 1}") for i in range(tables)
    )
    referee_group.user_set.add(*referees)
    by_user = {r.pk: issue(r)[1] for r in referees}
    return asyncio.run(organise(url, token, [r.pk for r in referees], by_user, services))


async def organise(url: str, token: str, referees: list[int], by_user: dict[int, str],
                   services: Services | None) -> Hall:  # fmt: skip
    started = time.perf_counter()
    tables = len(referees)
    api = session(url, headers={"Authorization": f"Token {token}"})

    async def call(method: str, path: str, expect: int, **kwargs: Any) -> Any:
        answer = await request(api, method, f"/api/v1{path}", **kwargs)
        if answer.status_code != expect:
            sys.exit(f"{method} {path}: {answer.status_code} {answer.text[:2000]}")
        return answer.json()

    async with api:
        return await organise_hall(call, tables, referees, by_user, services, started)


async def organise_hall(call: Any, tables: int, referees: list[int], by_user: dict[int, str],
                        services: Services | None, started: float) -> Hall:  # fmt: skip
    """The organiser's part, through the API: tournament, entries, round 1, referees."""
    tag = uuid.uuid4().hex[:6]  # a fresh name on every run (--url may reuse a database)
    created = await call("POST", "/tournaments/", 201, json={
        "name": f"Нагрузка {tag}", "rounds": 3, "public": True,
    })  # fmt: skip
    tournament = created["id"]
    lines = ["entry,last_name,first_name,seed"]
    for i in range(2 * tables):
        lines += [
            f"Пара {i + 1},Игрок{2 * i},А,{i + 1}",
            f"Пара {i + 1},Игрок{2 * i + 1},Б,{i + 1}",
        ]
    await call(
        "POST", f"/tournaments/{tournament}/entries/import/", 201, json={"csv": "\n".join(lines)}
    )
    round_id = (await call("POST", f"/tournaments/{tournament}/rounds/", 202))["id"]
    deadline = time.monotonic() + 120
    while True:
        round_ = await call("GET", f"/rounds/{round_id}/", 200)
        if round_["status"] == "paired":
            break
        if round_["status"] == "new" or time.monotonic() > deadline:
            tail = services.tail() if services else ""
            sys.exit(f"pairing failed: {round_['status']} {round_['error']}\n{tail}")
        await asyncio.sleep(0.2)
    numbers = sorted(t["table"] for t in round_["tables"])
    assert len(numbers) == tables, f"{len(numbers)} tables paired, {tables} expected"
    for number, referee in zip(numbers, referees, strict=True):
        await call("POST", f"/rounds/{round_id}/referee/", 200,
                   json={"table": number, "referee": referee})  # fmt: skip
    round_ = await call("POST", f"/rounds/{round_id}/publish/", 200)
    hall = Hall(tournament, round_id, {
        t["match"]: (by_user[t["referee"]], t["table"]) for t in round_["tables"]
    }, created["rules_preset"])  # fmt: skip
    print(
        f"setup: tournament {tournament}, {2 * tables} pairs, round 1 paired by the worker, "
        f"{tables} referees assigned, published in {time.perf_counter() - started:.1f} s"
    )
    return hall


# --- the load -----------------------------------------------------------------------------------


@dataclass
class Stats:
    deal_latency: list[float] = field(default_factory=list)
    poll_latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    deals_sent: dict[int, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    resent: int = 0
    abandoned: int = 0
    doubled: int = 0
    retried_errors: int = 0
    deal_window: list[float] = field(default_factory=list)
    #: per referee: when its first deal was sent and its last answered
    spans: list[tuple[float, float]] = field(default_factory=list)


RETRYABLE = {502, 503, 504}


async def referee(client: Any, match_id: int, token: str, args: argparse.Namespace,
                  stats: Stats, rng: random.Random, interval: float,
                  records: list[dict[str, Any]]) -> None:  # fmt: skip
    headers = {"Authorization": f"Token {token}"}
    # phones open their sheets at different moments, not all in the same millisecond
    await asyncio.sleep(rng.uniform(0, interval))
    protocol = (await request(client, "GET", f"/api/v1/matches/{match_id}/",
                              headers=headers)).json()  # fmt: skip
    version = protocol["version"]
    sent: list[tuple[str, dict[str, Any]]] = []
    stats.deals_sent[match_id] = sent
    url = f"/api/v1/matches/{match_id}/deals/"
    first_sent = time.perf_counter()

    async def post(key: str, body: dict[str, Any]) -> Any:
        start = time.perf_counter()
        answer = await request(client, "POST", url, json=body,
                               headers={**headers, "Idempotency-Key": key})  # fmt: skip
        stats.deal_latency.append(time.perf_counter() - start)
        stats.deal_window.append(time.perf_counter())
        stats.statuses[f"deal {answer.status_code}"] += 1
        return answer

    async def deliver(key: str, body: dict[str, Any]) -> Any:
        """Send until the server answers something other than a retryable error."""
        for attempt in range(8):
            try:
                answer = await post(key, body)
            except Exception as exc:  # a dropped connection: the phone tries again
                stats.statuses[f"deal {type(exc).__name__}"] += 1
                answer = None
            if answer is not None and answer.status_code not in RETRYABLE:
                return answer
            stats.retried_errors += 1
            await asyncio.sleep(min(2.0, 0.1 * 2**attempt))
        return answer

    for n, record in enumerate(records, start=1):
        key = str(uuid.uuid4())
        body = {**record, "expected_version": version}
        sent.append((key, record))
        roll = rng.random()
        if roll < args.doubles:
            stats.doubled += 1
            answers = await asyncio.gather(deliver(key, body), deliver(key, body))
        elif roll < args.doubles + args.resend / 2:
            stats.abandoned += 1
            try:  # the phone gives up waiting after a few milliseconds …
                await asyncio.wait_for(post(key, body), timeout=rng.uniform(0.001, 0.03))
            except TimeoutError:
                stats.statuses["deal abandoned"] += 1
            answers = [await deliver(key, body)]  # … and sends the same deal again
        elif roll < args.doubles + args.resend:
            stats.resent += 1
            first = await deliver(key, body)
            answers = [first, await deliver(key, body)]  # the answer was lost: sent again
        else:
            answers = [await deliver(key, body)]
        numbers = set()
        for answer in answers:
            if answer is None or answer.status_code != 201:
                text = (
                    "no answer" if answer is None else f"{answer.status_code} {answer.text[:300]}"
                )
                stats.problems.append(f"match {match_id} deal {n}: {text}")
                return
            numbers.add(answer.json()["n"])
            version = max(version, answer.json()["match_version"])
        if numbers != {n}:
            stats.problems.append(f"match {match_id} deal {n}: stored as {sorted(numbers)}")
            return
        await asyncio.sleep(interval * rng.uniform(0.5, 1.5) if interval else 0)
    stats.spans.append((first_sent, time.perf_counter()))
    answer = await request(client, "POST", f"/api/v1/matches/{match_id}/submit/",
                           headers=headers, json={"expected_version": version})  # fmt: skip
    stats.statuses[f"submit {answer.status_code}"] += 1
    if answer.status_code != 200:
        stats.problems.append(f"match {match_id} submit: {answer.status_code} {answer.text[:300]}")


async def spectator(client: Any, tournament: int, poll: float, stats: Stats,
                    rng: random.Random, stop: asyncio.Event) -> None:  # fmt: skip
    paths = {"api": f"/api/v1/tournaments/{tournament}/standings/",
             "page": f"/tournaments/{tournament}/standings/"}  # fmt: skip
    kind = rng.choice(list(paths))
    await asyncio.sleep(rng.uniform(0, poll))
    while not stop.is_set():
        start = time.perf_counter()
        try:
            answer = await request(client, "GET", paths[kind])
            stats.statuses[f"standings {kind} {answer.status_code}"] += 1
            stats.poll_latency[kind].append(time.perf_counter() - start)
        except Exception as exc:
            stats.statuses[f"standings {kind} {type(exc).__name__}"] += 1
        kind = "page" if kind == "api" else "api"
        try:
            await asyncio.wait_for(stop.wait(), timeout=poll * rng.uniform(0.5, 1.5))
        except TimeoutError:
            pass


def simulate(hall: Hall, args: argparse.Namespace) -> dict[int, list[dict[str, Any]]]:
    """Every table's match of legal deals, simulated before the clock starts: simulating inside
    the referees' coroutines would stall the client's event loop and add to the latencies it
    measures."""
    from rules import make_rules
    from rules.simulate import play_match

    rules = make_rules(hall.rules_preset)
    return {
        match_id: play_match(rules, random.Random(args.seed * 100_003 + match_id))
        for match_id in hall.tables
    }


async def warm_up(client: Any, hall: Hall, args: argparse.Namespace) -> None:
    """A few reads per gunicorn worker before the clock starts (not counted): each worker's
    first requests import code and open its database connection, which a hall open for
    hours has long done."""
    match_id, (token, _table) = next(iter(hall.tables.items()))
    paths = [f"/api/v1/matches/{match_id}/", f"/tournaments/{hall.tournament}/standings/",
             f"/api/v1/tournaments/{hall.tournament}/standings/"]  # fmt: skip
    for _ in range(3):
        await asyncio.gather(*(
            request(client, "GET", path, headers={"Authorization": f"Token {token}"})
            for path in paths for _ in range(args.workers * (args.threads or 1))
        ))  # fmt: skip


async def load(url: str, hall: Hall, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    rng = random.Random(args.seed)
    interval = len(hall.tables) / args.rate if args.rate else 0.0
    matches = simulate(hall, args)
    async with session(url, 2 * len(hall.tables) + args.spectators + 10) as client:
        await warm_up(client, hall, args)
        stop = asyncio.Event()
        watchers = [
            asyncio.create_task(
                spectator(
                    client, hall.tournament, args.poll, stats, random.Random(rng.random()), stop
                )
            )  # fmt: skip
            for _ in range(args.spectators)
        ]
        started = time.perf_counter()
        await asyncio.gather(*(
            referee(client, match_id, token, args, stats, random.Random(rng.random()), interval,
                    matches[match_id])
            for match_id, (token, _table) in hall.tables.items()
        ))  # fmt: skip
        elapsed = time.perf_counter() - started
        stop.set()
        await asyncio.gather(*watchers)
    return stats, elapsed


# --- report and checks --------------------------------------------------------------------------


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return (f"p50 {at(0.50):.0f} ms, p95 {at(0.95):.0f} ms, p99 {at(0.99):.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms (n={len(values)})")  # fmt: skip


def verify(hall: Hall, stats: Stats) -> list[str]:
    from rules import Judge
    from scoring.models import Deal, Match

    failures: list[str] = []
    matches = Match.objects.in_bulk(list(hall.tables))
    stored: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(match_id__in=list(hall.tables)).order_by("match_id", "n"):
        stored[deal.match_id].append(deal)
    for match_id, sent in stats.deals_sent.items():
        match = matches[match_id]
        deals = stored[match_id]
        keys = [str(d.client_id) for d in deals]
        if len(deals) != len(sent):
            failures.append(f"match {match_id}: {len(deals)} deals stored, {len(sent)} sent")
        if [d.n for d in deals] != list(range(1, len(deals) + 1)):
            failures.append(f"match {match_id}: deal numbers {[d.n for d in deals]}")
        if len(set(keys)) != len(keys) or keys != [key for key, _r in sent]:
            failures.append(f"match {match_id}: stored keys differ from the keys sent")
        if [d.record for d in deals] != [record for _k, record in sent]:
            failures.append(f"match {match_id}: stored records differ from the simulated ones")
        verdict = Judge(match.get_rules()).fold([d.record for d in deals])
        state = verdict.state
        folded = (dict(state.totals), state.finished, state.end or "", state.winner or "")
        if (match.totals, match.finished, match.end, match.winner) != folded:
            failures.append(f"match {match_id}: stored {match.totals, match.winner}, "
                            f"engine {folded}")  # fmt: skip
        if match.status != Match.Status.SUBMITTED:
            failures.append(f"match {match_id}: {match.status}, not submitted")
    if len(stats.deals_sent) != len(hall.tables):
        failures.append(f"{len(stats.deals_sent)} referees ran, {len(hall.tables)} expected")
    return failures


def report(stats: Stats, elapsed: float, args: argparse.Namespace) -> list[str]:
    created = sum(len(s) for s in stats.deals_sent.values())
    posts = sum(v for k, v in stats.statuses.items() if k.startswith("deal ") and k[5:].isdigit())
    window = (max(stats.deal_window) - min(stats.deal_window)) if stats.deal_window else elapsed
    average = posts / window if window else 0.0
    # Sustained rate: while every referee is recording (from the last one's first deal to the
    # first one's last). The whole-run average also counts the tail, when the referees of the
    # shorter matches have finished and only a few are still sending.
    rate = average
    steady: list[float] = []
    if stats.spans:
        begin, end = max(s[0] for s in stats.spans), min(s[1] for s in stats.spans)
        if end - begin > 1.0:
            steady = [
                latency
                for t, latency in zip(stats.deal_window, stats.deal_latency, strict=True)
                if begin <= t <= end
            ]
            rate = len(steady) / (end - begin)
    print(
        f"\nreferees: {len(stats.deals_sent)}, deals {created}, deal requests answered "
        f"{posts} (resent {stats.resent}, abandoned and resent {stats.abandoned}, "
        f"sent twice at once {stats.doubled}, retried after an error {stats.retried_errors})"
    )
    print(
        f"deal submissions: {rate:.0f}/s sustained (all referees recording), {average:.0f}/s "
        f"averaged over {window:.1f} s (offered {args.rate or 'unpaced'}/s); distinct deals "
        f"{created / window:.0f}/s"
    )
    print(f"deal latency:      {percentiles(stats.deal_latency)}")
    if steady:
        print(f"  while sustained: {percentiles(steady)}")
    for kind, values in sorted(stats.poll_latency.items()):
        print(f"standings {kind:<5}:  {percentiles(values)}")
    print("answers:", ", ".join(f"{k}: {v}" for k, v in sorted(stats.statuses.items())))
    misses = []
    ordered = sorted(stats.deal_latency)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0
    if rate < 150:
        misses.append(f"throughput {rate:.0f}/s < 150/s")
    if p99 > 0.300:
        misses.append(f"p99 {p99 * 1000:.0f} ms > 300 ms")
    return misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables = referees (pairs / 2)")
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument(
        "--rate",
        type=float,
        default=160,
        help="deals per second offered by all referees together (0: unpaced)",
    )
    parser.add_argument(
        "--poll",
        type=float,
        default=20.0,
        help="seconds between a spectator's polls (20: the live standings page's refresh)",
    )
    parser.add_argument("--resend", type=float, default=0.05, help="share of deals sent again")
    parser.add_argument(
        "--doubles", type=float, default=0.03, help="share of deals sent twice at the same moment"
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--url", help="an app already serving DATABASE_URL's database")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        sys.exit("set DATABASE_URL=postgres://… (a scratch database is created beside it)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    services = Services()
    status = 1
    import psycopg

    if not args.url:
        os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")
            conn.execute(f"CREATE DATABASE {SCRATCH}")
        os.environ["DATABASE_NAME_OVERRIDE"] = SCRATCH
    try:
        import django

        django.setup()
        from django.core.management import call_command

        url = args.url.rstrip("/") if args.url else ""
        if not url:
            call_command("migrate", verbosity=0)
            queue = f"bench-load-{uuid.uuid4().hex[:8]}"
            env = app_environment(queue)
            subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                           cwd=ROOT, env=env, check=True)  # fmt: skip
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            services.start("worker", [
                sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                "--loglevel=WARNING", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-Q", queue, "-n", f"{queue}@%h",
            ], env)  # fmt: skip
            services.start("gunicorn", [
                sys.executable, "-m", "gunicorn", "config.wsgi:application",
                "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
                "--threads", str(args.threads), "--timeout", "30",
            ], env)  # fmt: skip
            wait_http(url, services)
            # the pairing request is sent to our worker's queue by gunicorn, whose env says so
        hall = setup(url, args.tables, services if services.processes else None)
        before = cpu_seconds()
        stats, elapsed = asyncio.run(load(url, hall, args))
        after = cpu_seconds()
        misses = report(stats, elapsed, args)
        print(
            f"CPU over the {elapsed:.1f} s of load (2 cores = {2 * elapsed:.0f} s): "
            + ", ".join(f"{k} {after[k] - before.get(k, 0):.1f} s" for k in after)
            + " (machine: every process, other users' too)"
        )
        failures = stats.problems + verify(hall, stats)
        print(f"\ndatabase: {len(hall.tables)} matches checked against the engine's fold")
        for failure in failures[:30]:
            print("  FAIL:", failure)
        if misses:
            print("target missed:", "; ".join(misses))
        print("PASS" if not failures and not misses else "FAIL")
        status = 1 if failures or misses else 0
    finally:
        services.stop()
        if not args.url:
            from django.db import connections

            connections.close_all()
            if not args.keep:
                with psycopg.connect(database_url, autocommit=True) as conn:
                    conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")
    sys.exit(status)


if __name__ == "__main__":
    main()
