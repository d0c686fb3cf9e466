"""The chief referee's discipline page: every sanction, recording one, revoking one.

    /manage/<pk>/discipline/                      ``access.can_judge`` (403 otherwise)
    /manage/<pk>/discipline/<id>/revoke/          POST, with a reason
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from tournaments import access
from tournaments.discipline import services
from tournaments.discipline.forms import RevokeForm, SanctionForm
from tournaments.errors import TournamentError
from tournaments.http import ManageView, judges_refusal, to_form
from tournaments.models import (
    Sanction,
)


class DisciplineView(ManageView):
    """The chief referee's page: every sanction, recording one, revoking one."""

    def allowed(self) -> bool:
        return access.can_judge(self.request.user, self.tournament)

    def refusal(self) -> str:
        return judges_refusal()

    def page(self, form: SanctionForm | None = None, revoke_form: RevokeForm | None = None,
             revoking: int | None = None, status: int = 200) -> HttpResponse:  # fmt: skip
        sanctions = list(services.sanctions_of(self.tournament).order_by("round_number", "pk"))
        return self.render(
            "discipline/discipline.html", status=status, sanctions=sanctions,
            form=form or SanctionForm(tournament=self.tournament),
            revoke_form=revoke_form, revoking=revoking,
        )  # fmt: skip

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.page()

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = SanctionForm(request.POST, tournament=self.tournament)
        if form.is_valid():
            data = form.cleaned_data
            try:
                sanction = services.record_sanction(
                    request.user, pk, entry_id=data["entry"].pk,
                    round_number=data["round_number"], kind=data["kind"],
                    reason=data["reason"], player_id=data["player"].pk if data["player"] else None,
                    match_points=data["match_points"] or 0, game_points=data["game_points"] or 0,
                    table=data["table"],
                )  # fmt: skip
            except TournamentError as err:
                to_form(form, err)
            else:
                messages.success(request, _("The sanction was recorded: %(s)s.") % {"s": sanction})
                if sanction.kind == Sanction.Kind.BLACK:
                    messages.warning(request, _("%(entry)s is withdrawn from the following rounds.")
                                     % {"entry": sanction.entry})  # fmt: skip
                return redirect("tournaments:manage_discipline", pk=pk)
        return self.page(form=form, status=400)


class RevokeSanctionView(DisciplineView):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, pk: int, sanction_id: int) -> HttpResponse:  # type: ignore[override]
        sanction = get_object_or_404(Sanction, pk=sanction_id, tournament=self.tournament)
        form = RevokeForm(request.POST)
        if form.is_valid():
            try:
                services.revoke_sanction(request.user, sanction.pk, form.cleaned_data["reason"])
            except TournamentError as err:
                to_form(form, err)
            else:
                messages.success(request, _("The sanction was revoked."))
                return redirect("tournaments:manage_discipline", pk=pk)
        return self.page(revoke_form=form, revoking=sanction.pk, status=400)
