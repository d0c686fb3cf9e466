"""The WebSocket end of the push: a page subscribes and hears ``{"part", "round"}``.

    /ws/live/<tournament>/          the public parts (standings, pairings, hall) of a tournament
                                    the visitor may see (``access.visible_tournaments``)
    /ws/live/<tournament>/staff/    its board and queue: its organisers and chief referees only
    /ws/live/queue/                 the chief's queue: the staff parts of every tournament the
                                    user judges
    any other /ws/ path             refused at the handshake (``refuse``)

The message is ``{"part", "round", "at"}`` (``at``: when the change was committed, for the
page to ask for data read after it). A subscription the user may not have is refused at the
handshake (the browser sees a failed connection, as for a missing tournament: nothing tells
which). The consumer only relays what ``announce`` sent; the page has nothing to say, so a
socket that sends anything is closed (1008), and uvicorn reads no message longer than
``config.push_server.WS_MAX_SIZE``.

Rights are not only checked at the handshake: every ``settings.LIVE_RECHECK_SECONDS`` the
socket reads its session again (a logout ends it) and the groups the user may join now; a
socket that may no longer hear all it joined (an appointment removed, a tournament made
private) is closed (4403), and the page falls back to polling its access-checked views.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from tournaments import access
from tournaments.live.announce import public_group, staff_group

#: the chief's queue follows at most this many running tournaments at once
QUEUE_TOURNAMENTS = 50
#: close codes: the page sent something; the user may no longer hear what it subscribed to
SENT_SOMETHING = 1008
NO_LONGER_ALLOWED = 4403
#: the largest tournament id a route accepts (a bigger one is no tournament, never a query)
MAX_ID = 2**31 - 1


def groups_for(user: Any, tournament_id: int | None, staff: bool) -> list[str] | None:
    """The groups the user may join for this subscription, or None when refused."""
    if tournament_id is not None and not 0 < tournament_id <= MAX_ID:
        return None
    if tournament_id is None:  # the queue
        if not getattr(user, "is_authenticated", False):
            return None
        ids = access.judged_tournaments(user).exclude(status="finished").order_by("-pk")
        return [staff_group(pk) for pk in ids.values_list("pk", flat=True)[:QUEUE_TOURNAMENTS]]
    if staff:
        if not access.judged_tournaments(user).filter(pk=tournament_id).exists():
            return None
        return [staff_group(tournament_id)]
    if not access.visible_tournaments(user).filter(pk=tournament_id).exists():
        return None
    return [public_group(tournament_id)]


def current_user(scope: dict[str, Any]) -> Any:
    """The user the socket's session names now (anonymous after a logout, a password change or
    the session's end), read afresh from the session store."""
    from importlib import import_module

    from django.contrib import auth
    from django.contrib.auth.models import AnonymousUser

    user = scope.get("user")
    if not getattr(user, "is_authenticated", False):
        return AnonymousUser()
    key = getattr(scope.get("session"), "session_key", None)
    if not key:
        return AnonymousUser()

    class Asking:  # what auth.get_user reads of a request
        session = import_module(settings.SESSION_ENGINE).SessionStore(key)

    found = auth.get_user(Asking())  # type: ignore[arg-type]
    return found if found.pk == user.pk else AnonymousUser()


def still_allowed(scope: dict[str, Any], tournament_id: int | None, staff: bool,
                  joined: list[str]) -> bool:  # fmt: skip
    user = current_user(scope)
    if getattr(scope.get("user"), "is_authenticated", False) and not user.is_authenticated:
        return False  # signed out: the page opens an anonymous socket if it may
    groups = groups_for(user, tournament_id, staff)
    if groups is None:
        return False
    # the queue: a tournament no longer judged is a group it may not hear (a new one waits for
    # the page's next socket)
    return set(joined) <= set(groups)


class LiveConsumer(AsyncWebsocketConsumer):
    joined: list[str]
    watcher: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.joined = []
        kwargs = self.scope["url_route"]["kwargs"]
        tournament = kwargs.get("tournament")
        self.tournament_id = int(tournament) if tournament is not None else None
        self.staff = bool(kwargs.get("staff"))
        groups = await database_sync_to_async(groups_for)(
            self.scope.get("user"), self.tournament_id, self.staff)  # fmt: skip
        if groups is None:
            await self.close()  # before accept: the handshake is refused (403)
            return
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.joined = groups
        await self.accept()
        self.watcher = asyncio.get_running_loop().create_task(self.recheck())

    async def recheck(self) -> None:
        every = float(settings.LIVE_RECHECK_SECONDS)
        check = database_sync_to_async(still_allowed)
        # spread: the sockets opened together do not all ask at once
        await asyncio.sleep(every * random.uniform(0.5, 1.0))
        while True:
            try:
                allowed = await check(self.scope, self.tournament_id, self.staff, self.joined)
            except Exception:  # noqa: BLE001 - the database is away: the next look decides
                allowed = True
            if not allowed:
                await self.leave()
                await self.close(NO_LONGER_ALLOWED)
                return
            await asyncio.sleep(every)

    async def leave(self) -> None:
        joined, self.joined = self.joined, []
        for group in joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.watcher is not None and self.watcher is not asyncio.current_task():
            self.watcher.cancel()
        await self.leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page has nothing to say: whoever sends something is not the page."""
        await self.leave()
        await self.close(SENT_SOMETHING)

    async def live_change(self, event: dict[str, Any]) -> None:
        if not self.joined:  # closing: hears nothing more
            return
        await self.send(
            text_data=json.dumps(
                {"part": event["part"], "round": event["round"], "at": event.get("at")}
            )
        )


class Refused(AsyncWebsocketConsumer):
    """Any /ws/ path that is no subscription: the handshake is refused (403), as for a
    subscription the user may not have, with no error logged."""

    async def connect(self) -> None:
        await self.close()
