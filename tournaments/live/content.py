"""What a pushed message carries: the changed fragment itself, rendered once per language by the
process that announced the change, so that spectators need not ask for it.

    register(part, key, render)      a fragment a part's change carries to the public group
                                     (``tournaments.apps`` registers the live standings table)
    attach(message) -> message       the group's message with its ready-made frames
    max_bytes()                      ``settings.LIVE_PUSH_MAX_BYTES`` (default 256 KiB): a
                                     message that would be larger (UTF-8, with its fragment)
                                     does not carry it; the page is told to fetch it

``render(tournament, since) -> (html, version)`` renders in the active language what *every*
visitor of the tournament's public pages sees (it must depend on nobody's rights: the same html
goes to every socket of the group), read after ``since``; ``version`` is when the state it
shows was read (``results.display.Results.as_of``).

**Only what anyone may see is carried.** Content is attached to the public group
(``live.t<id>``) only, and only when the tournament is public (``access.visible_tournaments``
of an anonymous visitor) and the round the change concerns, if any, is published: the check is
made when rendering, just before sending. A private tournament's public group (its organisers,
chief referees and personal links) and every staff group hear only ``{"part", "round", "at"}``
and read through their own access-checked views, as before. Rendered per audience, never per
user: a signed-in organiser on a public page gets the public table, as a visitor would.

The group's message gets ``frames``: language code → the UTF-8 JSON a socket of that language
sends as it is, a *binary* frame (encoded once by the sender: the push process copies the same
bytes to every socket, with no per-socket encoding), and ``""`` → the text message without
content (a socket of another language, or one whose message would be over ``max_bytes()``).
The JSON a page receives is then

    {"part": "standings", "round": 12, "at": 1733412345.12,      # as before
     "key": "standings", "v": 1733412345.31, "html": "<p class=…>…</table>…"}

``key`` names the fragment (a page applies it only where its ``data-live-key`` is the same),
``v`` its version (a page never swaps in a fragment older than the one it shows).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from tournaments import access
from tournaments.models import Round, Tournament

logger = logging.getLogger(__name__)

Render = Callable[[Tournament, float], tuple[str, float]]

#: part -> (fragment key, how to render it)
_RENDERERS: dict[str, tuple[str, Render]] = {}


def register(part: str, key: str, render: Render) -> None:
    _RENDERERS[part] = (key, render)


def max_bytes() -> int:
    """``LIVE_PUSH_MAX_BYTES``; 0 carries nothing (every page fetches, as before issue 31)."""
    return int(getattr(settings, "LIVE_PUSH_MAX_BYTES", 0))


def _public(tournament_id: int, round_id: int | None) -> Tournament | None:
    """The tournament when anyone may see it and the round (if any) is published."""
    tournament = access.visible_tournaments(AnonymousUser()).filter(pk=tournament_id).first()
    if tournament is None:
        return None
    if round_id is not None and not Round.objects.filter(
        pk=round_id, tournament_id=tournament_id, status__in=access.PUBLISHED
    ).exists():
        return None
    return tournament


def attach(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with the frames of its fragment when it carries one (see the module's
    docstring); unchanged otherwise, and whenever rendering fails (the pages fetch)."""
    found = _RENDERERS.get(message.get("part", ""))
    tournament_id = message.get("tournament")
    limit = max_bytes()
    if found is None or tournament_id is None or not message.get("public") or limit <= 0:
        return message
    key, render = found
    head = {"part": message["part"], "round": message["round"], "at": message.get("at")}
    try:
        tournament = _public(int(tournament_id), message["round"])
        if tournament is None:
            return message
        frames: dict[str, str | bytes] = {"": json.dumps(head)}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                html, version = render(tournament, float(message.get("at") or 0))
            frame = json.dumps({**head, "key": key, "v": version, "html": html},
                               ensure_ascii=False).encode()  # fmt: skip
            if len(frame) <= limit:  # a larger message: the page fetches it
                frames[code] = frame
    except Exception:  # noqa: BLE001 - the change is saved; the pages fetch it as before
        logger.warning("live: could not render %s of %s", key, tournament_id, exc_info=True)
        return message
    return {**message, "frames": frames}
