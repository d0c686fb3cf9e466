"""One error format for every 4xx answer of the API.

    {"errors": [{"code": "required", "message": "This field is required.", "field": "password"}]}

``code`` is DRF's error code, ``message`` the translated text, ``field`` the dotted path of the
input that is wrong (``players.1.name``) or null when the error is about the request as a whole.
Server errors (5xx) are not handled here: they are bugs and go to Django's 500 handling. One
exception: the database unreachable (restarting, failing over) answers 503 with the code
``database_unavailable`` and ``Retry-After``; the transaction was rolled back, so the client may
send the same request again (deals with the same ``Idempotency-Key``).
"""

from collections.abc import Iterator
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

ErrorItem = dict[str, str | None]
#: seconds a client waits before retrying when the database is unreachable
DATABASE_RETRY_AFTER = 5


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if database_down(exc):
        return database_unavailable()
    response = drf_exception_handler(exc, context)
    if response is None:
        return malformed_request(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": list(flatten_errors(exc.get_full_details()))}
    return response


def database_down(exc: Exception) -> bool:
    """The database could not be reached or went away mid-request (not a bug in a query)."""
    if isinstance(exc, InterfaceError):  # the connection was already closed
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None)
    if state is None:
        # psycopg: no SQLSTATE when connecting fails or the server vanished; SQLite: busy
        return type(cause).__module__.startswith("psycopg") or "locked" in str(exc)
    # connection exceptions, the server shutting down or starting up, and the transaction
    # conflicts PostgreSQL asks clients to retry
    return state[:2] in ("08", "57") or state in ("40001", "40P01")


def database_unavailable() -> Response:
    from django.utils.translation import gettext as _

    message = _("The database is unavailable for a moment; nothing was saved. Try again.")
    return Response(
        {"errors": [{"code": "database_unavailable", "message": str(message), "field": None}]},
        status=503,
        headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
    )


def flatten_errors(details: Any, field: str | None = None) -> Iterator[ErrorItem]:
    """Walk DRF's nested ``get_full_details()`` structure and yield one item per message."""
    if isinstance(details, dict):
        if _is_leaf(details):
            yield {"code": str(details["code"]), "message": str(details["message"]), "field": field}
            return
        for key, value in details.items():
            yield from flatten_errors(value, _join(field, str(key)))
    elif isinstance(details, list):
        for index, item in enumerate(details):
            # A list of messages belongs to one field; a list of objects (many=True input)
            # gets the position of each object in the path.
            yield from flatten_errors(item, field if _is_leaf(item) else _join(field, str(index)))
    else:
        yield {"code": "error", "message": str(details), "field": field}


def _is_leaf(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"message", "code"}


def _join(prefix: str | None, key: str) -> str | None:
    if key in (api_settings.NON_FIELD_ERRORS_KEY, "detail"):
        return prefix
    return f"{prefix}.{key}" if prefix else key


def malformed_request(exc: Exception) -> Response | None:
    """A body Django refuses to read (a broken multipart, too many fields or files, too large):
    400 ``malformed_request`` in the common format instead of Django's HTML page. Anything else
    is not an input error: ``None`` lets it through as a 500."""
    from django.core.exceptions import SuspiciousOperation
    from django.utils.translation import gettext as _

    if not isinstance(exc, SuspiciousOperation):
        return None
    message = _("The request could not be read: it is malformed or too large.")
    return Response(
        {"errors": [{"code": "malformed_request", "message": str(message), "field": None}]},
        status=400,
    )
