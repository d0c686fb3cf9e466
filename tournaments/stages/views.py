"""The final stage's pages.

    /manage/<pk>/stages/         the organiser sets the stages up: groups (how many, seeded how,
                                 how many go on) and the final stage (a knock-out: qualifiers,
                                 best of, third place; or a final round robin and what it carries
                                 over); read-only once it has started
    /tournaments/<pk>/bracket/   the knock-out bracket and, once it is over, the final ranking:
                                 public when the tournament is; ``?fragment=1`` answers the part
                                 the page re-reads when a result is pushed (``static/js/live.js``)

Thin: ``stages.services`` decides and writes, ``stages.display`` reads.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import TournamentError
from tournaments.http import ManageView, to_form
from tournaments.models import Stage
from tournaments.results.views import visible_tournament
from tournaments.stages import bracket as brackets
from tournaments.stages import display, moved, services
from tournaments.stages.forms import StageForm

#: the bracket page polls this often while its socket is down (seconds)
REFRESH_SECONDS = 20


class StagesView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        first, stage = self.stages()
        return self.render("stages/setup.html", form=StageForm.of(first, stage), stage=stage,
                           first=first,
                           moved=moved.seeds_moved(self.tournament, stage))  # fmt: skip

    def stages(self) -> tuple[Stage | None, Stage | None]:
        found = {s.number: s for s in self.tournament.stages.all()}
        return found.get(1), found.get(2)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        first, stage = self.stages()
        form = StageForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.configure(request.user, pk, data["kind"], data["qualifiers"],
                                   data["best_of"], data["third_place"], data["groups"],
                                   data["per_group"], data["seeding"],
                                   data["carry_over"])  # fmt: skip
            except TournamentError as err:
                to_form(form, err)
            else:
                messages.success(request, _("The stages were saved."))
                return redirect("tournaments:manage_stages", pk=pk)
        return self.render("stages/setup.html", status=400, form=form, stage=stage,
                           first=first)  # fmt: skip


class BracketView(View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        # with the tabs' flags: the bracket links the categories and the prize list too
        tournament = visible_tournament(request, pk)
        stage = brackets.final_stage(tournament)
        try:
            page = display.bracket_page(tournament, stage)
        except TournamentError as err:
            raise Http404(err.messages[0]) from err
        context = {"tournament": tournament, "page": page, "refresh": REFRESH_SECONDS,
                   "fragment_url": f"{request.path}?fragment=1"}  # fmt: skip
        if request.GET.get("fragment"):
            return render(request, "tournaments/stages/_bracket.html", context)
        return render(request, "tournaments/stages/bracket.html", context)
