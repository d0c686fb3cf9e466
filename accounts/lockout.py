"""Failed sign-ins are counted by django-axes, per username and per client address, on every
door that calls ``authenticate``: the login page, the admin's login and the API token endpoint.

    LOGIN_FAILURE_LIMIT = 5             failures of one username (any address)
    LOGIN_ADDRESS_FAILURE_LIMIT = 30    failures from one address (any username)
    LOGIN_FAILURE_WINDOW = 900          seconds a failure counts, from the last one

The failure that reaches a limit and every attempt after it are refused — the right password
too — with 429, ``Retry-After`` and a translated message, until a whole window has passed
without a failure. A refused attempt is not counted (axes'
``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` off): counted, a locked address would lock
every username it names. Axes refuses in its authentication backend, so no door can skip the
check.

Usernames are counted as authentication sees them: NFKC-normalised (the login form does that,
so a full-width ``ｒeferee4`` signs in as ``referee4``) and case-folded (stricter than Django,
whose usernames are case-sensitive: ``Ref`` and ``ref`` share one count).

The address has a limit of its own, higher than the username's: the hall's referees sign in
from one address, and a few typos there must not lock everybody out. Axes compares one number
with one limit, so ``LockoutHandler`` weighs the two counts itself. A successful sign-in clears
that username's failures only: were it to clear the address's, an attacker could reset the
count by signing in to an account of their own between guesses.

The counts live in the database (``axes.AccessAttempt``, in the admin, where a locked-out user
can be let in again by deleting the rows; ``manage.py axes_reset_username`` does the same).
"""

from __future__ import annotations

import math
import unicodedata
from datetime import timedelta
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import ngettext

#: AccessAttempt.username's length; Django's own usernames are at most 150 characters
USERNAME_MAX = 150


def username_limit(request: Any = None, credentials: Any = None) -> int:
    return int(settings.LOGIN_FAILURE_LIMIT)


def address_limit() -> int:
    return int(settings.LOGIN_ADDRESS_FAILURE_LIMIT)


def window_seconds() -> int:
    return int(settings.LOGIN_FAILURE_WINDOW)


def window(request: Any = None) -> timedelta:
    return timedelta(seconds=window_seconds())


def normalise(username: Any) -> str | None:
    if username is None:
        return None
    text = unicodedata.normalize("NFKC", str(username)).replace("\x00", "").strip()
    return text.casefold()[:USERNAME_MAX]


def username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """AXES_USERNAME_CALLABLE: the username of the attempt, as it is counted."""
    field = get_username_field()
    if credentials and credentials.get(field) is not None:
        return normalise(credentials[field])
    data = getattr(request, "data", None) or getattr(request, "POST", None) or {}
    return normalise(data.get(field)) if hasattr(data, "get") else None


def get_username_field() -> str:
    from django.contrib.auth import get_user_model

    return str(get_user_model().USERNAME_FIELD)


def client_address(request: HttpRequest | Any) -> str:
    """The client's address as DRF's throttles see it: behind ``NUM_PROXIES`` trusted proxies,
    the one the nearest of them put in X-Forwarded-For (a client cannot forge that entry)."""
    meta = getattr(request, "META", {})
    proxies = int(settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0)
    forwarded = [a.strip() for a in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if proxies and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return str(meta.get("REMOTE_ADDR") or "-")


def message() -> str:
    minutes = max(1, math.ceil(window_seconds() / 60))
    return ngettext(
        "Too many failed attempts to sign in. Try again in %(minutes)d minute.",
        "Too many failed attempts to sign in. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def is_locked_out(request: Any) -> bool:
    """Whether axes refused (or just locked) the attempt made with this request."""
    return bool(getattr(request, "axes_locked_out", False))


def api_error() -> dict[str, Any]:
    """The API's error body of a refused attempt."""
    return {"errors": [{"code": "too_many_attempts", "message": message(), "field": None}]}


def api_refusal() -> JsonResponse:
    return JsonResponse(api_error(), status=429, headers={"Retry-After": str(window_seconds())})


def lockout_response(request: HttpRequest, original_response: Any = None,
                     credentials: Any = None) -> HttpResponse:  # fmt: skip
    """AXES_LOCKOUT_CALLABLE: the answer to a refused page request. The login forms (the site's
    and the admin's, both ``LockoutMessageMixin``) have already put the message in the page
    they rendered; it only gets its status. Anything else gets the message alone."""
    if request.path.startswith("/api/"):
        return api_refusal()
    html = original_response is not None and original_response.status_code == 200 and (
        original_response.get("Content-Type", "").startswith("text/html"))  # fmt: skip
    response = original_response if html else HttpResponse(message(), content_type="text/plain")
    response.status_code = 429
    response["Retry-After"] = str(window_seconds())
    return response


class LockoutMessageMixin:
    """For an ``AuthenticationForm``: when axes refused the attempt, say so instead of "wrong
    username or password" (which would send the user on guessing)."""

    request: Any

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()  # type: ignore[misc, no-any-return]
        except forms.ValidationError:
            if is_locked_out(self.request):
                raise forms.ValidationError(message(), code="too_many_attempts") from None
            raise


class LoginForm(LockoutMessageMixin, AuthenticationForm):
    pass


class AdminLoginForm(LockoutMessageMixin, AdminAuthenticationForm):
    pass


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit per username and another per address."""

    def _counts(self, request: Any, credentials: dict[str, Any] | None) -> tuple[int, int]:
        recent = AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))
        name = get_client_username(request, credentials)

        def total(rows: Any) -> int:
            return int(rows.aggregate(n=Sum("failures_since_start"))["n"] or 0)

        by_name = total(recent.filter(username=name)) if name is not None else 0
        return by_name, total(recent.filter(ip_address=request.axes_ip_address))

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """The username's count, or the username limit once the address reached its own
        limit (axes compares the result with ``AXES_FAILURE_LIMIT``, the username limit)."""
        by_name, by_address = self._counts(request, credentials)
        if by_address >= address_limit():
            return max(by_name, username_limit())
        return by_name

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        name = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(username=name).delete()
        return int(count)
