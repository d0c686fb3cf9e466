"""The WebSocket end of the push: a page subscribes and hears ``{"part", "round"}``.

    /ws/live/<tournament>/          the public parts (standings, pairings, hall) of a tournament
                                    the visitor may see (``access.visible_tournaments``)
    /ws/live/<tournament>/staff/    its board and queue: its organisers and chief referees only
    /ws/live/queue/                 the chief's queue: the staff parts of every tournament the
                                    user judges

The message is ``{"part", "round", "at"}`` (``at``: when the change was committed, for the
page to ask for data read after it). A subscription the user may not have is refused at the
handshake (the browser sees a failed connection, as for a missing tournament: nothing tells
which). The consumer only relays what
``announce`` sent; it reads nothing else and accepts nothing from the page.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tournaments import access
from tournaments.live.announce import public_group, staff_group

#: the chief's queue follows at most this many running tournaments at once
QUEUE_TOURNAMENTS = 50


def groups_for(user: Any, tournament_id: int | None, staff: bool) -> list[str] | None:
    """The groups the user may join for this subscription, or None when refused."""
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


class LiveConsumer(AsyncWebsocketConsumer):
    joined: list[str]

    async def connect(self) -> None:
        self.joined = []
        kwargs = self.scope["url_route"]["kwargs"]
        tournament = kwargs.get("tournament")
        groups = await database_sync_to_async(groups_for)(
            self.scope.get("user"), int(tournament) if tournament is not None else None,
            bool(kwargs.get("staff")),
        )  # fmt: skip
        if groups is None:
            await self.close()  # before accept: the handshake is refused (403)
            return
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.joined = groups
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page has nothing to say; what it sends is ignored."""

    async def live_change(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(
            {"part": event["part"], "round": event["round"], "at": event.get("at")}))
