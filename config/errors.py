"""The site's 403, 404 and 500 answers (``handler403``/``handler404``/``handler500`` in
``config.urls``, and ``CSRF_FAILURE_VIEW``).

Requests under ``/api/`` get the API's error body, so a client never has to parse HTML. A page
someone may not open is a page of the site in the reader's language with a way back
(``templates/403.html``), saying what the user lacks where the view said it; a signed-out
visitor is sent to the login form and back to the page after it, since signing in is usually
all that was missing. Other pages get Django's plain pages. A 500 says nothing about the
failure (no traceback, no settings): the details go to the log.

Django's debug pages (the URL list of a 404, the traceback of a 500) are for development only:
the embedded mode a club runs on the night (``make run``) has DEBUG on for its conveniences, and
``SiteErrorPagesMiddleware`` puts the site's own translated pages in their place unless
``DEBUG_PAGES`` is set (``make dev``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
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
    try:
        return render(request, "404.html", status=404)
    except Exception:  # noqa: BLE001 - the page itself failed (no database): Django's plain one
        return defaults.page_not_found(request, exception, template_name="missing.html")


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        message = _("Server error. It has been logged; try again or tell the organisers.")
        body = {"errors": [{"code": "server_error", "message": message, "field": None}]}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)


class SiteErrorPagesMiddleware:
    """With DEBUG on but ``DEBUG_PAGES`` off (the embedded mode on the night), a 404 or 500 that
    Django's debug machinery produced is replaced by the site's own page (``page_not_found``,
    ``server_error``). Pages and API answers the site made itself are left alone."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not settings.DEBUG or settings.DEBUG_PAGES:
            return response
        if response.status_code == 404 and _is_debug_page(response):
            return page_not_found(request, None)
        if response.status_code == 500 and _is_debug_page(response):
            return server_error(request)
        return response


def _is_debug_page(response: HttpResponse) -> bool:
    """Django's technical 404/500 pages (HTML, or text for a non-browser request)."""
    if getattr(response, "streaming", False):
        return False
    # both pages (and their plain-text forms) end by saying why they are shown
    return b"DEBUG = True" in response.content


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


def _reason(exception: Any) -> str:
    """What a page's refusal says the user lacks (``PermissionDenied(reason)``, written for this
    user by the view: ``tournaments.http.ManageView.refusal``, ``scoring``'s ``MatchView``);
    "" for a bare refusal, which the page words generally."""
    args = getattr(exception, "args", ())
    return args[0] if isinstance(exception, PermissionDenied) and args \
        and isinstance(args[0], str) else ""


def permission_denied(request: HttpRequest, exception: Any) -> HttpResponse:
    if _is_api(request):
        body = {"errors": [{"code": "permission_denied",
                            "message": _("You do not have permission to do this."),
                            "field": None}]}  # fmt: skip
        return JsonResponse(body, status=403)
    user = getattr(request, "user", None)
    if request.method in ("GET", "HEAD") and not (user and user.is_authenticated):
        return redirect_to_login(request.get_full_path())
    return _refusal(request, _reason(exception))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page kept open too long (or with cookies off): said in words."""
    return _refusal(request, _("The form was sent without a valid security token: the page may "
                               "have been open too long, or cookies are off. Open the page "
                               "again and send the form once more."), why="csrf")
