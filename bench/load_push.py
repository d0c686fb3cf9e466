"""Pushed pages under load: 500 (or 5,000) spectators on WebSockets while 100 referees record.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/load_push.py [--spectators 500] [--push-workers 1]
            [--tables 100] [--mode both|content|fetch] [--confirmations 15]

The hall of ``bench/load_hall.py`` (its setup, referees, checks and report are reused): a
scratch database (``bench_push``), the pages and the API under gunicorn (4 sync workers, as
``deploy/domino-web.service``), the WebSockets under uvicorn (``--push-workers`` processes, as
``deploy/domino-push.service``), both hearing each other through Redis (cache and channel
layer), and a Celery worker. Meanwhile:

- ``--spectators`` clients open ``/ws/live/<tournament>/?lang=`` and do as ``static/js/live.js``
  does: a message that carries the standings table (issue 31: ``"key": "standings"``, ``"v"``,
  ``"html"``) is held as it is, unless it is older than the table held; a message without it
  makes them re-read the standings (one read at a time each; a message during a read asks for
  one more): first the page's ``data-live-read`` address with ``&since=<at>`` from uvicorn,
  which answers from the cache (``tournaments.results.reread``); on anything but 200, the
  page's ``data-fragment-url`` with ``&since=<at>`` from gunicorn, which computes the table;
- a chief referee confirms a submitted protocol through the API, waits until every spectator
  holds a table counting it (at most ``--settle`` s) and ``--confirm-every`` s, ``--confirmations``
  in all; with ``--mode both`` alternately through a gunicorn whose messages carry the table and
  one with ``LIVE_PUSH_MAX_BYTES=0`` (the "fetch it" message of before).

Reported per mode: for every confirmation and every spectator, the time from sending the
confirmation to that spectator holding a standings table that counts it (its "still playing"
rows fewer), p50/p95/p99 (target p95 ≤ 0.5 s up to 500 spectators, ≤ 1 s above), spectators
that never got it, each confirmation's slowest spectator, the CPU per confirmation of each
service (net of idle), the ratios of the two modes; the reads; and ``load_hall``'s deal figures
and database check. ``bench/README.md`` says more.
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
PENDING_IN_JSON = PENDING.replace('"', '\\"').encode()  # as it is written in a JSON string


@dataclass
class Push:
    #: per spectator: (time a fragment arrived, entries still playing in it)
    seen: list[list[tuple[float, int]]] = field(default_factory=list)
    #: per spectator: the fewest entries still playing it has been shown (for settling)
    best: list[int] = field(default_factory=list)
    #: (time the confirmation was sent, tables confirmed after it)
    confirmations: list[tuple[float, int]] = field(default_factory=list)
    #: per confirmation: the mode it was announced in ("content" or "fetch")
    modes: list[str] = field(default_factory=list)
    #: per confirmation: CPU seconds used by each service from it to every spectator updated,
    #: and how long that took
    cpu: list[dict[str, float]] = field(default_factory=list)
    windows: list[float] = field(default_factory=list)
    #: CPU seconds a second each service uses with the spectators connected and nothing
    #: happening (the sockets' own rights rechecks): subtracted from the windows
    idle: dict[str, float] = field(default_factory=dict)
    #: tables applied from the message itself (no read), and those older than one shown
    pushed: int = 0
    stale: int = 0
    #: the largest message heard (bytes as sent)
    largest: int = 0
    #: per table applied from the message: (its state read, the message heard) after the commit
    delays: list[tuple[float, float]] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    #: reads answered by the push process (200), and those that went on to the view
    fast: int = 0
    fallback: int = 0
    #: reads under way (the chief waits for none before the next confirmation)
    inflight: int = 0
    connected: int = 0
    refused: int = 0
    messages: int = 0


@dataclass
class Page:
    """What the standings page gives its script (``static/js/live.js``)."""

    fragment: str  # data-fragment-url, read from gunicorn
    read: str  # data-live-read, read from uvicorn ("" when the page gives none)
    language: str  # <html lang>, which live.js gives the socket


async def standings_page(http: Any, tournament: int) -> Page:
    async with http.get(f"/tournaments/{tournament}/standings/") as answer:
        text = await answer.text()

    def attribute(name: str) -> str:
        found = re.search(rf'{name}="([^"]*)"', text)
        return htmllib.unescape(found[1]) if found else ""

    language = re.search(r'<html lang="([^"]*)"', text)
    return Page(attribute("data-fragment-url"), attribute("data-live-read"),
                language[1] if language else "")


def version_of(answer: Any) -> float:
    return float(answer.headers.get("X-Live-Version") or 0)


async def read_once(ws_client: Any, http: Any, page: Page, since: float,
                    push: Push) -> tuple[str, float]:  # fmt: skip
    """As live.js: the push process's table when it has one read after ``since``, else the
    view's (which computes it); with its version."""
    if page.read and since:
        async with ws_client.get(f"{page.read}&since={since}") as answer:
            text = await answer.text()
            if answer.status == 200:
                push.fast += 1
                return str(text), version_of(answer)
        push.fallback += 1
    joiner = "&" if "?" in page.fragment else "?"
    target = f"{page.fragment}{joiner}since={since}" if since else page.fragment
    async with http.get(target) as answer:
        return str(await answer.text()), version_of(answer)


async def spectator(ws_client: Any, http: Any, url: str, tournament: int, page: Page, push: Push,
                    ready: asyncio.Event, stop: asyncio.Event,
                    deflate: bool = False) -> None:  # fmt: skip
    seen: list[tuple[float, int]] = []
    push.seen.append(seen)
    me = len(push.best)
    push.best.append(1 << 30)
    wanted = asyncio.Event()
    since = [0.0]
    shown = [0.0]  # the version of the table held (live.js: data-live-version)

    def hold(pending: int, version: float) -> None:
        if version and version < shown[0]:
            push.stale += 1  # an older table than the one held: not swapped in
            return
        shown[0] = max(shown[0], version)
        seen.append((time.perf_counter(), pending))
        push.best[me] = min(push.best[me], pending)

    async def reader() -> None:
        while not stop.is_set():
            await wanted.wait()
            wanted.clear()
            start = time.perf_counter()
            push.inflight += 1
            try:
                html, version = await read_once(ws_client, http, page, since[0], push)
            except Exception:  # noqa: BLE001 - counted as a missing update
                continue
            finally:
                push.inflight -= 1
            push.reads.append(time.perf_counter() - start)
            hold(html.count(PENDING), version)

    task = asyncio.create_task(reader())
    try:
        async with ws_client.ws_connect(f"/ws/live/{tournament}/?lang={page.language}",
                                        origin=url, heartbeat=None,
                                        compress=15 if deflate else 0) as ws:  # fmt: skip
            push.connected += 1
            ready.set()
            # closed from outside at the end: no timed wake-ups of 500 idle sockets meanwhile
            closer = asyncio.create_task(_close_when(stop, ws))
            async for message in ws:
                if message.type.name not in ("TEXT", "BINARY"):
                    break
                push.messages += 1
                raw = message.data if isinstance(message.data, bytes) else message.data.encode()
                push.largest = max(push.largest, len(raw))
                # the head only: a browser parses the whole message on its own processor, the
                # bench's 5,000 spectators share the server's two (the html is the last key)
                cut = raw.find(b', "html": ')
                data = json.loads(raw[:cut] + b"}" if cut > 0 else raw)
                if data["part"] != "standings":
                    continue
                if data.get("key") == "standings" and cut > 0:
                    push.pushed += 1  # the table itself: swapped in, nothing to read
                    at = float(data.get("at") or 0)
                    push.delays.append((float(data.get("v") or 0) - at, time.time() - at))
                    hold(raw[cut:].count(PENDING_IN_JSON), float(data.get("v") or 0))
                else:
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


def tree_cpu(roots: dict[str, int]) -> dict[str, float]:
    """CPU seconds used so far by each named process and its descendants (a server's master
    and workers), and by this client."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    found: dict[str, float] = {}
    for name, root in roots.items():
        total = 0.0
        for pid, seconds in used.items():
            walk = pid
            while walk > 1 and walk != root:
                walk = parent.get(walk, 0)
            if walk == root:
                total += seconds
        found[name] = found.get(name, 0.0) + total
    me = os.times()
    found["client"] = me.user + me.system
    return found


async def chief(desks: dict[str, Any], tokens: dict[str, str], matches: list[int], push: Push,
                args: argparse.Namespace, roots: dict[str, int],
                stop: asyncio.Event) -> None:  # fmt: skip
    """Confirms a submitted protocol, alternately through the web server of each mode (``desks``:
    mode -> its HTTP session), and waits until every spectator holds a table counting it (at
    most ``--settle`` s) before the next: one confirmation's updates never queue behind
    another's, and the CPU each mode used is measured over its own confirmations."""
    waiting = list(matches)
    modes = list(desks)
    confirmed = 0
    while confirmed < args.confirmations and waiting and not stop.is_set():
        await asyncio.sleep(args.confirm_every)
        mode = modes[confirmed % len(modes)]
        headers = {"Authorization": f"Token {tokens[mode]}"}
        # the last confirmation's reads (a spectator not updated in time) done first
        quiet = time.perf_counter()
        while push.inflight and time.perf_counter() - quiet < args.settle:
            await asyncio.sleep(0.05)
        for match in list(waiting):
            before = tree_cpu(roots)
            sent = time.perf_counter()
            async with desks[mode].post(f"/api/v1/matches/{match}/confirm/", json={},
                                        headers=headers) as answer:  # fmt: skip
                await answer.read()
                if answer.status == 200:
                    confirmed += 1
                    waiting.remove(match)
                    push.confirmations.append((sent, confirmed))
                    push.modes.append(mode)
                    target = 2 * (args.tables - confirmed)
                    while (max(push.best, default=0) > target
                           and time.perf_counter() - sent < args.settle):  # fmt: skip
                        await asyncio.sleep(0.05)
                    after = tree_cpu(roots)
                    push.cpu.append({k: after[k] - before.get(k, 0.0) for k in after})
                    push.windows.append(time.perf_counter() - sent)
                    break
                if answer.status != 409:  # 409: not submitted yet, another table then
                    print(f"confirm {match}: {answer.status}")
                    waiting.remove(match)


def latencies(push: Push, tables: int, mode: str | None = None,
              only: int | None = None) -> tuple[list[float], int]:  # fmt: skip
    """Per confirmation (of ``mode``; ``only``: that one) and spectator: from the confirmation
    sent to a table counting it."""
    found: list[float] = []
    missing = 0
    for index, ((sent, confirmed), how) in enumerate(zip(push.confirmations, push.modes,
                                                         strict=True)):  # fmt: skip
        if (mode is not None and how != mode) or (only is not None and index != only):
            continue
        target = 2 * (tables - confirmed)  # two entries per table still playing
        for seen in push.seen:
            times = [t for t, pending in seen if t >= sent and pending <= target]
            if times:
                found.append(min(times) - sent)
            else:
                missing += 1
    return found, missing


async def run(desks: dict[str, str], hall: Any, chief_token: str, args: argparse.Namespace,
              roots: dict[str, int]) -> tuple[Any, ...]:  # fmt: skip
    import contextlib

    import aiohttp

    url = next(iter(desks.values()))
    push = Push()
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    sockets = aiohttp.ClientSession(base_url=args.push_url or url, connector=connector)
    async with contextlib.AsyncExitStack() as stack:
        ws_client = await stack.enter_async_context(sockets)
        http = await stack.enter_async_context(hall_bench.session(url, args.read_connections))
        # the chief's own connections: never queued behind the spectators' reads
        confirmers = {mode: await stack.enter_async_context(hall_bench.session(address, 4))
                      for mode, address in desks.items()}  # fmt: skip
        ready = [asyncio.Event() for _ in range(args.spectators)]
        page = await standings_page(http, hall.tournament)
        print(f"standings page: re-read {page.read or '(none)'}, else {page.fragment}")
        watchers = []
        for i in range(args.spectators):
            watchers.append(asyncio.create_task(spectator(
                ws_client, http, args.push_url or url, hall.tournament, page, push, ready[i],
                stop, args.deflate)))  # fmt: skip
            if i % 100 == 99:  # a crowd arriving, not one burst of 5,000 handshakes
                await asyncio.sleep(0.05)
        wait = max(60.0, args.spectators / 40)
        try:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), wait)
        except TimeoutError:
            print(f"only {push.connected} of {args.spectators} spectators connected in {wait} s")
        print(f"spectators connected: {push.connected}")
        # idle as it stays: every socket's periodic rights check (LIVE_RECHECK_SECONDS, 10 s
        # ±20 %) under way, not the quiet just after the handshakes
        await asyncio.sleep(12.5)
        before, started = tree_cpu(roots), time.perf_counter()
        await asyncio.sleep(args.idle)
        after = tree_cpu(roots)
        push.idle = {k: (after[k] - before.get(k, 0.0)) / (time.perf_counter() - started)
                     for k in after}  # fmt: skip
        print("idle CPU a second, spectators connected: "
              + ", ".join(f"{k} {v:.3f} s" for k, v in push.idle.items()))  # fmt: skip
        # load_hall's referees, without its polling spectators: ours listen instead
        referees_only = argparse.Namespace(**{**vars(args), "spectators": 0})
        loader = asyncio.create_task(hall_bench.load(url, hall, referees_only))
        desk = asyncio.create_task(chief(confirmers, dict.fromkeys(desks, chief_token),
                                         list(hall.tables), push, args, roots, stop))  # fmt: skip
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
    parser.add_argument("--mode", choices=("both", "content", "fetch"), default="both",
                        help="content: the table inside the message (issue 31); fetch: the "
                        "message says it changed and each spectator reads it (LIVE_PUSH_MAX_BYTES"
                        "=0, as before); both: confirmations alternate between the two")
    parser.add_argument("--idle", type=float, default=5.0,
                        help="seconds the idle CPU is measured before the load")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="the longest wait for every spectator before the next confirmation")
    parser.add_argument("--target", type=float, default=0.0,
                        help="p95 target (s) of the content mode; default 0.5 up to 500 "
                        "spectators, else 1.0")
    parser.add_argument("--deflate", action="store_true",
                        help="the spectators ask for permessage-deflate, as browsers do")
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
        fetch_port = free_port_after(push_port)
        url = f"http://127.0.0.1:{port}"
        args.push_url = f"http://127.0.0.1:{push_port}"
        # the web server a confirmation of each mode goes through: LIVE_PUSH_MAX_BYTES=0 is the
        # "fetch it" message of before (the setting is read by the process that announces)
        desks = {"content": url, "fetch": f"http://127.0.0.1:{fetch_port}"}
        if args.mode != "both":
            desks = {args.mode: url}
        if args.mode == "fetch":
            env["LIVE_PUSH_MAX_BYTES"] = "0"
        services.start("worker", [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-Q", queue, "-n", f"{queue}@%h",
        ], env)  # fmt: skip
        services.start("gunicorn", [
            sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
            f"127.0.0.1:{port}", "--workers", str(args.workers), "--timeout", "30",
        ], env)  # fmt: skip
        if args.mode == "both":
            services.start("gunicorn-fetch", [
                sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
                f"127.0.0.1:{fetch_port}", "--workers", "2", "--timeout", "30",
            ], {**env, "LIVE_PUSH_MAX_BYTES": "0"})  # fmt: skip
        services.start("uvicorn", [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(push_port), "--workers", str(args.push_workers), "--no-access-log",
            "--log-level", "warning",
        ], env)  # fmt: skip
        for address in desks.values():
            hall_bench.wait_http(address, services)
        hall_bench.wait_http(args.push_url, services)
        hall = hall_bench.setup(url, args.tables, services)
        chief_token = make_chief(hall.tournament)
        roots = service_roots(services, args.mode)
        before = hall_bench.cpu_seconds()
        push, stats, elapsed, during = asyncio.run(run(desks, hall, chief_token, args, roots))
        after = hall_bench.cpu_seconds()
        misses = hall_bench.report(stats, elapsed, args)
        print(f"\nspectators: {push.connected} connected, {push.refused} refused or dropped; "
              f"{push.messages} messages heard; {push.pushed} tables applied from the message; "
              f"{push.stale} older tables not swapped in; largest message "
              f"{push.largest:,} bytes")  # fmt: skip
        print(f"confirmations: {len(push.confirmations)} ({during} while the referees recorded)")
        summary: dict[str, tuple[float, float]] = {}
        for mode in desks:
            found, missing = latencies(push, args.tables, mode)
            windows = [(c, length) for c, length, how
                       in zip(push.cpu, push.windows, push.modes, strict=True) if how == mode]
            count = max(1, len(windows))
            # net of what the services use anyway meanwhile (the sockets' rechecks)
            cpu = {k: sum(w.get(k, 0.0) - push.idle.get(k, 0.0) * length
                          for w, length in windows) / count for k in roots}  # fmt: skip
            ordered = sorted(found)
            p95 = ordered[int(0.95 * (len(ordered) - 1))] if ordered else float("inf")
            servers = sum(v for k, v in cpu.items() if k != "client")
            summary[mode] = (p95, servers)
            print(f"[{mode}] {len(windows)} confirmations; confirmation -> every spectator's "
                  f"table: {hall_bench.percentiles(found)}; never updated: {missing}")  # fmt: skip
            mine = [index for index, how in enumerate(push.modes) if how == mode]
            slowest = [max(latencies(push, args.tables, mode, index)[0], default=0.0)
                       for index in mine]  # fmt: skip
            print(f"[{mode}] each confirmation's slowest spectator (s; * while the referees "
                  "recorded): " + " ".join(f"{s:.2f}{'*' if i < during else ''}"
                                           for i, s in zip(mine, slowest, strict=True)))
            print(f"[{mode}] CPU per confirmation (until every spectator is updated, net of "
                  "idle): "
                  + ", ".join(f"{k} {v:.3f} s" for k, v in cpu.items())
                  + f"; servers {servers:.3f} s")  # fmt: skip
            target = args.target or (0.5 if args.spectators <= 500 else 1.0)
            if mode == "content" and (p95 > target or missing):
                misses.append(f"push p95 {p95:.2f} s (target {target} s), {missing} never "
                              "updated")  # fmt: skip
        if "content" in summary and "fetch" in summary:
            (p_new, c_new), (p_old, c_old) = summary["content"], summary["fetch"]
            print(f"content / fetch: p95 {p_new / p_old:.2f}, server CPU per confirmation "
                  f"{c_new / max(c_old, 1e-9):.2f}")  # fmt: skip
        if push.delays:
            print("tables in the message, after the commit: state read "
                  f"{hall_bench.percentiles([d[0] for d in push.delays])}; heard "
                  f"{hall_bench.percentiles([d[1] for d in push.delays])}")  # fmt: skip
        print(f"standings reads:   {hall_bench.percentiles(push.reads)}; answered by the push "
              f"process {push.fast}, sent on to the view {push.fallback}")  # fmt: skip
        print(f"CPU over the {elapsed:.1f} s of deals: "
              + ", ".join(f"{k} {after[k] - before.get(k, 0):.1f} s" for k in after))
        if push.connected < args.spectators:
            misses.append(f"{push.connected}/{args.spectators} connected")
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


def service_roots(services: Any, mode: str) -> dict[str, int]:
    """The process of each service whose tree's CPU is measured (started in this order: the
    worker, gunicorn, the fetch mode's gunicorn when both modes run, uvicorn)."""
    names = ["worker", "web", *(["web-fetch"] if mode == "both" else []), "push"]
    return {name: process.pid for name, process in zip(names, services.processes, strict=True)}


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
