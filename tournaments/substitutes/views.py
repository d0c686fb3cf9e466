"""The organiser's page of substitutes.

    /manage/<pk>/substitutes/                 the tournament's organisers (403 otherwise):
                                              every substitute, setting one (``?round=N``
                                              preselects the round)
    /manage/<pk>/substitutes/<id>/remove/     POST

Thin: ``substitutes.services`` decides and writes.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.http import ManageView, refused, to_form
from tournaments.models import Substitute
from tournaments.substitutes import services
from tournaments.substitutes.forms import SubstituteForm


class SubstitutesView(ManageView):
    def page(self, form: SubstituteForm, status: int = 200) -> HttpResponse:
        rows = (Substitute.objects.filter(tournament=self.tournament)
                .select_related("entry", "replaced", "player", "created_by"))  # fmt: skip
        return self.render("substitutes/substitutes.html", status=status, form=form,
                           substitutes=list(rows))  # fmt: skip

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        initial = {}
        if str(request.GET.get("round", "")).isdigit():
            initial["from_round"] = int(request.GET["round"])
        return self.page(SubstituteForm(tournament=self.tournament, user=request.user,
                                        initial=initial))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = SubstituteForm(request.POST, tournament=self.tournament, user=request.user)
        if not form.is_valid():
            return self.page(form, status=400)
        data = form.cleaned_data
        try:
            row = services.set_substitute(
                request.user, pk, replaced=data["replaced"], player=data["player"],
                from_round=data["from_round"], to_round=form.to_round(), reason=data["reason"],
            )  # fmt: skip
        except TournamentError as err:
            to_form(form, err)
            return self.page(form, status=err.status)
        said = (_("%(player)s plays for %(replaced)s in round %(n)s.") if row.to_round
                else _("%(player)s plays for %(replaced)s from round %(n)s."))  # fmt: skip
        messages.success(request, said % {"player": row.player.full_name,
                                          "replaced": row.replaced.full_name,
                                          "n": row.from_round})  # fmt: skip
        return redirect("tournaments:manage_substitutes", pk=pk)


class RemoveSubstituteView(ManageView):
    def post(self, request: HttpRequest, pk: int, substitute_id: int) -> HttpResponse:
        if not Substitute.objects.filter(pk=substitute_id, tournament_id=pk).exists():
            raise Http404
        try:
            services.remove_substitute(request.user, substitute_id)
        except TournamentError as err:
            refused(request, err)
        else:
            messages.success(request, _("The substitute was removed."))
        return redirect("tournaments:manage_substitutes", pk=pk)
