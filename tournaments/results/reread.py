"""The standings table a page re-reads after a pushed change, answered by the push process
(uvicorn, ``config.asgi``) from the cache alone: no Django middleware, no sync worker.

    GET /live-read/<tournament>/standings/?since=<at>&lang=<code>[&round=…][&scope=…]
        200  the table's html as the standings view cached it, computed after ``since``
             (``X-Live-Version``: when its computation began)
        204  nothing that fresh (yet): read the page's own view (``?fragment=1&since=``)
        400  a missing or bad parameter      404  no public tournament of that id
        405  not GET or HEAD
        503  ``settings.LIVE_READERS_MAX`` readers already wait in this process (``Retry-After``)

    application(scope, receive, send)      the ASGI app of PREFIX (``config.asgi`` routes it)
    read_url(tournament, query, language)  the address the standings page gives its script

Why: told that the standings changed, 500 phones re-read them at once. Through gunicorn each
read held a sync worker (most of them sleeping while one computed the table), and the referees
queued behind them. Here a read costs an await; the table is still computed by the Django view
only (``display.cached_results_table``), by one reader per change: the first reader that finds
nothing fresh and nobody computing is answered 204 at once and asks the view, the others wait
here (asynchronously, up to ``READ_WAIT``) for the table it computes.

Nobody reads what is not theirs: only public tournaments are served (what everyone may see,
``access.visible_tournaments``), and whether the tournament is public is read from the database
for each batch of readers, by a query that begins after each of them arrived, so a tournament
made private is refused from that commit on. Anything else falls back to the Django view, which
knows who asks. The cached html is the same for every visitor (the view caches it per table
and language, never per user); ``lang`` picks the language's copy. Must not write anything but
the one-reader-per-change mark in the cache.

Bounded: the readers waiting in one process are at most ``settings.LIVE_READERS_MAX`` (more
are answered 503 at once, and the page asks its view), and their looks run in a thread of their
own (``_LOOKS``), not in the one the WebSocket handshakes read the session and rights in: 1,000
idle readers used to queue every handshake of the process behind their looks (7 ms became
2.7–3.6 s, issue 25; ``bench/push_handshake.py``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache

from tournaments.models import Tournament
from tournaments.results import display

logger = logging.getLogger(__name__)

PREFIX = "/live-read/"
PATH = re.compile(r"^/live-read/(\d{1,9})/standings/$")
#: how long a reader waits for the table another reader's request is computing
READ_WAIT = display.COMPUTE_WAIT
#: how often a waiting reader looks again (each look is shared by the readers waiting then)
LOOK_EVERY = 0.05
#: how long the reader sent to the Django view has to get the table computing before another
#: one is sent (the first may have closed its page)
SEND_AGAIN = 1.5
MAX_QUERY = 1000
#: what a reader refused for the cap is told to wait before asking again (seconds)
RETRY_AFTER = 2
HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'"),
]


@dataclass(frozen=True)
class Where:
    tournament: int
    round: str
    scope: str
    language: str


@dataclass
class Look:
    """What one look at the database and the cache found, for the readers of a batch."""

    public: bool
    html: str | None = None
    started: float = 0.0  # when the computation of ``html`` began (it counts changes before)
    computing: bool = False
    sent: bool = False  # this batch's most demanding reader is the one to ask the Django view


def read_url(tournament: Tournament, query: Any, language: str) -> str:
    """The page's address of its re-read: its own ``?round=&scope=`` as it wrote them (the
    cache remembers which table they meant in its language) and the language it was shown in."""
    params = [(name, query[name]) for name in ("round", "scope") if query.get(name)]
    return f"{PREFIX}{tournament.pk}/standings/?{urlencode([*params, ('lang', language)])}"


def _look(where: Where, since: float) -> Look:
    """One query and a few cache reads; ``since`` is the latest time a reader of the batch asked
    for. Runs in a thread (``database_sync_to_async``)."""
    created = (Tournament.objects.filter(pk=where.tournament, public=True)
               .values_list("created_at", flat=True).first())  # fmt: skip
    if created is None:
        return Look(public=False)
    asked = display.asked_key(where.tournament, created.timestamp(), where.round, where.scope,
                              where.language)  # fmt: skip
    base = cache.get(asked)
    latest = cache.get(base + ":latest") if base else None
    look = Look(public=True)
    if latest is not None:
        look.html = cache.get(latest[0] + ":html")
        if look.html is None and float(latest[1]) >= since:
            # computed, its html being rendered (the view caches it just after): wait for it
            look.computing = True
            return look
        look.started = float(latest[1]) if look.html is not None else 0.0
    if look.started >= since:
        return look
    look.computing = bool(base) and cache.get(base + ":computing") is not None
    if not look.computing:
        # one reader per state of the cache: a new table (or none) lets the next one go
        state = repr(latest[1]) if latest is not None else "none"
        look.sent = cache.add(f"{asked}:reread:{state}", 1, SEND_AGAIN)
    return look


class _Batches:
    """Readers of the same table arriving together share one look.

    A batch closes before its look begins: every reader it answers arrived before the query
    that says whether the tournament is public (so none is answered from a state older than
    its own request)."""

    def __init__(self) -> None:
        self.open: dict[tuple[Any, Where], list[tuple[asyncio.Future[Look], float]]] = {}
        self.running: set[asyncio.Task[None]] = set()

    async def look(self, where: Where, since: float) -> tuple[Look, bool]:
        """The look of this reader's batch, and whether this reader is the one it sends."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Look] = loop.create_future()
        key = (loop, where)
        readers = self.open.get(key)
        if readers is None:
            readers = self.open[key] = []
            task = loop.create_task(self._run(key, readers))
            self.running.add(task)
            task.add_done_callback(self.running.discard)
        readers.append((future, since))
        found = await future
        sent = found.sent and readers[0][0] is future
        return found, sent

    async def _run(self, key: tuple[Any, Where],
                   readers: list[tuple[asyncio.Future[Look], float]]) -> None:  # fmt: skip
        await asyncio.sleep(0)  # the readers arriving in this turn of the loop join
        del self.open[key]
        # the most demanding reader first: it is the one sent to the view, if any is
        readers.sort(key=lambda reader: -reader[1])
        try:
            found = await _look_async(key[1], readers[0][1])
        except Exception as exc:  # noqa: BLE001 - each reader answers 204 and asks the view
            for future, _since in readers:
                future.set_exception(exc)
            return
        for future, _since in readers:
            future.set_result(found)


_batches = _Batches()
#: the looks' own thread (one: a look is a query and a few cache reads, and one database
#: connection per process is enough for all of them)
_LOOKS = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="live-read")
_look_async = database_sync_to_async(_look, thread_sensitive=False, executor=_LOOKS)


class _Waiting:
    """How many readers wait in this process (one event loop per process: no lock needed)."""

    count = 0


async def fresh_html(where: Where, since: float) -> tuple[int, str, float]:
    """(200, html, version) of a table computed after ``since`` (the version: when its
    computation began); (204, "", 0) to read the view instead; (404, "", 0) when the tournament
    is not public."""
    deadline = time.monotonic() + READ_WAIT
    while True:
        found, sent = await _batches.look(where, since)
        if not found.public:
            return 404, "", 0.0
        if found.html is not None and found.started >= since:
            return 200, found.html, found.started
        if sent or time.monotonic() >= deadline:
            return 204, "", 0.0
        # on the loop's grid of LOOK_EVERY: the readers of a table waiting together wake in
        # the same turn and share one look, however many they are and whenever they came
        now = asyncio.get_running_loop().time()
        await asyncio.sleep(LOOK_EVERY - now % LOOK_EVERY)


def parse(path: str, query_string: bytes) -> tuple[Where, float] | tuple[int, str]:
    """The table and ``since`` a request asks for, or (status, reason) refusing it."""
    match = PATH.match(path)
    if match is None:
        return 404, "Not found."
    if len(query_string) > MAX_QUERY:
        return 400, "The query is too long."
    try:
        # as Django reads a query (the last value of a name counts), so that the cache key is
        # the one the standings view wrote for the same ?round=&scope=
        query = dict(parse_qsl(query_string.decode("latin-1"), keep_blank_values=True,
                               encoding="utf-8", errors="replace", max_num_fields=20))  # fmt: skip
    except ValueError:
        return 400, "Too many parameters."
    try:
        since = float(query.get("since", ""))
    except ValueError:
        return 400, "since: the time of the change (seconds) is required."
    if not math.isfinite(since) or since <= 0:
        return 400, "since: the time of the change (seconds) is required."
    language = query.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        return 400, "lang: one of the site's languages is required."
    # a later time would only keep the readers waiting for a table nobody computes
    since = min(since, time.time())
    return Where(int(match[1]), query.get("round", ""), query.get("scope", ""), language), since


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI app of ``PREFIX`` (HTTP only)."""
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, scope, 405, b"Only GET.", [(b"allow", b"GET, HEAD")])
        return
    asked = parse(scope["path"], scope.get("query_string", b""))
    if isinstance(asked[0], int):
        await _answer(send, scope, int(asked[0]), str(asked[1]).encode())
        return
    where, since = asked
    assert isinstance(where, Where) and isinstance(since, float)
    if _Waiting.count >= settings.LIVE_READERS_MAX:
        retry = [(b"retry-after", str(RETRY_AFTER).encode())]
        await _answer(send, scope, 503, b"Too many readers; try again.", retry)
        return
    _Waiting.count += 1
    try:
        status, html, version = await fresh_html(where, since)
    except Exception:  # noqa: BLE001 - the database or the cache is away: the view answers
        logger.warning("live read: no look at %s", where, exc_info=True)
        status, html, version = 204, "", 0.0
    finally:
        _Waiting.count -= 1
    if status == 200:
        # the page keeps the newest of what it was pushed and what it read (its version)
        version_header = [(b"x-live-version", repr(version).encode())]
        await _answer(send, scope, 200, html.encode(), version_header, html=True)
    else:
        await _answer(send, scope, status, b"Not found." if status == 404 else b"")


async def _answer(send: Any, scope: dict[str, Any], status: int, body: bytes,
                  extra: list[Any] | None = None, html: bool = False) -> None:  # fmt: skip
    kind = b"text/html; charset=utf-8" if html else b"text/plain; charset=utf-8"
    headers = [*HEADERS, *(extra or [])]
    if status != 204:  # 204: no body, no length
        headers += [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    body = b"" if status == 204 or scope["method"] == "HEAD" else body
    await send({"type": "http.response.body", "body": body})
