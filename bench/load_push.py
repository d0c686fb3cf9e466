"""Pushed pages under load: 500 spectators connected over WebSocket while 100 referees record.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/load_push.py [--spectators 500] [--tables 100] [--rate 160]

The hall of ``bench/load_hall.py`` (its setup, referees, checks and report are reused): a
scratch database (``bench_push``), the pages and the API under gunicorn (4 sync workers, as
``deploy/domino-web.service``), the WebSockets under uvicorn (``--push-workers`` processes, as
``deploy/domino-push.service``), both hearing each other through Redis (cache and channel
layer), and a Celery worker. Meanwhile:

- ``--spectators`` clients open ``/ws/live/<tournament>/`` and, as ``static/js/live.js`` does,
  re-read the standings whenever they are told they changed (one read at a time each; a message
  during a read asks for one more): first the page's ``data-live-read`` address with
  ``&since=<at>`` (``at`` the pushed time of the change) from uvicorn, which answers from the
  cache (``tournaments.results.reread``); on anything but 200, the page's
  ``data-fragment-url`` with ``&since=<at>`` from gunicorn, which computes the table;
- a chief referee confirms a submitted protocol every ``--confirm-every`` seconds through the
  API, while the referees record and after, ``--confirmations`` in all.

Reported: for every confirmation and every spectator, the time from sending the confirmation
to that spectator holding a standings table that counts it (its "still playing" rows fewer),
p50/p95/p99 (target p95 ≤ 2 s), spectators that never got it; the reads (whole, and how many
the push process answered itself, how many went on to the view); and
``load_hall``'s deal figures (target ≥ 150 deals/s sustained, p99 ≤ 300 ms) and database check.
"""

from __future__ import annotations

import argparse
import asyncio
import html as htmllib
import json
import os
import re
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import load_hall as hall_bench  # noqa: E402

hall_bench.SCRATCH = "bench_push"
#: the ports this bench may serve on (a machine shared with other work keeps to a range)
PORTS = range(int(os.environ.get("BENCH_PORT_FIRST", "8300")), 8400)


def free_port() -> int:
    import socket

    for port in PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS}")
PENDING = 'class="tag pending"'


@dataclass
class Push:
    #: per spectator: (time a fragment arrived, entries still playing in it)
    seen: list[list[tuple[float, int]]] = field(default_factory=list)
    #: (time the confirmation was sent, tables confirmed after it)
    confirmations: list[tuple[float, int]] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    #: reads answered by the push process (200), and those that went on to the view
    fast: int = 0
    fallback: int = 0
    connected: int = 0
    refused: int = 0
    messages: int = 0


@dataclass
class Page:
    """What the standings page gives its script (``static/js/live.js``)."""

    fragment: str  # data-fragment-url, read from gunicorn
    read: str  # data-live-read, read from uvicorn ("" when the page gives none)


async def standings_page(http: Any, tournament: int) -> Page:
    async with http.get(f"/tournaments/{tournament}/standings/") as answer:
        text = await answer.text()

    def attribute(name: str) -> str:
        found = re.search(rf'{name}="([^"]*)"', text)
        return htmllib.unescape(found[1]) if found else ""

    return Page(attribute("data-fragment-url"), attribute("data-live-read"))


async def read_once(ws_client: Any, http: Any, page: Page, since: float, push: Push) -> str:
    """As live.js: the push process's table when it has one read after ``since``, else the
    view's (which computes it)."""
    if page.read and since:
        async with ws_client.get(f"{page.read}&since={since}") as answer:
            text = await answer.text()
            if answer.status == 200:
                push.fast += 1
                return str(text)
        push.fallback += 1
    joiner = "&" if "?" in page.fragment else "?"
    target = f"{page.fragment}{joiner}since={since}" if since else page.fragment
    async with http.get(target) as answer:
        return str(await answer.text())


async def spectator(ws_client: Any, http: Any, url: str, tournament: int, page: Page, push: Push,
                    ready: asyncio.Event, stop: asyncio.Event) -> None:  # fmt: skip
    seen: list[tuple[float, int]] = []
    push.seen.append(seen)
    wanted = asyncio.Event()
    since = [0.0]

    async def reader() -> None:
        while not stop.is_set():
            await wanted.wait()
            wanted.clear()
            start = time.perf_counter()
            try:
                html = await read_once(ws_client, http, page, since[0], push)
            except Exception:  # noqa: BLE001 - counted as a missing update
                continue
            now = time.perf_counter()
            push.reads.append(now - start)
            seen.append((now, html.count(PENDING)))

    task = asyncio.create_task(reader())
    try:
        async with ws_client.ws_connect(f"/ws/live/{tournament}/", origin=url,
                                        heartbeat=None) as ws:  # fmt: skip
            push.connected += 1
            ready.set()
            # closed from outside at the end: no timed wake-ups of 500 idle sockets meanwhile
            closer = asyncio.create_task(_close_when(stop, ws))
            async for message in ws:
                if message.type.name != "TEXT":
                    break
                push.messages += 1
                data = json.loads(message.data)
                if data["part"] == "standings":
                    since[0] = max(since[0], float(data.get("at") or 0))
                    wanted.set()
        closer.cancel()
    except Exception:  # noqa: BLE001
        push.refused += 1
    finally:
        task.cancel()


async def _close_when(stop: asyncio.Event, ws: Any) -> None:
    await stop.wait()
    await ws.close()


async def chief(http: Any, token: str, matches: list[int], push: Push, every: float,
                wanted: int, stop: asyncio.Event) -> None:  # fmt: skip
    headers = {"Authorization": f"Token {token}"}
    waiting = list(matches)
    confirmed = 0
    while confirmed < wanted and waiting and not stop.is_set():
        await asyncio.sleep(every)
        for match in list(waiting):
            sent = time.perf_counter()
            async with http.post(f"/api/v1/matches/{match}/confirm/", json={},
                                 headers=headers) as answer:  # fmt: skip
                await answer.read()
                if answer.status == 200:
                    confirmed += 1
                    waiting.remove(match)
                    push.confirmations.append((sent, confirmed))
                    break
                if answer.status != 409:  # 409: not submitted yet, another table then
                    print(f"confirm {match}: {answer.status}")
                    waiting.remove(match)


def latencies(push: Push, tables: int) -> tuple[list[float], int]:
    """Per confirmation and spectator: from the confirmation sent to a table counting it."""
    found: list[float] = []
    missing = 0
    for sent, confirmed in push.confirmations:
        target = 2 * (tables - confirmed)  # two entries per table still playing
        for seen in push.seen:
            times = [t for t, pending in seen if t >= sent and pending <= target]
            if times:
                found.append(min(times) - sent)
            else:
                missing += 1
    return found, missing


async def run(url: str, hall: Any, chief_token: str, args: argparse.Namespace) -> tuple[Any, ...]:
    import aiohttp

    push = Push()
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    sockets = aiohttp.ClientSession(base_url=args.push_url or url, connector=connector)
    async with sockets as ws_client, hall_bench.session(url, args.read_connections) as http:
        ready = [asyncio.Event() for _ in range(args.spectators)]
        page = await standings_page(http, hall.tournament)
        print(f"standings page: re-read {page.read or '(none)'}, else {page.fragment}")
        watchers = [asyncio.create_task(spectator(ws_client, http, args.push_url or url,
                                                  hall.tournament, page, push, ready[i], stop))
                    for i in range(args.spectators)]  # fmt: skip
        try:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 60)
        except TimeoutError:
            print(f"only {push.connected} of {args.spectators} spectators connected in 60 s")
        print(f"spectators connected: {push.connected}")
        # load_hall's referees, without its polling spectators: ours listen instead
        referees_only = argparse.Namespace(**{**vars(args), "spectators": 0})
        loader = asyncio.create_task(hall_bench.load(url, hall, referees_only))
        desk = asyncio.create_task(chief(http, chief_token, list(hall.tables), push,
                                         args.confirm_every, args.confirmations, stop))  # fmt: skip
        stats, elapsed = await loader
        deals_done = len(push.confirmations)
        await desk
        await asyncio.sleep(3)  # the last updates
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
    return push, stats, elapsed, deals_done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=160)
    parser.add_argument("--confirm-every", type=float, default=2.0)
    parser.add_argument("--confirmations", type=int, default=15)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--push-workers", type=int, default=1, help="uvicorn workers")
    parser.add_argument("--read-connections", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scratch", default="bench_push",
                        help="the scratch database's name (dropped before and after)")
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", args.scratch):
        sys.exit("--scratch: lower-case letters, digits and _ only")
    hall_bench.SCRATCH = args.scratch
    # what load_hall's load() reads besides: no polling spectators of its own
    args.poll, args.threads = 20.0, 1
    args.resend, args.doubles, args.push_url = 0.05, 0.03, ""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit("set DATABASE_URL=postgres://… and REDIS_URL=redis://… (cache and push)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {hall_bench.SCRATCH} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {hall_bench.SCRATCH}")
    os.environ["DATABASE_NAME_OVERRIDE"] = hall_bench.SCRATCH
    services = hall_bench.Services()
    status = 1
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        queue = f"bench-push-{uuid.uuid4().hex[:8]}"
        env = hall_bench.app_environment(queue)
        env["CHANNEL_PREFIX"] = f"bench-push-{uuid.uuid4().hex[:8]}"
        import subprocess

        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, check=True)  # fmt: skip
        port = free_port()
        push_port = free_port_after(port)
        url = f"http://127.0.0.1:{port}"
        args.push_url = f"http://127.0.0.1:{push_port}"
        services.start("worker", [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-Q", queue, "-n", f"{queue}@%h",
        ], env)  # fmt: skip
        services.start("gunicorn", [
            sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
            f"127.0.0.1:{port}", "--workers", str(args.workers), "--timeout", "30",
        ], env)  # fmt: skip
        services.start("uvicorn", [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(push_port), "--workers", str(args.push_workers), "--no-access-log",
            "--log-level", "warning",
        ], env)  # fmt: skip
        hall_bench.wait_http(url, services)
        hall_bench.wait_http(args.push_url, services)
        hall = hall_bench.setup(url, args.tables, services)
        chief_token = make_chief(hall.tournament)
        before = hall_bench.cpu_seconds()
        push, stats, elapsed, during = asyncio.run(run(url, hall, chief_token, args))
        after = hall_bench.cpu_seconds()
        misses = hall_bench.report(stats, elapsed, args)
        found, missing = latencies(push, args.tables)
        print(f"\nspectators: {push.connected} connected, {push.refused} refused or dropped; "
              f"{push.messages} messages heard")  # fmt: skip
        print(f"confirmations: {len(push.confirmations)} ({during} while the referees recorded)")
        print(f"confirmation -> every spectator's table: {hall_bench.percentiles(found)}; "
              f"never updated: {missing}")  # fmt: skip
        print(f"standings reads:   {hall_bench.percentiles(push.reads)}; answered by the push "
              f"process {push.fast}, sent on to the view {push.fallback}")  # fmt: skip
        print(f"CPU over the {elapsed:.1f} s of deals: "
              + ", ".join(f"{k} {after[k] - before.get(k, 0):.1f} s" for k in after))
        ordered = sorted(found)
        p95 = ordered[int(0.95 * (len(ordered) - 1))] if ordered else float("inf")
        if p95 > 2.0 or missing or push.connected < args.spectators:
            misses.append(f"push p95 {p95:.2f} s, {missing} never updated, "
                          f"{push.connected}/{args.spectators} connected")  # fmt: skip
        # load_hall's check wants every match submitted; the chief confirmed some of them
        failures = stats.problems + [f for f in hall_bench.verify(hall, stats)
                                     if not f.endswith("confirmed, not submitted")]
        for failure in failures[:30]:
            print("  FAIL:", failure)
        if misses:
            print("target missed:", "; ".join(misses))
        print("PASS" if not failures and not misses else "FAIL")
        status = 1 if failures or misses else 0
    finally:
        services.stop()
        from django.db import connections

        connections.close_all()
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {hall_bench.SCRATCH} WITH (FORCE)")
    sys.exit(status)


def free_port_after(taken: int) -> int:
    import socket

    for port in range(taken + 1, 8400):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port after {taken}")


def make_chief(tournament_id: int) -> str:
    from django.contrib.auth.models import Group, User

    from accounts.roles import CHIEF_REFEREE
    from accounts.tokens import issue
    from tournaments.models import Tournament

    chief = User.objects.create_user(f"load-chief-{uuid.uuid4().hex[:6]}")
    chief.groups.add(Group.objects.get(name=CHIEF_REFEREE))
    Tournament.objects.get(pk=tournament_id).chief_referees.add(chief)
    return str(issue(chief)[1])


if __name__ == "__main__":
    main()
