"""Rate limits of the API's writes (DRF throttles; rates in ``REST_FRAMEWORK``, from the env).

Reads are not limited: spectators poll the standings, all from the hall's one address.

    write_user   POST/PUT/PATCH/DELETE by a signed-in user, per user   API_WRITE_RATE (600/min)
    write_anon   the same without signing in, per client address        API_ANON_WRITE_RATE (60/min)

The counters live in Django's cache (Redis in production: shared by every worker). DRF's own
throttles read a list of timestamps, append and write it back: requests arriving together all
read the same list, and all pass (685 writes got through a 600/min limit). Here each window
has one counter that the cache increments atomically (``add`` then ``incr``: Redis INCR, the
local-memory cache under its lock), so exactly the rate passes per window, however many
arrive at once. On Redis that is one round trip (SET NX with the window's expiry, then INCR, in
one MULTI): Django's ``add`` and ``incr`` took three, on every deal a referee records.
The windows are fixed (each minute from the epoch, for "/min"): a client may use one window's
allowance at its end and the next one's at the start.
"""

from __future__ import annotations

from functools import cache as memoize
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

SAFE = ("GET", "HEAD", "OPTIONS")


class _AtomicWindow(SimpleRateThrottle):
    """A DRF throttle counting in one atomically incremented cache entry per fixed window."""

    scope: str
    _retry_after: float | None = None

    def get_rate(self) -> str | None:
        # read when the throttle is made, not when the module was imported (DRF's default),
        # so that override_settings in tests and a changed environment take effect
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        ident = self.get_cache_key(request, view)
        if ident is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        key = f"{ident}:{window}"
        count = self._increment(key)
        self._retry_after = (window + 1) * self.duration - now
        return count <= self.num_requests

    def _increment(self, key: str) -> int:
        backend = caches["default"]  # where DRF's throttles count (``SimpleRateThrottle.cache``)
        client = shared_redis()
        if client is not None:
            full_key = backend.make_and_validate_key(key)
            with client.pipeline(transaction=True) as pipe:
                pipe.set(full_key, 0, ex=self.duration + 1, nx=True)
                pipe.incr(full_key)
                return int(pipe.execute()[1])
        for _ in range(3):
            self.cache.add(key, 0, timeout=self.duration + 1)
            try:
                return int(self.cache.incr(key))
            except ValueError:  # expired between add and incr: start the window's count again
                continue
        return int(self.num_requests) + 1  # the cache keeps losing it: refuse rather than pass

    def wait(self) -> float | None:
        return self._retry_after


def shared_redis() -> redis.Redis | None:
    """The Redis client of the default cache when that cache is Redis (shared by every process),
    else None (the embedded mode's local-memory cache: one process)."""
    if not isinstance(caches["default"], RedisCache):
        return None
    return _redis(_first_location(settings.CACHES["default"]["LOCATION"]))


def _first_location(location: str | list[str]) -> str:
    # Django's Redis cache writes to its first server
    return (location if isinstance(location, str) else location[0]).split(",")[0]


@memoize
def _redis(url: str) -> redis.Redis:
    """One client (and connection pool) per process and server: made at the first write after
    gunicorn forked its workers; redis-py's pool starts afresh in a forked process anyway."""
    return redis.Redis.from_url(url)


class UserWriteThrottle(_AtomicWindow, UserRateThrottle):
    scope = "write_user"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class AnonWriteThrottle(_AtomicWindow, AnonRateThrottle):
    scope = "write_anon"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE:
            return True
        return super().allow_request(request, view)
