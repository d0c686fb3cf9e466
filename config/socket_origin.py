"""The origin check of the WebSocket handshakes (``config.asgi``), as Django checks a form's
``Origin``: the page that opens the socket must be this site's, same scheme, host and port.

    SameOrigin(app)     refuses (403, before the application sees it) a handshake whose
                        ``Origin`` is missing, or is not the address it was sent to, or whose
                        ``Host`` is not in ``ALLOWED_HOSTS``; ``CSRF_TRUSTED_ORIGINS`` (exact
                        ``scheme://host[:port]``) are also accepted

The address the socket was sent to is the request's ``Host`` header with the scheme of the
connection (``wss`` → ``https``; behind nginx uvicorn takes it from ``X-Forwarded-Proto``,
``--proxy-headers``). Channels' ``AllowedHostsOriginValidator`` compared the host only, so a
page on another port or over plain HTTP of the same host could open a socket with the visitor's
session (issue 25).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _normal(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of ``scheme://host[:port]``, or None for anything else."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def allowed(scope: dict[str, Any]) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1")
    host = headers.get(b"host", b"").decode("latin-1").lower()
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    seen = _normal(origin)
    if seen is None:
        return False
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    if seen == _normal(f"{scheme}://{host}"):
        return True
    return any(seen == _normal(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS)


class SameOrigin:
    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed(scope):
            await receive()  # the websocket.connect
            await send({"type": "websocket.close", "code": 1008})
            return None
        return await self.application(scope, receive, send)
