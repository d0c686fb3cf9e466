"""The site's 404 and 500 answers (``handler404``/``handler500`` in ``config.urls``).

Pages get Django's plain pages; requests under ``/api/`` get the API's error body, so a client
never has to parse HTML. A 500 says nothing about the failure (no traceback, no settings): the
details go to the log. With DEBUG on, Django shows its debug pages instead, as usual.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Any) -> HttpResponse:
    if _is_api(request):
        body = {"errors": [{"code": "not_found", "message": _("Not found."), "field": None}]}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        message = _("Server error. It has been logged; try again or tell the organisers.")
        body = {"errors": [{"code": "server_error", "message": message, "field": None}]}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)
