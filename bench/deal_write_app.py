"""The WSGI application that ``bench/deal_write.py`` serves with gunicorn: the project's own
(``config.wsgi``, of whichever tree gunicorn runs in) with the number of database queries each
request made in an ``X-Bench-Queries`` answer header; with ``BENCH_PROFILE=<path>`` a cProfile
of every deal written (``POST …/deals/``), saved to ``<path>.<pid>`` when the worker exits.

Counting is a database execute wrapper (one Python call per query, a few microseconds a
request, the same for both trees). Like Django's ``CaptureQueriesContext`` it counts the
statements sent through a cursor (savepoints too), not the driver's own BEGIN and COMMIT.
This module must not touch ``sys.path``: it runs inside the old tree's gunicorn too.
"""

from __future__ import annotations

import atexit
import cProfile
import os
import time
from typing import Any

from django.db import connections

from config.wsgi import application as project

PROFILE = os.environ.get("BENCH_PROFILE", "")
# The CPU time of the request's thread, not wall time: waiting for PostgreSQL costs no CPU.
# Each call then costs a clock reading, which inflates the totals: compare the shares.
_profiler = cProfile.Profile(time.thread_time) if PROFILE else None
if _profiler is not None:
    atexit.register(lambda: _profiler.dump_stats(f"{PROFILE}.{os.getpid()}"))


def application(environ: dict[str, Any], start_response: Any) -> Any:
    count = 0

    def counter(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal count
        count += 1
        return execute(sql, params, many, context)

    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        return start_response(status, [*headers, ("X-Bench-Queries", str(count))], exc_info)

    with connections["default"].execute_wrapper(counter):
        if _profiler is None or environ.get("REQUEST_METHOD") != "POST" \
                or not environ.get("PATH_INFO", "").endswith("/deals/"):
            return project(environ, start)
        _profiler.enable()
        try:
            return project(environ, start)
        finally:
            _profiler.disable()
