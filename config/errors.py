"""The site's 403, 404 and 500 answers (``handler403``/``handler404``/``handler500`` in
``config.urls``, and ``CSRF_FAILURE_VIEW``).

Requests under ``/api/`` get the API's error body, so a client never has to parse HTML. A page
someone may not open is a page of the site in the reader's language with a way back
(``templates/403.html``); a signed-out visitor is sent to the login form and back to the page
after it, since signing in is usually all that was missing. Other pages get Django's plain
pages. A 500 says nothing about the failure (no traceback, no settings): the
details go to the log. With DEBUG on, Django shows its debug pages instead, as usual.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
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


def _back(request: HttpRequest) -> str:
    """Where «Back» leads: the page the visitor came from, if it is of this site."""
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ) and not referer.endswith(request.path):
        return referer
    return "/"


def _refusal(request: HttpRequest, reason: str = "", why: str = "role") -> HttpResponse:
    return render(request, "403.html", {"back": _back(request), "reason": reason, "why": why},
                  status=403)  # fmt: skip


def permission_denied(request: HttpRequest, exception: Any) -> HttpResponse:
    if _is_api(request):
        body = {"errors": [{"code": "permission_denied",
                            "message": _("You do not have permission to do this."),
                            "field": None}]}  # fmt: skip
        return JsonResponse(body, status=403)
    user = getattr(request, "user", None)
    if request.method in ("GET", "HEAD") and not (user and user.is_authenticated):
        return redirect_to_login(request.get_full_path())
    return _refusal(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page kept open too long (or with cookies off): said in words."""
    return _refusal(request, _("The form was sent without a valid security token: the page may "
                               "have been open too long, or cookies are off. Open the page "
                               "again and send the form once more."), why="csrf")
