"""The organiser's prizes page: ``/manage/<pk>/prizes/``.

One page, one form per thing it sets, each posted with its ``action``:

    settings         which of two equal prizes an entry takes, shared places, club best N
    category         a category added, or changed (``category_id``)
    delete_category  a category removed, with its prizes
    prize            a place of a list and its value (a place listed again is changed)
    delete_prize     a prize removed
    players          the players' sex and year of birth, which the categories ask about

``?edit=<id>`` opens a category in its form. Thin: ``prizes.services`` decides and writes.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.http import ManageView, refused, to_form
from tournaments.models import Category, Prize
from tournaments.prizes import services, sheets
from tournaments.prizes.forms import CategoryForm, PlayersForm, PrizeForm, SettingsForm
from tournaments.registry.rights import changeable


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class ManagePrizesView(ManageView):
    def forms(self, data: Any = None, action: str = "", editing: Category | None = None,
              ) -> dict[str, Any]:  # fmt: skip
        t = self.tournament
        players = services.tournament_players(t)
        mine = data if action else None

        def bound(name: str) -> Any:
            return data if action == name else None

        return {
            "settings_form": SettingsForm(bound("settings"), instance=t),
            "category_form": CategoryForm(bound("category"), tournament=t, instance=editing,
                                          initial={"entries": list(editing.entries.all())}
                                          if editing else None),  # fmt: skip
            "prize_form": PrizeForm(bound("prize"), tournament=t),
            "players_form": PlayersForm(bound("players"), players=players, locked={
                p.pk for p in players} - changeable(self.request.user, players)),
            "editing": editing,
            "categories": list(t.categories.all()),
            "prizes": [(p, sheets.money(p.amount)) for p in Prize.objects.filter(tournament=t)
                       .select_related("category")],  # fmt: skip
            "posted": mine is not None,
        }

    def editing(self, value: Any) -> Category | None:
        pk = _int(value)
        return self.tournament.categories.filter(pk=pk).first() if pk else None

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render("prizes/manage.html",
                           **self.forms(editing=self.editing(request.GET.get("edit"))))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        action = request.POST.get("action", "")
        editing = self.editing(request.POST.get("category_id"))
        context = self.forms(request.POST, action, editing)
        user = request.user
        try:
            if action in ("delete_category", "delete_prize"):
                target = _int(request.POST.get("id"))
                if target is None:
                    raise TournamentError.one("not_found", _("Choose what to remove."), None)
                if action == "delete_category":
                    services.delete_category(user, pk, target)
                else:
                    services.delete_prize(user, pk, target)
                messages.success(request, _("Removed."))
                return redirect("tournaments:manage_prizes", pk=pk)
            form = context.get(f"{action}_form")
            if form is None:
                raise TournamentError.one("bad_action", _("Unknown action."), None)
            if form.is_valid():
                self.save(action, form, editing)
                messages.success(request, _("Saved."))
                return redirect("tournaments:manage_prizes", pk=pk)
        except TournamentError as err:
            form = context.get(f"{action}_form")
            if form is not None and form.is_bound:
                to_form(form, err)
            else:
                refused(request, err)
                return redirect("tournaments:manage_prizes", pk=pk)
        return self.render("prizes/manage.html", status=400, **context)

    def save(self, action: str, form: Any, editing: Category | None) -> None:
        user, pk = self.request.user, self.tournament.pk
        data = form.cleaned_data
        if action == "settings":
            services.save_settings(user, pk, data["prize_priority"], data["prize_ties"],
                                   data["club_best"])  # fmt: skip
        elif action == "category":
            services.save_category(user, pk, form.fields_for_service(),
                                   [e.pk for e in data.get("entries") or []],
                                   editing.pk if editing else None)  # fmt: skip
        elif action == "prize":
            category = data.get("category")
            services.save_prize(user, pk, category.pk if category else None, data["place"],
                                data["amount"], data.get("text") or "")  # fmt: skip
        elif action == "players":
            services.set_players(user, pk, form.values())
