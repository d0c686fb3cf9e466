"""The WebSocket end of the push: a page subscribes and hears ``{"part", "round"}``, with the
changed fragment itself where one is carried (``content``).

    /ws/live/<tournament>/          the public parts (standings, pairings, hall) of a tournament
                                    the visitor may see (``access.visible_tournaments``)
    /ws/live/<tournament>/staff/    its board and queue: its organisers and chief referees only
    /ws/live/queue/                 the chief's queue: the staff parts of every tournament the
                                    user judges
    /ws/live/p/<token>/             the public parts of the tournament of the entry whose
                                    personal link this is (``tournaments.personal``), for its
                                    holder, with or without an account, public or not: a
                                    private one's messages carry no data, and the personal
                                    page re-reads through the key (it has no ``data-live-key``)

The message is ``{"part", "round", "at"}`` (``at``: when the change was committed, for the
page to ask for data read after it), and on a public tournament's public group, for a part
whose fragment is carried, ``{"part", "round", "at", "key", "v", "html"}`` in the language the
socket was opened with (``?lang=``; ``content`` says what and when), as a binary frame of
UTF-8 JSON. The frames come encoded from the sender: a consumer picks its language's and sends
it as it is.

A subscription the user may not have is refused at the handshake (the browser sees a failed
connection, as for a missing tournament: nothing tells which). The consumer only relays what
``announce`` sent, and accepts nothing from the page: a socket that sends anything is closed
(1008).

**Rights are checked again while the socket lives**, so a socket outlives no right it was
opened with: when told (``announce.recheck``: the user signed out, the tournament's visibility,
organisers or chief referees changed) and every ``LIVE_RECHECK_SECONDS`` in any case (a role
taken away in the admin; the anonymous sockets of one tournament's public pages share one
periodic check a second at most per process, since they may all see the same). The user is
read again from the socket's session (signed out: an anonymous visitor); a subscription no
longer allowed is closed (4403), and the page falls back to what it may still see on reload.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from importlib import import_module
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qsl

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser

from tournaments import access
from tournaments.live.announce import public_group, staff_group, user_group
from tournaments.models import Entry

#: the chief's queue follows at most this many running tournaments at once
QUEUE_TOURNAMENTS = 50


#: what a personal link's key looks like (``Entry.token``); anything else is not looked up
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,32}$")


def groups_for(user: Any, tournament_id: int | None, staff: bool,
               token: str | None = None) -> list[str] | None:  # fmt: skip
    """The groups the user may join for this subscription, or None when refused."""
    if token is not None:  # a renewed key closes the sockets of the old one at their recheck
        found = (Entry.objects.filter(token=token).values_list("tournament_id", flat=True)
                 .first() if TOKEN.match(token) else None)  # fmt: skip
        return None if found is None else [public_group(found)]
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
    """The socket's user as its session says now (signed out or session gone: anonymous)."""
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if not key:
        return AnonymousUser()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    return auth.get_user(SimpleNamespace(session=store(session_key=key)))  # type: ignore[arg-type]


#: tournament -> (when, allowed) of the last rights check of an anonymous socket on its public
#: page; the periodic checks of the others within ``_shared_for()`` reuse it
_ANONYMOUS_CHECKS: dict[int, tuple[float, bool]] = {}


def _shared_for() -> float:
    """How long anonymous sockets of one tournament share a periodic check: 5,000 of them each
    asking the database every ``LIVE_RECHECK_SECONDS`` cost the push processes 0.4 s of CPU a
    second (``bench/load_push.py``); a told recheck (a tournament made private) never shares."""
    return min(1.0, float(getattr(settings, "LIVE_RECHECK_SECONDS", 10)) / 4)


def language_of(scope: dict[str, Any]) -> str:
    """The page's language (``?lang=``, which ``live.js`` adds from ``<html lang>``): the
    frame it gets of a pushed fragment; none of the site's: fragments are fetched."""
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"))[:5])
    language = query.get("lang", "")
    return language if language in dict(settings.LANGUAGES) else ""


class LiveConsumer(AsyncWebsocketConsumer):
    joined: list[str]
    language = ""
    watch: asyncio.Task[None] | None = None

    def _asked(self) -> tuple[int | None, bool, str | None]:
        kwargs = self.scope["url_route"]["kwargs"]
        tournament = kwargs.get("tournament")
        return ((int(tournament) if tournament is not None else None), bool(kwargs.get("staff")),
                kwargs.get("token"))  # fmt: skip

    async def connect(self) -> None:
        self.joined = []
        self.language = language_of(self.scope)
        tournament, staff, token = self._asked()
        user = self.scope.get("user")
        groups = await database_sync_to_async(groups_for)(user, tournament, staff, token)
        if groups is None:
            await self.close()  # before accept: the handshake is refused (403)
            return
        if getattr(user, "is_authenticated", False):
            groups = [*groups, user_group(user.pk)]
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.joined = groups
        await self.accept()
        self.watch = asyncio.get_running_loop().create_task(self._watch())

    async def disconnect(self, code: int) -> None:
        if self.watch is not None:
            self.watch.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page has nothing to say: a socket that speaks is not one of our pages."""
        await self.close(code=1008)

    async def _watch(self) -> None:
        every = float(getattr(settings, "LIVE_RECHECK_SECONDS", 30))
        while True:
            # spread: a hall's sockets, opened together, do not check together
            await asyncio.sleep(every * random.uniform(0.8, 1.2))
            await self.live_recheck({})

    async def live_recheck(self, event: dict[str, Any]) -> None:
        if event.get("after"):  # signing out: the session is flushed just after the signal
            await asyncio.sleep(float(event["after"]))
        tournament, staff, token = self._asked()

        def allowed() -> list[str] | None:
            return groups_for(current_user(self.scope), tournament, staff, token)

        # a socket without a session on a tournament's public page: whatever may be seen by
        # one such socket may be seen by all of them (anonymous visitors alike)
        anonymous = (tournament is not None and not staff and token is None
                     and not getattr(self.scope.get("session"), "session_key", None))  # fmt: skip
        seen = _ANONYMOUS_CHECKS.get(tournament) if anonymous and not event else None
        now = time.monotonic()
        if seen is not None and now - seen[0] < _shared_for():
            groups = [public_group(tournament)] if seen[1] else None  # type: ignore[arg-type]
        else:
            groups = await database_sync_to_async(allowed)()
            if anonymous:
                _ANONYMOUS_CHECKS[tournament] = (now, groups is not None)  # type: ignore[index]
        mine = [g for g in self.joined if not g.startswith("live.u")]
        lost = [g for g in mine if groups is None or g not in groups]
        if groups is None or ((tournament is not None or token is not None) and lost):
            await self.close(code=4403)
            return
        for group in lost:  # the queue: a tournament the user no longer judges
            await self.channel_layer.group_discard(group, self.channel_name)
            self.joined.remove(group)
        for group in set(groups) - set(mine):  # the queue: a newly judged tournament
            await self.channel_layer.group_add(group, self.channel_name)
            self.joined.append(group)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A pushed change goes straight to its handler. Channels closes stale database
        connections before every handler: a hop to the process's one thread for synchronous
        code and, with ``CONN_HEALTH_CHECKS``, a query, per socket and message. 5,000 sockets
        queued 5,000 of them behind one thread for each change (``bench/load_push.py``), for a
        handler that reads no database; the handlers that do read it go through
        ``database_sync_to_async``, which closes them itself."""
        if message.get("type") == "live.change":
            await self.live_change(message)
            return
        await super().dispatch(message)

    async def live_change(self, event: dict[str, Any]) -> None:
        frames = event.get("frames")
        if frames:  # encoded once by the sender (``content.attach``): sent as it is
            frame = frames.get(self.language) or frames[""]
            if isinstance(frame, bytes):  # UTF-8 JSON carrying a fragment: a binary frame
                await self.send(bytes_data=frame)
            else:
                await self.send(text_data=frame)
            return
        await self.send(text_data=json.dumps(
            {"part": event["part"], "round": event["round"], "at": event.get("at")}))
