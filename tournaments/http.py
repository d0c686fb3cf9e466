"""What the pages and the API of every concern share: the organiser's base view, and turning a
service's refusal (``tournaments.errors``) into a message, form errors or an API answer.

    ManageView                  a page of one tournament for its organisers (403 otherwise, saying
                                what the user lacks; 404 when the tournament is hidden from him)
    judges_refusal()            the 403's words for a page of its organisers and chief referees
    refused(request, err)       each message of a refusal shown on the next page
    to_form(form, err)          a refusal next to the form field it names (or above the form)
    run(call) -> Response       the API's answer to a call that may raise a refusal
    API_ERRORS                  the error answers documented in the schema
    standings_url(id, n)        the public standings after round n
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views import View
from drf_spectacular.types import OpenApiTypes
from rest_framework.response import Response

from tournaments import access
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    Pairing,
    Round,
    Tournament,
)


def refused(request: HttpRequest, err: TournamentError) -> None:
    for message in err.messages:
        messages.error(request, message)


def to_form(form: Any, err: TournamentError) -> None:
    """A service's refusal next to the field it names (or above the form)."""
    for item in err.errors:
        form.add_error(item["field"] if item["field"] in form.fields else None, item["message"])


def standings_url(tournament_id: int, number: int) -> str:
    """The public standings after round ``number``."""
    try:
        base = reverse("tournaments:standings", args=[tournament_id])
    except NoReverseMatch:  # the public standings page is not routed yet
        base = f"/tournaments/{tournament_id}/standings/"
    return f"{base}?round={number}"


class ManageView(LoginRequiredMixin, View):
    """A page of one tournament for its organisers."""

    tournament: Tournament

    def allowed(self) -> bool:
        return access.can_manage(self.request.user, self.tournament)

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        # a tournament the user may not see is not there (its existence is not revealed)
        self.tournament = get_object_or_404(access.visible_tournaments(request.user),
                                            pk=kwargs["pk"])  # fmt: skip
        if not self.allowed():
            raise PermissionDenied(self.refusal())
        return super().dispatch(request, *args, **kwargs)

    def refusal(self) -> str:
        """What the refusal page says this user lacks: the page is for the tournament's
        organisers (a page for its chief referees too says so: ``judges_refusal``)."""
        user = self.request.user
        if access.can_judge(user, self.tournament):  # one of its chief referees
            return _("You are a chief referee of this tournament, and this page needs the role "
                     "of its organiser: its setup, entries and rounds are the organisers'. The "
                     "site's administrator adds organisers; yours here are its protocols and "
                     "its discipline page.")
        if access.can_create_tournament(user):
            return _("You are an organiser, but not of this tournament: this page is for its "
                     "own organisers. The site's administrator adds organisers to a tournament.")
        return _("This page is for the tournament's organisers, and you are not one of them.")

    def render(self, template: str, status: int = 200, **context: Any) -> HttpResponse:
        can_manage = access.can_manage(self.request.user, self.tournament)
        return render(self.request, f"tournaments/{template}",
                      {"tournament": self.tournament, "can_manage": can_manage, **context},
                      status=status)  # fmt: skip

    def round(self, number: int) -> Round:
        try:
            return self.tournament.round_set.get(number=number)
        except Round.DoesNotExist as err:
            raise Http404 from err


def judges_refusal() -> str:
    """The refusal of a page for the tournament's organisers and chief referees."""
    return _("This page is for the tournament's organisers and chief referees, and you are "
             "neither.")


def respond(call: Callable[[], Response]) -> Response:
    try:
        return call()
    except TournamentError as exc:
        retry = getattr(exc, "retry_after", None)
        return Response({"errors": exc.errors}, status=exc.status,
                        headers={"Retry-After": str(retry)} if retry else None)  # fmt: skip
    except (Tournament.DoesNotExist, Entry.DoesNotExist, Round.DoesNotExist,
            Pairing.DoesNotExist) as exc:  # fmt: skip
        raise Http404 from exc


API_ERRORS = {400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT,
           409: OpenApiTypes.OBJECT}  # fmt: skip
