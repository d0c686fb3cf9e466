"""A confirmed protocol corrected by the chief referee, and the history of a match's versions."""

from __future__ import annotations

import json

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring import selectors, services
from scoring.errors import ScoringError
from scoring.forms import CorrectionForm
from scoring.views.match_view import MatchView


class CorrectView(LoginRequiredMixin, MatchView):
    """A confirmed protocol corrected by the chief referee, with a reason; the old one is kept."""

    def allowed(self) -> bool:
        return services.can_correct(self.request.user, self.match)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        lines = "\n".join(json.dumps(d.record, ensure_ascii=False) for d in self.match.deals.all())
        form = CorrectionForm(initial={"deals": lines, "expected_version": self.match.version})
        return render(request, "scoring/correct.html", self.context(form=form))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = CorrectionForm(request.POST)
        status = 400  # a refusal of the services keeps its status
        if form.is_valid():
            data = form.cleaned_data
            try:
                match = services.correct(self.match.pk, request.user, data["deals"],
                                         data["reason"], expected_version=data["expected_version"])
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                self.say_done(match, _("The protocol was corrected."),
                              _("The protocol had already been corrected so."))
                return redirect("scoring:history", pk=self.match.pk)
        self.reload()
        return render(request, "scoring/correct.html", self.context(form=form), status=status)


class HistoryView(MatchView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = list(selectors.history(self.match.pk))
        return render(request, "scoring/history.html", self.context(rows=rows))
