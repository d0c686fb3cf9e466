"""How large a request body may be: ``REQUEST_MAX_BYTES`` for every view, less or more where a
view says so with ``@body_limit(n)``; a larger body is answered 413 before the view reads it.

    RequestBodyLimitMiddleware     refuses by ``Content-Length`` (Django never reads more than
                                   that: a body without one is read as empty)
    body_limit(n | "SETTING")      on a view function, a view class or a DRF action method:
                                   bytes, or the name of the setting that holds them
    limit_of(view_func, method)    the limit that applies

Django's own ``DATA_UPLOAD_MAX_MEMORY_SIZE`` checks only form bodies read through
``request.body`` and never file uploads; DRF reads JSON from the stream and checks nothing. So
without this a JSON body or an uploaded file could be as large as the proxy lets through.
The API answers in its error format (``too_large``); pages get a short plain-text page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

T = TypeVar("T")
ATTRIBUTE = "max_body_bytes"
MULTIPART_SLACK = 64 * 2**10


def body_limit(size: int | str) -> Callable[[T], T]:
    """Mark a view (function, class, or a viewset's action method) with its own body limit:
    a number of bytes, or the name of a setting read at each request."""

    def mark(view: T) -> T:
        setattr(view, ATTRIBUTE, size)
        return view

    return mark


def limit_of(view_func: Any, method: str) -> int:
    """The body limit of a resolved view: its action's, its class's, its own, else the
    default."""
    view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
    actions = getattr(view_func, "actions", None) or {}
    candidates = []
    if view_class is not None and method.lower() in actions:
        candidates.append(getattr(view_class, actions[method.lower()], None))
    candidates += [view_func, view_class]
    for candidate in candidates:
        size = getattr(candidate, ATTRIBUTE, None)
        if isinstance(size, str):
            size = getattr(settings, size)
        if isinstance(size, int):
            return size
    return int(settings.REQUEST_MAX_BYTES)


class RequestBodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any,
                     view_kwargs: Any) -> HttpResponse | None:  # fmt: skip
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0  # Django reads such a body as empty
        limit = limit_of(view_func, request.method or "GET")
        if request.content_type == "multipart/form-data":
            # boundaries and the form's other fields beside a file of the limit's size
            limit += MULTIPART_SLACK
        if size <= limit:
            return None
        return too_large(request, limit)


def too_large(request: HttpRequest, limit: int) -> HttpResponse:
    message = _("The request is too large: at most %(size)s are accepted here.") % {
        "size": human_size(limit)
    }
    if request.path.startswith("/api/"):
        body = {"errors": [{"code": "too_large", "message": message, "field": None}]}
        return JsonResponse(body, status=413)
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


def human_size(size: int) -> str:
    if size >= 2**20 and size % 2**20 == 0:
        return _("%(n)s MB") % {"n": size // 2**20}
    if size >= 2**10:
        return _("%(n)s KB") % {"n": size // 2**10}
    return _("%(n)s bytes") % {"n": size}
