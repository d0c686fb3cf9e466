"""The API's write limit holds under concurrency: writes sent at the same moment from many
threads to the live server (PostgreSQL, the Redis cache that production shares between its
workers) pass exactly up to the rate, never more."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.settings import api_settings

from tournaments.models import Club
from tournaments.tests.conftest import make_user

RATE = 12
SENT = 60
#: seconds a burst may take on a loaded machine: it starts with at least this left in its minute
MARGIN = 30


@pytest.fixture
def redis_cache(require_redis: str, settings: Any) -> Any:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": require_redis}}  # fmt: skip
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "write_user": f"{RATE}/min", "write_anon": f"{RATE}/min"}}  # fmt: skip
    api_settings.reload()
    cache.clear()
    yield settings
    cache.clear()
    api_settings.reload()


def burst(url: str, body: Any, headers: dict[str, str] | None = None) -> list[int]:
    """SENT writes released at once from SENT threads; their status codes. Each thread opens
    its connection first (a read, kept alive), so the writes are not queued behind accepts.

    The windows are fixed minutes (``config.throttling``): a burst that straddles the turn of a
    minute may rightly pass twice the rate (a CI run saw 13 of 12). The burst starts early
    enough in a minute to end in it: the limit is then exactly the rate."""
    left = 60 - time.time() % 60
    if left < MARGIN:
        time.sleep(left + 0.2)
    start = threading.Barrier(SENT)

    def one(n: int) -> int:
        with httpx.Client(timeout=60, headers=headers) as client:
            client.get(url.split("/api/")[0] + "/api/v1/tournaments/")
            start.wait()
            return client.post(url, json=body(n)).status_code

    with ThreadPoolExecutor(SENT) as pool:
        return list(pool.map(one, range(SENT)))


@pytest.mark.django_db(transaction=True)
def test_concurrent_writes_never_pass_the_per_user_rate(
    require_postgres: None, redis_cache: Any, live_server: Any
) -> None:
    make_user("org", "Organiser")
    key = Client().post("/api/v1/auth/token/", {"username": "org", "password": "s3cret-pass"}
                        ).json()["token"]  # fmt: skip
    cache.clear()  # the token request above was an anonymous write
    codes = burst(f"{live_server.url}/api/v1/clubs/", lambda n: {"name": f"Клуб {n}"},
                  {"Authorization": f"Token {key}"})
    assert codes.count(201) == RATE, sorted(codes)
    assert codes.count(429) == SENT - RATE
    assert Club.objects.count() == RATE


@pytest.mark.django_db(transaction=True)
def test_concurrent_anonymous_writes_never_pass_the_per_address_rate(
    require_postgres: None, redis_cache: Any, live_server: Any
) -> None:
    codes = burst(f"{live_server.url}/api/v1/auth/token/",
                  lambda n: {"username": f"u{n}", "password": "x"})
    assert codes.count(400) == RATE, sorted(codes)
    assert codes.count(429) == SENT - RATE


@pytest.mark.django_db
def test_a_windows_counter_on_redis_expires_with_its_window(redis_cache: Any) -> None:
    """The count is made in one round trip (SET NX with the expiry, INCR): a counter without
    its expiry would hold the limit forever once reached."""
    import redis

    make_user("org", "Organiser")
    client = Client()
    client.login(username="org", password="s3cret-pass")
    server = redis.Redis.from_url(redis_cache.CACHES["default"]["LOCATION"])
    for n in range(3):
        assert client.post("/api/v1/clubs/", {"name": f"Клуб {n}"},
                           content_type="application/json").status_code == 201  # fmt: skip
    keys = [k for k in server.scan_iter("*throttle_write_user*")]
    assert len(keys) == 1
    assert int(server.get(keys[0])) == 3
    assert 0 < server.ttl(keys[0]) <= 61
