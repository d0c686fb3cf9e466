"""A real ASGI server for the push tests: ``uvicorn config.asgi:application`` with two worker
processes in a subprocess, on pytest-django's test database (``DATABASE_NAME_OVERRIDE``) and
Redis (the channel layer's publish/subscribe and the cache), so that a change made in one
process reaches a page connected to the other only through Redis, as in production.

    def test_x(asgi_server): asgi_server.url -> "http://127.0.0.1:82xx"
    session_cookie(user) -> a signed-in session's cookie for a browser context

Tests that use it write their rows with ``@pytest.mark.django_db(transaction=True)``, so the
server's processes see them. Needs PostgreSQL and Redis (skipped without, failed under CI).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.sockets import WS_MAX_SIZE
from config.testing import service_unavailable

ROOT = Path(__file__).resolve().parents[3]
#: the ports this suite may serve on (a free one is taken)
PORTS = range(8230, 8250)
START_TIMEOUT = 60.0


@dataclass
class AsgiServer:
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    prefix: str

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS}")


@pytest.fixture(scope="session")
def asgi_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[AsgiServer]:
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        service_unavailable("the push tests need PostgreSQL: set DATABASE_URL=postgres://…")
    redis_url = settings.CHANNEL_REDIS_URL
    if not redis_url:
        service_unavailable("the push tests need Redis: set REDIS_URL=redis://…")
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        service_unavailable(f"Redis at {redis_url} is unreachable: {exc}")

    # the test process and the server's announce to the same, private channel prefix
    prefix = f"domino-test-{uuid.uuid4().hex[:10]}"
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = prefix
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    port = _free_port()
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_NAME_OVERRIDE=str(connection.settings_dict["NAME"]),
        CHANNEL_PREFIX=prefix,
        DEBUG="1",  # static files from the finders, no HTTPS redirect
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CELERY_BROKER_URL="",  # tasks in-process: no worker listens here
        PYTHONUNBUFFERED="1",
    )
    log_file = tempfile.NamedTemporaryFile(prefix="uvicorn-", suffix=".log", delete=False)
    log_path = Path(log_file.name)
    command = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host",
               "127.0.0.1", "--port", str(port), "--workers", "2", "--no-access-log",
               "--ws-max-size", str(WS_MAX_SIZE)]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log_file,
                               stderr=subprocess.STDOUT)  # fmt: skip
    server = AsgiServer(f"http://127.0.0.1:{port}", process, log_path, prefix)
    try:
        started = time.monotonic()
        while True:
            if process.poll() is not None:
                pytest.fail(f"uvicorn exited early:\n{server.log()}")
            try:
                with urllib.request.urlopen(f"{server.url}/healthz", timeout=2):
                    break
            except OSError:
                if time.monotonic() - started > START_TIMEOUT:
                    pytest.fail(f"uvicorn did not answer in time:\n{server.log()}")
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log_file.close()
        log_path.unlink(missing_ok=True)


def session_cookie(user: Any, url: str) -> dict[str, Any]:
    """The cookie of a session signed in as ``user`` (written to the test database, which the
    server reads), for ``BrowserContext.add_cookies``."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": value, "url": url}


IN_PROCESS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def in_process_layer() -> Iterator[None]:
    """The embedded mode's layer: what a test sends, the test's consumer hears."""
    from channels.layers import channel_layers
    from django.test import override_settings

    with override_settings(CHANNEL_LAYERS=IN_PROCESS):
        channel_layers.backends.clear()
        yield
    channel_layers.backends.clear()
