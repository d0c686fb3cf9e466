"""The registry's pages for organisers and site administrators.

    /registry/players/<pk>/              a player's record: the form when the user may change
                                         it (``rights``), else the record and who may
    /registry/players/<pk>/merge/        choose the other record of the same person, see both
                                         and what moves, merge (``merge.merge``)
    /registry/merges/<merge_id>/undo/    POST: undo a merge (from the audit log)

A player the user may not be offered (an import's player of another organiser) is a 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View

from tournaments import access
from tournaments.errors import NotAllowed, TournamentError
from tournaments.http import refused, to_form
from tournaments.models import Player
from tournaments.registry import merge as merging
from tournaments.registry.forms import PlayerForm, SearchForm
from tournaments.registry.records import save_player
from tournaments.registry.rights import changeable, may_change, tournaments_of

CANDIDATES = 50


def _player(request: HttpRequest, pk: int) -> Player:
    return get_object_or_404(Player.objects.offered_to(request.user).select_related("club"),
                             pk=pk)  # fmt: skip


def _uses(user: Any, player: Player) -> dict[str, Any]:
    """What a record carries: its tournaments the user may see, and its entries."""
    ids = tournaments_of([player.pk])
    seen = access.visible_tournaments(user).filter(pk__in=ids).order_by("-start_date")
    return {"tournaments": list(seen), "entries": player.entries.count()}


class PlayerView(LoginRequiredMixin, View):
    def page(self, player: Player, form: PlayerForm | None, status: int = 200) -> HttpResponse:
        context = {"player": player, "form": form, **_uses(self.request.user, player)}
        return render(self.request, "tournaments/registry/player.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = _player(request, pk)
        form = PlayerForm(instance=player) if may_change(request.user, player) else None
        return self.page(player, form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = _player(request, pk)
        if not may_change(request.user, player):
            return self.page(player, None, status=403)
        form = PlayerForm(request.POST, instance=Player.objects.get(pk=pk))
        if form.is_valid():
            try:
                changed = save_player(request.user, pk, {
                    name: form.cleaned_data[name] for name in PlayerForm.Meta.fields})
            except TournamentError as err:
                to_form(form, err)
            else:
                messages.success(request, _("The player's record was saved.") if changed
                                 else _("Nothing was changed."))  # fmt: skip
                return redirect("tournaments:registry_player", pk=pk)
        return self.page(player, form, status=400)


class MergeView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = _player(request, pk)
        search = SearchForm(request.GET or None)
        prefix = (search.cleaned_data["q"] if search.is_valid() else "") or player.last_name[:3]
        found = list(Player.objects.offered_to(request.user).exclude(pk=pk)
                     .filter(last_name__istartswith=prefix).select_related("club")
                     .annotate(n_entries=Count("entries"))[:CANDIDATES])  # fmt: skip
        mine = changeable(request.user, found)
        other = None
        if request.GET.get("other", "").isdigit():
            other = Player.objects.offered_to(request.user).filter(
                pk=int(request.GET["other"])).select_related("club").first()  # fmt: skip
        context = {
            "player": player, "search": search, "prefix": prefix,
            "candidates": [p for p in found if p.pk in mine],
            "locked": [p for p in found if p.pk not in mine],
            "may_merge": may_change(request.user, player),
            "other": other, "mine": _uses(request.user, player),
            "theirs": other and _uses(request.user, other),
        }  # fmt: skip
        return render(request, "tournaments/registry/merge.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = _player(request, pk)
        other = request.POST.get("other", "")
        dropped = _player(request, int(other)) if other.isdigit() else None
        if dropped is None:
            messages.error(request, _("Choose the other record."))
            return redirect("tournaments:registry_merge", pk=pk)
        try:
            merging.merge(request.user, player.pk, dropped.pk)
        except NotAllowed as err:  # the service decides (``rights``): a refusal page, 403
            raise PermissionDenied(err.messages[0]) from err
        except TournamentError as err:
            refused(request, err)
            return redirect(f"{request.path}?other={dropped.pk}")
        messages.success(request, _(
            "%(dropped)s (no. %(pk)s) is merged into this record. The audit log of each of "
            "their tournaments can undo it.") % {"dropped": dropped.full_name, "pk": dropped.pk})
        return redirect("tournaments:registry_player", pk=pk)


class UndoMergeView(LoginRequiredMixin, View):
    def post(self, request: HttpRequest, merge_id: str) -> HttpResponse:
        try:
            restored = merging.undo(request.user, merge_id)
        except NotAllowed as err:
            raise PermissionDenied(err.messages[0]) from err
        except TournamentError as err:
            refused(request, err)
            back = request.POST.get("back", "")
            safe = url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure())
            return redirect(back if safe and back.startswith("/") else "tournaments:home")
        messages.success(request, _("The merge is undone: %(name)s (no. %(pk)s) is back with his "
                                    "results.") % {"name": restored.full_name, "pk": restored.pk})
        return redirect("tournaments:registry_player", pk=restored.pk)
