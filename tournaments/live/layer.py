"""The channel layer of the push with Redis (``settings.CHANNEL_LAYERS``): channels-redis'
publish/subscribe layer, decoding each message once per process instead of once per socket.

Why: the layer hands the very same bytes of a group message to every socket of the group in
the process, and each socket's consumer decoded them again (msgpack). With the standings table
inside the message (about 110 KB per language for 200 entries, issue 31) that was some 50 µs a
socket: a quarter of a second of one process's time for 5,000 sockets, for every change. The
decoded message is remembered for the bytes object it came from (an identity check: the next
message is new bytes), and every consumer gets its own shallow copy, so a handler that changes
its message's keys changes nobody else's. What the layer sends, and everything else it does,
is channels-redis' own.
"""

from __future__ import annotations

from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer


class SharedDecodeLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    #: (the bytes, what they decode to), replaced as one (another thread's loop may decode)
    _last: tuple[bytes | None, dict[str, Any]] = (None, {})

    def deserialize(self, message: bytes) -> dict[str, Any]:
        last = self._last
        if last[0] is not message:
            last = self._last = (message, super().deserialize(message))
        return dict(last[1])
