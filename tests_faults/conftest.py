"""Fault tests: real processes (Celery workers, gunicorn) on PostgreSQL and Redis, killed,
starved of their broker, or cut off from a restarting database.

They restart services the whole machine shares, so they are not part of ``make test`` (the
directory is outside ``testpaths``) and run on their own, after it, in CI::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m pytest -q tests_faults

Without PostgreSQL, Redis or the right to restart PostgreSQL (root with ``pg_ctlcluster``) they
are skipped with the reason (a failure under ``CI=true``).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.testing import service_unavailable

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.faults)


def wait_for(condition: Callable[[], Any], timeout: float, what: str, step: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


@dataclass
class Process:
    popen: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL, as the kernel's OOM killer or a pulled plug would: no cleanup at all."""
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


class Processes:
    """Processes a test starts; all of them are ended when it finishes, whatever happens."""

    def __init__(self, database_name: str) -> None:
        self.database_name = database_name
        self.started: list[Process] = []

    def environment(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.update(DJANGO_SETTINGS_MODULE="config.settings",
                   DATABASE_NAME_OVERRIDE=self.database_name)  # fmt: skip
        env.update(extra)
        return env

    def start(self, name: str, command: list[str], env: dict[str, str]) -> Process:
        log = tempfile.NamedTemporaryFile(prefix=f"fault-{name}-", suffix=".log", delete=False)
        popen = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)  # fmt: skip
        process = Process(popen, Path(log.name))
        self.started.append(process)
        return process

    def worker(self, queue: str, **extra: str) -> Process:
        """A ``celery -A config worker`` (solo pool) on ``queue``, reading the test database."""
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-Q", queue, "-n", f"{queue}-{uuid.uuid4().hex[:4]}@%h",
        ]  # fmt: skip
        return self.start("worker", command, self.environment(CELERY_TASK_DEFAULT_QUEUE=queue,
                                                              **extra))  # fmt: skip

    def app(self, **extra: str) -> str:
        """The app under gunicorn (production settings, 2 workers) on a free port: its URL."""
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        env = self.environment(
            DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0",
            SECURE_HSTS_SECONDS="0", CONN_MAX_AGE="60", LOG_LEVEL="WARNING", **extra,
        )  # fmt: skip
        process = self.start("gunicorn", [
            sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--bind", f"127.0.0.1:{port}", "--workers", "2", "--timeout", "30",
        ], env)  # fmt: skip
        url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            if not process.alive():
                pytest.fail(f"gunicorn exited:\n{process.log()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return True
            except OSError:
                return False

        wait_for(answers, 60, "gunicorn to listen")
        return url

    def stop_all(self) -> None:
        for process in self.started:
            process.stop()
        for process in self.started:
            process.log_path.unlink(missing_ok=True)


@pytest.fixture
def fault_services(require_postgres: None, require_redis: str,
                   transactional_db: None) -> Iterator[Processes]:  # fmt: skip
    """Processes on pytest-django's test database (rows the test commits are theirs to see)."""
    from django.db import connection

    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
        service_unavailable("needs a Redis broker: set CELERY_BROKER_URL=redis://…")
    processes = Processes(str(connection.settings_dict["NAME"]))
    try:
        yield processes
    finally:
        processes.stop_all()


@contextmanager
def tasks_to(queue: str) -> Iterator[None]:
    """Tasks sent from this process go through the broker to ``queue`` (not run eagerly)."""
    from config.celery import app

    eager, default = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager, app.conf.task_default_queue = False, queue
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = eager, default


# --- PostgreSQL itself ----------------------------------------------------------------------


@dataclass
class Cluster:
    version: str
    name: str

    def ctl(self, action: str, *options: str) -> None:
        subprocess.run(["pg_ctlcluster", *options, self.version, self.name, action], check=True,
                       timeout=120, capture_output=True)  # fmt: skip

    def online(self) -> bool:
        out = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout
        return any(line.split()[:2] == [self.version, self.name] and "online" in line
                   for line in out.splitlines())  # fmt: skip

    def ensure_online(self) -> None:
        if not self.online():
            self.ctl("start")
        wait_for(self.accepts, 60, "PostgreSQL to accept connections", step=0.3)

    def accepts(self) -> bool:
        import psycopg
        from django.db import connection

        params = connection.get_connection_params()
        try:
            psycopg.connect(**{**params, "connect_timeout": 2}).close()
        except psycopg.Error:
            return False
        return True


@pytest.fixture
def postgres_cluster(require_postgres: None) -> Iterator[Cluster]:
    """The local PostgreSQL cluster, to stop and start; it is running again after the test."""
    from django.db import connection

    if os.geteuid() != 0 or not shutil.which("pg_ctlcluster") or not shutil.which("pg_lsclusters"):
        service_unavailable("restarting PostgreSQL needs root and pg_ctlcluster (Debian)")
    port = str(connection.settings_dict.get("PORT") or 5432)
    host = str(connection.settings_dict.get("HOST") or "")
    if host not in ("", "localhost", "127.0.0.1", "::1"):
        service_unavailable(f"PostgreSQL at {host} is not this machine's to restart")
    out = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout
    found = [line.split() for line in out.splitlines() if line.split()[2:3] == [port]]
    if not found:
        service_unavailable(f"no local PostgreSQL cluster on port {port}")
    cluster = Cluster(found[0][0], found[0][1])
    try:
        yield cluster
    finally:
        cluster.ensure_online()
        from django.db import connections

        connections.close_all()  # this process's connection died with the server
