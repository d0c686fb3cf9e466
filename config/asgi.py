"""ASGI entry point: the pages and the API over HTTP, and the push (``tournaments.live``) over
WebSocket at ``/ws/``. Served by uvicorn (``make run``, and in production behind nginx).

WebSocket handshakes are checked like forms are: only from the site's own origins
(``ALLOWED_HOSTS``), so another site cannot open a socket with a visitor's session; the
session then says who the user is (``AuthMiddlewareStack``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django is set up before anything imports models (the consumers do).
http_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tournaments.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": http_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
