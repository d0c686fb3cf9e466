"""Announcing a change: which part of which tournament's pages, sent to the channel layer once
the transaction that made it commits.

    announce(tournament_id, part, round_id=None)
    flush(timeout=2.0) -> bool       wait until what was announced has been sent (tests, bench)
    recheck(*groups)                 the sockets of these groups check their rights again
    public_group(id), staff_group(id), user_group(id)   the layer's group names

Announcing never breaks the request that made the change: a layer that is down is logged and
the pages fall back to polling. With Redis (several web processes) the announcements of one
process are sent by one thread with its own event loop, at most one batch every
``LIVE_COALESCE_SECONDS``, what is announced meanwhile gathered: a hall of 100 referees
recording deals makes a few messages a second per group, not one per deal, and the request
that recorded a deal never waits for Redis. After a quiet interval the first announcement goes
at once (``GATHER``): a lone confirmation does not wait the interval. The same thread renders
the fragments the messages carry (``content.attach``: the standings table once per language,
for the public group of a public tournament) before sending them. The in-process layer of
the embedded mode is sent to at once from the request's own thread, since its queues belong to
the server's event loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import close_old_connections, transaction

from tournaments.live import content

logger = logging.getLogger(__name__)

#: the parts of pages a change may concern; ``board`` and ``queue`` are for the tournament's
#: organisers and chief referees only
PARTS = ("standings", "pairings", "hall", "board", "queue")
#: how long the sender waits after a quiet interval before sending: one commit announces a few
#: parts one after another (a confirmation: board, queue, standings, hall)
GATHER = 0.02
STAFF_PARTS = frozenset({"board", "queue"})


def public_group(tournament_id: int) -> str:
    return f"live.t{tournament_id}"


def staff_group(tournament_id: int) -> str:
    return f"live.t{tournament_id}.staff"


def user_group(user_id: int) -> str:
    """The sockets of one signed-in user (told to check again when they sign out)."""
    return f"live.u{user_id}"


def recheck(*groups: str, after: float = 0.0) -> None:
    """Tell the sockets of ``groups`` to check their rights again (who may see or judge a
    tournament changed) ``after`` seconds; sent after the current transaction commits."""
    message = {"type": "live.recheck", "part": "recheck", "round": None, "after": after}
    for group in groups:
        transaction.on_commit(lambda group=group: _sender().put(group, message))


def announce(tournament_id: int, part: str, round_id: int | None = None) -> None:
    """Say that ``part`` of the tournament's pages changed; sent after the current transaction
    commits (at once outside one), never if it rolls back."""
    if part not in PARTS:
        raise ValueError(f"unknown live part {part!r}")  # a bug, not a user's error
    public = part not in STAFF_PARTS
    group = public_group(tournament_id) if public else staff_group(tournament_id)
    # "at": when the change was committed; a page re-reading a part asks for data read after it.
    # "tournament" and "public" say whose fragment ``content.attach`` may render: never sent on
    transaction.on_commit(lambda: _sender().put(group, {
        "type": "live.change", "part": part, "round": round_id, "at": time.time(),
        "tournament": tournament_id, "public": public}))  # fmt: skip


def flush(timeout: float = 2.0) -> bool:
    """Wait until everything announced so far has been sent; False if it took too long."""
    return _sender().wait_idle(timeout)


class _Sender:
    """Gathers (group, part, round) announcements and sends each once per interval."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.pending: dict[tuple[str, str, Any], dict[str, Any]] = {}
        self.busy = False
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None

    def put(self, group: str, message: dict[str, Any]) -> None:
        try:
            layer = get_channel_layer()
        except Exception:  # noqa: BLE001 - a misconfigured layer must not break the request
            logger.exception("live: no channel layer")
            return
        if layer is None:
            return
        if isinstance(layer, InMemoryChannelLayer):
            _send_now(layer, group, content.attach(message))
            return
        with self.lock:
            self.pending[(group, message["part"], message["round"])] = message
            self._start()
        self.wake.set()

    def _start(self) -> None:
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._run, name="live-announcer", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        # the loop runs only while sending: the fragments are rendered (database, templates)
        # outside it, in this thread, with this thread's own database connection
        loop = asyncio.new_event_loop()
        interval = float(getattr(settings, "LIVE_COALESCE_SECONDS", 0.3))
        sent = 0.0
        try:
            while True:
                self.wake.wait(30)
                self.wake.clear()
                # at most one batch per interval: what is announced meanwhile is gathered (one
                # message per group and part); after a quiet interval the first goes at once,
                # with what its own commit announces besides (GATHER)
                time.sleep(max(GATHER, sent + interval - time.monotonic()))
                sent = time.monotonic()
                with self.lock:
                    batch, self.pending = self.pending, {}
                    self.busy = bool(batch)
                try:
                    messages = [(group, content.attach(message))
                                for (group, _part, _round), message in batch.items()]  # fmt: skip
                    loop.run_until_complete(_send_all(messages))
                except Exception:  # noqa: BLE001 - Redis down: the pages poll meanwhile
                    logger.warning("live: could not send %d announcements", len(batch),
                                   exc_info=True)  # fmt: skip
                finally:
                    close_old_connections()
                    with self.lock:
                        self.busy = False
        finally:
            loop.close()

    def wait_idle(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if not self.pending and not self.busy:
                    return True
            time.sleep(0.02)
        return False


async def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    for group, message in messages:
        await layer.group_send(group, message)


def _send_now(layer: Any, group: str, message: dict[str, Any]) -> None:
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - never break the request that made the change
        logger.warning("live: could not send to %s", group, exc_info=True)


_sender_instance: _Sender | None = None
_sender_lock = threading.Lock()


def _sender() -> _Sender:
    """The process's sender; a forked process (a pre-forking server) makes its own thread."""
    global _sender_instance
    with _sender_lock:
        if _sender_instance is None or _sender_instance.pid != os.getpid():
            _sender_instance = _Sender()
        return _sender_instance
