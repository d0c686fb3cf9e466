"""WebSocket handshakes while idle readers wait on ``/live-read/`` (issue 25, «the push»).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/push_handshake.py [--readers 1000] [--handshakes 60]

A scratch database (``bench_handshake``) with one public tournament, uvicorn as
``deploy/domino-push.service`` runs it (2 workers, ``--ws-max-size`` as there). Then
``--readers`` anonymous clients ask the standings re-read of that tournament with ``since`` =
now, which nobody computes, so each would wait there (the attacker's «idle readers»: one per
connection, asked again as soon as answered); meanwhile ``--handshakes`` anonymous sockets
open ``/ws/live/<id>/`` one after another. Reported: the handshake times (worst, p95, p50)
and how the readers were answered (200/204/503…).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
#: a handshake that takes longer counts as this long
OPEN_TIMEOUT = 20.0
SCRATCH = os.environ.get("BENCH_DATABASE", "bench_handshake")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare() -> int:
    """The scratch database, migrated, with one public tournament; its id."""
    import psycopg

    server = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {SCRATCH}")
    os.environ["DATABASE_NAME_OVERRIDE"] = SCRATCH
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tournaments.models import Tournament

    return int(Tournament.objects.create(name="Bench", public=True).pk)


def serve(port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DEBUG="1", ALLOWED_HOSTS="127.0.0.1", CHANNEL_PREFIX=SCRATCH)
    # as deploy/domino-push.service starts it
    command = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--ws-max-size",
               "4096", "--host", "127.0.0.1", "--port", str(port), "--workers", "2",
               "--no-access-log"]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip


async def readers(url: str, count: int, stop: asyncio.Event, answers: Counter[int]) -> None:
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:

        async def one() -> None:
            while not stop.is_set():
                try:
                    async with session.get(f"{url}&since={time.time()}") as answer:
                        await answer.read()
                        answers[answer.status] += 1
                        if answer.status == 503:
                            await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
                except (aiohttp.ClientError, TimeoutError):
                    answers[0] += 1
                    await asyncio.sleep(0.5)

        await asyncio.gather(*(one() for _ in range(count)))


async def handshakes(ws_url: str, origin: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.monotonic()
        try:
            async with websockets.connect(ws_url, origin=origin, open_timeout=OPEN_TIMEOUT):  # type: ignore[arg-type]
                times.append(time.monotonic() - started)
        except TimeoutError:  # counted as the whole wait
            times.append(time.monotonic() - started)
        await asyncio.sleep(0.1)
    return times


def reader_process(url: str, count: int, done: Any, out: Any) -> None:
    """The readers, in a process of their own: the handshakes are timed from a client whose
    event loop is not busy with them."""

    async def go() -> Counter[int]:
        stop = asyncio.Event()
        answers: Counter[int] = Counter()
        load = asyncio.create_task(readers(url, count, stop, answers))
        while not done.is_set():
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.wait_for(load, 40)
        return answers

    out.put(dict(asyncio.run(go())))


async def run(port: int, pk: int, args: argparse.Namespace) -> None:
    base = f"http://127.0.0.1:{port}"
    read = f"{base}/live-read/{pk}/standings/?lang=ru"
    ws_url = f"ws://127.0.0.1:{port}/ws/live/{pk}/"
    quiet = await handshakes(ws_url, base, 10)
    out: Any = multiprocessing.Queue()
    done = multiprocessing.Event()
    load = multiprocessing.Process(target=reader_process, args=(read, args.readers, done, out))
    load.start()
    await asyncio.sleep(args.warmup)
    times = await handshakes(ws_url, base, args.handshakes)
    done.set()
    answers = out.get(timeout=60)
    load.join(10)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"handshakes alone: worst {max(quiet) * 1000:.0f} ms")
    print(f"with {args.readers} idle readers: worst {times[-1] * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms, p50 {times[len(times) // 2] * 1000:.0f} ms "
          f"({len(times)} handshakes)")  # fmt: skip
    print("reader answers:", dict(sorted(answers.items())), "(0: connection failed)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readers", type=int, default=1000)
    parser.add_argument("--handshakes", type=int, default=60)
    parser.add_argument("--warmup", type=float, default=3.0)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL=postgres://… and REDIS_URL=redis://…")
    pk = prepare()
    port = free_port()
    server = serve(port)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                import urllib.request

                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    sys.exit("uvicorn did not start")
                time.sleep(0.3)
        asyncio.run(run(port, pk, args))
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    main()
