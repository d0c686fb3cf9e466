"""ASGI entry point: the pages and the API over HTTP, and the push (``tournaments.live``) over
WebSocket at ``/ws/``. Served by uvicorn (``make run``, and in production behind nginx).

``/live-read/`` (``tournaments.results.reread``) is answered before Django's request handling:
the standings a page re-reads when told they changed, from the cache, with no middleware and no
worker thread held (in production nginx sends that prefix to this process, not to gunicorn).

WebSocket handshakes are checked like forms are: only from the site's own origin (scheme, host
and port, ``config.sockets``), so another site cannot open a socket with a visitor's session;
the session then says who the user is (``AuthMiddlewareStack``); an unknown path is refused.
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django is set up before anything imports models (the consumers do).
http_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from config.sockets import websocket_application  # noqa: E402
from tournaments.live.routing import websocket_urlpatterns  # noqa: E402
from tournaments.results import reread  # noqa: E402


async def http_or_reread(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["path"].startswith(reread.PREFIX):
        await reread.application(scope, receive, send)
    else:
        await http_application(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": http_or_reread,
        "websocket": websocket_application(websocket_urlpatterns),
    }
)
