"""The WebSocket routes of the push (``config.asgi`` mounts them); anything else under the
socket's address is refused at the handshake rather than failing (500) in the router."""

from django.urls import path, re_path

from tournaments.live.consumers import LiveConsumer, Refused

websocket_urlpatterns = [
    path("ws/live/queue/", LiveConsumer.as_asgi()),
    path("ws/live/<int:tournament>/", LiveConsumer.as_asgi()),
    path("ws/live/<int:tournament>/staff/", LiveConsumer.as_asgi(), {"staff": True}),
    re_path(r"", Refused.as_asgi()),
]
