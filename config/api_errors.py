"""One error format for every 4xx answer of the API.

    {"errors": [{"code": "required", "message": "This field is required.", "field": "password"}]}

``code`` is DRF's error code, ``message`` the translated text, ``field`` the dotted path of the
input that is wrong (``players.1.name``) or null when the error is about the request as a whole.
Server errors (5xx) are not handled here: they are bugs and go to Django's 500 handling.
"""

from collections.abc import Iterator
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

ErrorItem = dict[str, str | None]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": list(flatten_errors(exc.get_full_details()))}
    return response


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
