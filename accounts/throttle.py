"""Failed logins are counted per client address and username; past the limit the login page and
the API token endpoint refuse (429) until the window ends.

    LOGIN_FAILURE_LIMIT = 5        failures allowed in one window (settings, from the environment)
    LOGIN_FAILURE_WINDOW = 60      seconds

The count lives in Django's cache (local memory in the embedded mode, Redis in production, so
every gunicorn worker sees the same count). Failures are counted from Django's
``user_login_failed`` signal, which both the page and the token endpoint send through
``authenticate``; a successful login clears the count.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest


def limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 5))


def window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", 60))


def client_address(request: HttpRequest | Any) -> str:
    """The client's address as DRF's throttles see it: behind ``NUM_PROXIES`` trusted proxies,
    the one the nearest of them put in X-Forwarded-For (a client cannot forge that entry)."""
    meta = getattr(request, "META", {})
    proxies = int(settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0)
    forwarded = [a.strip() for a in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if proxies and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return str(meta.get("REMOTE_ADDR") or "-")


def _key(request: HttpRequest | Any, username: str) -> str:
    who = f"{client_address(request)}|{(username or '').strip().lower()}"
    return "login-failures:" + hashlib.sha256(who.encode()).hexdigest()


def failures(request: HttpRequest | Any, username: str) -> int:
    return int(cache.get(_key(request, username)) or 0)


def blocked(request: HttpRequest | Any, username: str) -> bool:
    return failures(request, username) >= limit()


def record_failure(request: HttpRequest | Any, username: str) -> int:
    key = _key(request, username)
    cache.add(key, 0, timeout=window())
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window())
        return 1


def clear(request: HttpRequest | Any, username: str) -> None:
    cache.delete(_key(request, username))


@receiver(user_login_failed, dispatch_uid="accounts.throttle.failed")
def _on_failure(sender: Any, credentials: dict[str, Any], request: Any = None, **kw: Any) -> None:
    if request is not None:
        record_failure(request, str(credentials.get("username") or ""))


@receiver(user_logged_in, dispatch_uid="accounts.throttle.success")
def _on_success(sender: Any, request: Any, user: Any, **kw: Any) -> None:
    if request is not None:
        clear(request, user.get_username())
