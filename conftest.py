"""Fixtures shared by the whole suite: service requirements and a real Celery worker.

Services: without configuration the suite runs on SQLite with eager Celery, and a test that needs
PostgreSQL, Redis or a worker is skipped with the reason. With ``CI=true`` a missing service is a
failure instead: CI must never pass by skipping what it was meant to check.

    def test_x(require_postgres): ...            # needs DATABASE_URL=postgres://…
    def test_y(require_redis): ...               # needs Redis (REDIS_URL or a redis broker)
    def test_z(require_worker): ...              # a live `celery -A config worker`

Celery: ordinary tests run tasks eagerly, even when ``CELERY_BROKER_URL`` is set, so that a
``.delay()`` in the code under test never waits for a worker that is not there. Tests that take
``require_worker`` switch eager mode off for their duration and send tasks through the broker to
a worker subprocess started once per session. That worker reads pytest-django's test database
(``DATABASE_NAME_OVERRIDE``), so a task can read rows a test wrote, provided the test commits
them: use ``@pytest.mark.django_db(transaction=True)`` in such tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.testing import service_unavailable

ROOT = Path(__file__).resolve().parent
WORKER_START_TIMEOUT = 60.0
#: Debian's Chromium, driven by Playwright (``playwright install`` cannot download browsers here)
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    # Password hashing is deliberately slow; tests log in a lot.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Throttles count in the cache across tests (and ids repeat after rollbacks): off for the
    # suite; config/tests/test_security.py turns them on with low rates where it tests them.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"write_user": None, "write_anon": None},
    }
    # The same for failed sign-ins (django-axes): accounts/tests/test_lockout.py and the
    # throttle tests of config/tests/test_security.py turn it on.
    settings.AXES_ENABLED = False
    # Tests check that a change shows at once; tournaments/tests/results/test_results_cache.py turns
    # the spectators' grace period on where it tests it.
    settings.STANDINGS_SPECTATOR_MAX_AGE = 0
    from rest_framework.settings import api_settings

    api_settings.reload()


@pytest.fixture(autouse=True)
def _uploads_in_a_temporary_folder(settings: Any, tmp_path_factory: Any) -> None:
    """Uploaded files (the protocols' photographs) never land in the project's media/."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def _no_standings_kept_from_another_test() -> None:
    """The live standings a process keeps between requests (``tournaments.results.live_state``)
    are checked against the database on every use, but ids and times repeat once a test's
    transaction is rolled back: each test starts with none kept."""
    from tournaments.results import live_state

    live_state.forget()


@pytest.fixture(autouse=True, scope="session")
def _eager_celery_by_default() -> Iterator[None]:
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


# --- PostgreSQL -----------------------------------------------------------------------------


@pytest.fixture
def require_postgres() -> None:
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        service_unavailable(
            "needs PostgreSQL: set DATABASE_URL=postgres://user@host:5432/name "
            f"(the suite runs on {engine.rsplit('.', 1)[-1]})"
        )


# --- Redis ----------------------------------------------------------------------------------


def _redis_url() -> str | None:
    from django.conf import settings

    if settings.REDIS_URL:
        return str(settings.REDIS_URL)
    broker = os.environ.get("CELERY_BROKER_URL", "")
    return broker if broker.startswith("redis") else None


def _redis_error(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.fixture
def require_redis() -> str:
    """The URL of a reachable Redis."""
    url = _redis_url()
    if not url:
        service_unavailable("needs Redis: set REDIS_URL (or a redis:// CELERY_BROKER_URL)")
    error = _redis_error(url)
    if error:
        service_unavailable(f"Redis at {url} is unreachable: {error}")
    return url


# --- A live Celery worker -------------------------------------------------------------------


@dataclass
class WorkerHandle:
    process: subprocess.Popen[bytes]
    queue: str
    hostname: str
    database_name: str | None
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def worker_environment(database_name: str | None, queue: str) -> dict[str, str]:
    """The environment of a worker subprocess: ours, pointed at the test database and queue."""
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env["CELERY_TASK_DEFAULT_QUEUE"] = queue
    env["RATINGS_QUEUE"] = f"{queue}-ratings"  # the ratings' queue of its own, consumed too
    if database_name:
        env["DATABASE_NAME_OVERRIDE"] = database_name
    return env


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: Any) -> Iterator[WorkerHandle]:
    """One ``celery -A config worker`` for the whole session, on a queue of its own."""
    from django.db import connection

    from config.celery import app
    from config.tasks import ping

    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker:
        service_unavailable("needs a Celery broker: set CELERY_BROKER_URL=redis://…")
    if broker.startswith("redis"):
        error = _redis_error(broker)
        if error:
            service_unavailable(f"the Celery broker at {broker} is unreachable: {error}")

    database_name: str | None = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite" and connection.creation.is_in_memory_db(database_name):
        # Another process cannot open this process's in-memory test database; tasks that touch
        # the database need PostgreSQL (or a file-based SQLite test database).
        database_name = None

    queue = f"pytest-{uuid.uuid4().hex[:12]}"
    hostname = f"{queue}@%h"
    log_file = tempfile.NamedTemporaryFile(prefix="celery-worker-", suffix=".log", delete=False)
    log_path = Path(log_file.name)
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool=solo", "--loglevel=INFO", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "-Q", f"{queue},{queue}-ratings", "-n", hostname,
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=worker_environment(database_name, queue),
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    handle = WorkerHandle(process, queue, hostname, database_name, log_path)
    try:
        previous = app.conf.task_always_eager
        app.conf.task_always_eager = False
        try:
            started = time.monotonic()
            result = ping.apply_async(queue=queue)
            while not result.ready():
                if process.poll() is not None:
                    pytest.fail(f"the Celery worker exited early:\n{handle.log()}")
                if time.monotonic() - started > WORKER_START_TIMEOUT:
                    pytest.fail(f"the Celery worker did not answer in time:\n{handle.log()}")
                time.sleep(0.2)
            assert result.get(timeout=5) == "pong"
        finally:
            app.conf.task_always_eager = previous
        yield handle
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log_file.close()
        log_path.unlink(missing_ok=True)


@pytest.fixture
def require_worker(celery_worker_process: WorkerHandle) -> Iterator[WorkerHandle]:
    """A live worker; tasks sent during the test go through the broker to it."""
    from django.test import override_settings

    from config.celery import app

    previous_eager = app.conf.task_always_eager
    previous_queue = app.conf.task_default_queue
    app.conf.task_always_eager = False
    app.conf.task_default_queue = celery_worker_process.queue
    try:
        with override_settings(RATINGS_QUEUE=f"{celery_worker_process.queue}-ratings"):
            yield celery_worker_process
    finally:
        app.conf.task_always_eager = previous_eager
        app.conf.task_default_queue = previous_queue


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for the browser tests of every app (skips, or fails under CI=true,
    when it is not installed)."""
    if not CHROMIUM.exists():
        service_unavailable(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django would otherwise refuse
    # database access from it (SynchronousOnlyOperation).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
