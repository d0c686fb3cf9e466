"""The guard in front of every WebSocket route (``config.asgi``): which handshakes reach a
consumer at all.

    websocket_application(routes)   the ASGI app of the ``websocket`` protocol
    same_origin(scope) -> bool      the page that opens the socket is this site's own

Why each part:

- **Same origin, exactly.** A browser sends the page's origin with the handshake; another site's
  page (or this host on another port or scheme: another program on the same machine) must not
  open a socket with a visitor's session. The origin's scheme, host and port must be those the
  request reached (the ``Host`` header, ``ws``→``http``, ``wss``→``https``; behind nginx uvicorn
  takes the scheme from ``X-Forwarded-Proto``), or one of ``CSRF_TRUSTED_ORIGINS``; the host must
  also be allowed (``ALLOWED_HOSTS``, Channels' validator). Channels' own validator compares the
  host only.
- **Unknown paths are refused cleanly** (a close before accept: 403), where the router alone
  answered a 500 with a traceback.
- What a socket may send, and its size, are the consumers' and the server's: the pages send
  nothing (``tournaments.live.consumers`` closes a socket that does), and uvicorn is started with
  ``--ws-max-size`` (``WS_MAX_SIZE`` bytes: Makefile, deploy files, the tests' server).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.conf import settings
from django.urls import re_path

#: the largest frame the push server reads (uvicorn ``--ws-max-size``): the pages send nothing
WS_MAX_SIZE = 4096

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_tuple(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    # an origin is scheme://host[:port] and nothing else (what browsers send): anything more
    # is no page's origin
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        return None
    return parts.scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[parts.scheme]


def same_origin(scope: dict[str, Any]) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin")
    if origin is None:
        # not a browser (a browser always sends it): no visitor's session to misuse; Channels'
        # validator decides as before
        return True
    theirs = _origin_tuple(origin.decode("latin-1"))
    if theirs is None:
        return False
    trusted = {_origin_tuple(url) for url in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if theirs in trusted:
        return True
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    host = headers.get(b"host", b"").decode("latin-1")
    return theirs == _origin_tuple(f"{scheme}://{host}")


class SameOriginValidator:
    """Refuses a handshake from another origin (scheme, host and port compared)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


class UnknownPath(AsyncWebsocketConsumer):
    """Any ``/ws/`` path no route names: refused at the handshake."""

    async def connect(self) -> None:
        await self.close()


def websocket_application(routes: list[Any]) -> Any:
    return SameOriginValidator(AllowedHostsOriginValidator(AuthMiddlewareStack(
        URLRouter([*routes, re_path(r"", UnknownPath.as_asgi())]))))  # fmt: skip
