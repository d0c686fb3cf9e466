"""Handing in a protocol: submitting it, confirming it (the desk, or the opposing captain with
the PIN) and the desk issuing the captain's PIN.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring import services
from scoring.errors import ScoringError
from scoring.forms import ConfirmForm, PinForm, SubmitForm
from scoring.views.match_view import MatchView


class SubmitView(MatchView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = SubmitForm(initial={"expected_version": self.match.version})
        return render(request, "scoring/submit.html", self.context(form=form))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = SubmitForm(request.POST)
        status = 400  # a refusal of the services keeps its status
        if form.is_valid():
            try:
                match = services.submit(self.match.pk, request.user,
                                        expected_version=form.cleaned_data["expected_version"])
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                self.say_done(match, _("The protocol was submitted."),
                              _("The protocol had already been submitted."))
                return redirect("scoring:confirm", pk=self.match.pk)
        self.reload()
        return render(request, "scoring/submit.html", self.context(form=form), status=status)


class ConfirmView(LoginRequiredMixin, MatchView):
    """The chief referee confirms at the desk, or the opposing captain types the PIN here; the
    desk's own submission says who else may confirm it."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return render(request, "scoring/confirm.html", self.page(form=ConfirmForm()))

    def page(self, **extra: Any) -> dict[str, Any]:
        match = self.match
        # as ``services.confirm`` has it: a PIN issued by the submitter, or with no tries left,
        # confirms nothing, so its form is not offered
        by_submitter = match.pin_set_by_id is not None \
            and match.pin_set_by_id == match.submitted_by_id
        usable = bool(match.confirm_pin) and not by_submitter \
            and match.pin_failures < services.MAX_PIN_FAILURES
        return self.context(pin_usable=usable, pin_by_submitter=by_submitter, **extra)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = ConfirmForm(request.POST)
        status = 400  # a refusal of the services keeps its status (403 not allowed, wrong PIN)
        if form.is_valid():
            try:
                services.confirm(self.match.pk, request.user, pin=form.cleaned_data["pin"] or None)
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                messages.success(request, _("The protocol was confirmed."))
                return redirect("scoring:sheet", pk=self.match.pk)
        self.reload()
        return render(request, "scoring/confirm.html", self.page(form=form), status=status)


class PinView(LoginRequiredMixin, MatchView):
    """The desk issues the captain's PIN (the form sits on the sheet page for desk users)."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not services.is_desk_for(request.user, self.match):
            raise PermissionDenied
        form = PinForm(request.POST)
        if form.is_valid():
            try:
                services.set_confirm_pin(self.match.pk, request.user, form.cleaned_data["pin"])
            except ScoringError as err:
                for item in err.errors:
                    messages.error(request, item["message"])
            else:
                messages.success(request, _("The captain's PIN was issued."))
        else:
            for problems in form.errors.values():
                for problem in problems:
                    messages.error(request, problem)
        return redirect("scoring:sheet", pk=self.match.pk)
