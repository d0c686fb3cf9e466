"""The list of matches (the desk sees those it oversees, a referee their own), grouped by event
and round with its filters (``scoring.listing``), and the new-match form."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from scoring import services
from scoring.errors import ScoringError
from scoring.forms import MatchForm, players_table
from scoring.listing import Filters, listing
from scoring.models import Match


class MatchListView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        filters = Filters.read(request.GET)
        desk = services.is_desk(request.user)
        query = filters.query()
        context = {
            "listing": listing(request.user, filters), "statuses": Match.Status.choices,
            "can_create": services.can_create(request.user),
            # the desk's queue is re-read when a protocol of its events changes
            "live": desk, "desk": desk,
            "fragment_url": f"{request.path}?{query}{'&' if query else ''}fragment=1",
        }  # fmt: skip
        if request.GET.get("fragment"):
            return render(request, "scoring/_match_list.html", context)
        return render(request, "scoring/match_list.html", context)


class MatchCreateView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not services.can_create(request.user):
            raise PermissionDenied(_("Creating a match needs the role of a referee, a chief "
                                     "referee or an organiser; the site's administrator gives "
                                     "roles."))
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        form = MatchForm(initial={"client_id": uuid.uuid4()}, user=request.user)
        return render(request, "scoring/match_form.html", {"form": form,
                                                           "games": players_table()})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = MatchForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                match = services.create_match(user=request.user, **form.create_kwargs())
            except ScoringError as err:
                if "idempotency_conflict" in err.codes:
                    # The key is spent on another match: creating again makes a new one.
                    form.data = form.data.copy()
                    form.data["client_id"] = str(uuid.uuid4())
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                return redirect("scoring:sheet", pk=match.pk)
        return render(request, "scoring/match_form.html", {"form": form, "games": players_table()},
                      status=400)  # fmt: skip
