"""The WebSocket routes of the push (``config.asgi`` mounts them)."""

from django.urls import path

from tournaments.live.consumers import LiveConsumer

websocket_urlpatterns = [
    path("ws/live/queue/", LiveConsumer.as_asgi()),
    path("ws/live/<int:tournament>/", LiveConsumer.as_asgi()),
    path("ws/live/<int:tournament>/staff/", LiveConsumer.as_asgi(), {"staff": True}),
    path("ws/live/p/<str:token>/", LiveConsumer.as_asgi()),
]
