"""The personal page and the organiser's button that renews its link.

    /p/<token>/                  the entry's page (no account); ``?fragment=1`` the part the
                                 page's script re-reads when the push says something changed
    /p/<token>/clock/            the clock of the round being played, as JSON (clock.js)
    /manage/<pk>/entries/<id>/link/   POST: a new key (the tournament's organisers)

A wrong key is a 404 like any missing page; an address that sent ``PERSONAL_WRONG_LIMIT``
wrong keys within ``PERSONAL_WRONG_WINDOW`` seconds is answered 429 for every key until the
window ends, so that keys cannot be tried in bulk (a right key then does not answer either: a
different answer would tell a guesser which key is right). The page is kept out of search
engines, caches and the ``Referer`` of its links: its address is the key.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from accounts.lockout import client_address
from tournaments.errors import TournamentError
from tournaments.http import ManageView, refused
from tournaments.models import Entry
from tournaments.personal import services
from tournaments.personal.page import find, personal_page


def _limits() -> tuple[int, int]:
    return (int(getattr(settings, "PERSONAL_WRONG_LIMIT", 30)),
            int(getattr(settings, "PERSONAL_WRONG_WINDOW", 600)))  # fmt: skip


def _counter(request: HttpRequest) -> tuple[str, int]:
    _limit, window = _limits()
    slot = int(time.time() // window)
    return f"personal:wrong:{client_address(request)}:{slot}", window


def _blocked(request: HttpRequest) -> bool:
    key, _window = _counter(request)
    return int(cache.get(key) or 0) >= _limits()[0]


def _count_wrong(request: HttpRequest) -> None:
    key, window = _counter(request)
    cache.add(key, 0, window)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls: this one starts the new window
        cache.set(key, 1, window)


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store, private"
    return response


def _entry(request: HttpRequest, token: str) -> Entry | HttpResponse:
    if _blocked(request):
        response = HttpResponse(
            _("Too many wrong personal links were opened from this address. Try again in a "
              "few minutes."), status=429, content_type="text/plain; charset=utf-8")  # fmt: skip
        response["Retry-After"] = str(_limits()[1])
        return _private(response)
    entry = find(token)
    if entry is None:
        _count_wrong(request)
        raise Http404
    return entry


class PersonalView(View):
    def get(self, request: HttpRequest, token: str) -> HttpResponse:
        entry = _entry(request, token)
        if isinstance(entry, HttpResponse):
            return entry
        context: dict[str, Any] = {"page": personal_page(entry), "token": token,
                                   "tournament": entry.tournament}  # fmt: skip
        if request.GET.get("fragment"):
            return _private(render(request, "tournaments/personal/_page.html", context))
        return _private(render(request, "tournaments/personal/page.html", context))


class PersonalClockView(View):
    def get(self, request: HttpRequest, token: str) -> HttpResponse:
        entry = _entry(request, token)
        if isinstance(entry, HttpResponse):
            return entry
        current = (entry.tournament.round_set.filter(status="published")
                   .order_by("-number").first())  # fmt: skip
        return _private(JsonResponse({"clock": current.clock_json() if current else None}))


class NewLinkView(ManageView):
    def post(self, request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
        get_object_or_404(Entry, pk=entry_id, tournament=self.tournament)
        try:
            services.new_link(request.user, entry_id)
        except TournamentError as err:
            refused(request, err)
        else:
            messages.success(request, _("A new personal link was made; the old one no longer "
                                        "opens the page."))  # fmt: skip
        return redirect("tournaments:manage_entry", pk=pk, entry_id=entry_id)
