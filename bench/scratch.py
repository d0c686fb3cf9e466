"""A scratch PostgreSQL database for the benchmarks that need one.

    with scratch_database("bench_x", keep=False):
        ...  # Django set up against a fresh database beside the one DATABASE_URL names

Exits with a message when ``DATABASE_URL`` is not PostgreSQL. The database is created empty,
``DATABASE_NAME_OVERRIDE`` points Django's settings at it, and it is dropped at the end (unless
``keep``), after Django's connections are closed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def scratch_database(name: str, keep: bool = False) -> Iterator[str]:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL=postgres://… (a scratch database is created beside it)")
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    os.environ["DATABASE_NAME_OVERRIDE"] = name
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        yield name
    finally:
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not keep:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name}")
