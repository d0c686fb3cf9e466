"""Rate limits of the API's writes (DRF throttles; rates in ``REST_FRAMEWORK``, from the env).

Reads are not limited: spectators poll the standings, all from the hall's one address.

    write_user   POST/PUT/PATCH/DELETE by a signed-in user, per user   API_WRITE_RATE (600/min)
    write_anon   the same without signing in, per client address        API_ANON_WRITE_RATE (60/min)

The counters live in Django's cache (Redis in production: shared by every worker).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

SAFE = ("GET", "HEAD", "OPTIONS")


class _RateFromSettings:
    """The rate read when the throttle is made, not when the module was imported (DRF's
    default), so that ``override_settings`` in tests and a changed environment take effect."""

    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UserWriteThrottle(_RateFromSettings, UserRateThrottle):
    scope = "write_user"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class AnonWriteThrottle(_RateFromSettings, AnonRateThrottle):
    scope = "write_anon"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE:
            return True
        return super().allow_request(request, view)
