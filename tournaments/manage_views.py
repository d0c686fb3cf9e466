"""The organiser's pages: setup, registration with CSV import, pairing a round with its progress,
review (swap, lock, regenerate, referees), publication, the printable table list, finishing a
round and closing the event; and the chief referee's discipline page (sanctions).

Thin: forms parse, ``services``, ``rounds``, ``results`` and ``csv_import`` decide and write,
``selectors`` read. Only the tournament's organisers and superusers get in (403 otherwise); the
discipline page also lets in chief referees (``results.can_judge``). A refusal is shown as a
message on the page it came from, or next to the form field it names.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View

from accounts.roles import CHIEF_REFEREE, REFEREE
from rules import catalogue
from tournaments import audit_hooks, csv_import, results, rounds, selectors, services
from tournaments.errors import TournamentError
from tournaments.forms import (
    AbsenceForm,
    EntryEditForm,
    EntryForm,
    ImportForm,
    RevokeForm,
    SanctionForm,
    TournamentForm,
)
from tournaments.models import (
    TIE_BREAKS,
    Entry,
    EntryAbsence,
    Pairing,
    Round,
    Sanction,
    Tournament,
)
from tournaments.pairing import FLAGS

FLAG_LABELS = {
    "float_up": _("paired with a higher score group"),
    "float_down": _("paired with a lower score group"),
    "bye": _("no opponent this round"),
    "rematch": _("these sides met before: no rematch-free pairing existed"),
    "rematch_avoided": _("the natural opponent was a rematch and was avoided"),
    "partner_repeated": _("partners again: it could not be avoided"),
    "same_club": _("same club: it could not be avoided"),
    "seat_repeated": _("same seat (NS/EW) as last time: it could not be balanced"),
    "by_seed": _("round 1 by seed: top half against bottom half"),
    "by_lot": _("round 1 by lot"),
    "swapped": _("changed by the organiser"),
}
assert set(FLAGS) <= set(FLAG_LABELS)  # noqa: S101 - every flag of the contract is explained


def _refused(request: HttpRequest, err: TournamentError) -> None:
    for message in err.messages:
        messages.error(request, message)


def _to_form(form: Any, err: TournamentError) -> None:
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
        return services.can_manage(self.request.user, self.tournament)

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        if not self.allowed():
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def render(self, template: str, status: int = 200, **context: Any) -> HttpResponse:
        can_manage = services.can_manage(self.request.user, self.tournament)
        return render(self.request, f"tournaments/manage/{template}",
                      {"tournament": self.tournament, "can_manage": can_manage, **context},
                      status=status)  # fmt: skip

    def round(self, number: int) -> Round:
        try:
            return self.tournament.round_set.get(number=number)
        except Round.DoesNotExist as err:
            raise Http404 from err


def _catalogue_rows() -> dict[str, Any]:
    data = catalogue()
    lang = "en" if (get_language() or "ru").startswith("en") else "ru"
    presets = list(data["presets"])
    knobs = [
        {"name": name, "label": knob[lang],
         "values": [data["presets"][p].get(name) for p in presets]}
        for name, knob in data["knobs"].items()
    ]  # fmt: skip
    return {"presets": presets, "knobs": knobs, "tie_break_names": TIE_BREAKS}


class ManageListView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "tournaments/manage/list.html", {
            "tournaments": selectors.managed_tournaments(request.user),
            "can_create": services.can_create_tournament(request.user),
        })  # fmt: skip


class TournamentCreateView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not services.can_create_tournament(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        rows = _catalogue_rows()
        form = TournamentForm(presets=rows["presets"])
        return render(request, "tournaments/manage/setup.html", {"form": form, **rows})

    def post(self, request: HttpRequest) -> HttpResponse:
        rows = _catalogue_rows()
        form = TournamentForm(request.POST, presets=rows["presets"])
        if form.is_valid():
            try:
                tournament = services.create_tournament(request.user, **form.setup_fields())
            except TournamentError as err:
                for item in err.errors:
                    form.add_error(item["field"] if item["field"] in form.fields else None,
                                   item["message"])  # fmt: skip
            else:
                messages.success(request, _("The tournament was created."))
                return redirect("tournaments:manage", pk=tournament.pk)
        return render(request, "tournaments/manage/setup.html", {"form": form, **rows},
                      status=400)  # fmt: skip


class SetupView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = _catalogue_rows()
        form = TournamentForm(instance=self.tournament, presets=rows["presets"])
        return self.render("setup.html", form=form, **rows)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = _catalogue_rows()
        current = Tournament.objects.get(pk=pk)
        form = TournamentForm(request.POST, instance=current, presets=rows["presets"])
        if form.is_valid():
            try:
                services.update_tournament(request.user, pk, **form.setup_fields())
            except TournamentError as err:
                for item in err.errors:
                    form.add_error(item["field"] if item["field"] in form.fields else None,
                                   item["message"])  # fmt: skip
            else:
                messages.success(request, _("The setup was saved."))
                return redirect("tournaments:manage", pk=pk)
        return self.render("setup.html", status=400, form=form, **rows)


class DashboardView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        round_list = list(self.tournament.round_set.order_by("number"))
        last = round_list[-1] if round_list else None
        next_number, refusal = rounds.round_to_pair(self.tournament, last)
        counts = selectors.table_counts(self.tournament)
        empty = selectors.TableCounts()
        rows = [
            {"round": r, "counts": counts.get(r.number, empty),
             "standings_url": standings_url(pk, r.number)
             if r.status == Round.Status.FINISHED else ""}
            for r in round_list
        ]  # fmt: skip
        # published rounds waiting to be finished (the next one may be paired meanwhile)
        to_finish = [r for r in round_list if r.status == Round.Status.PUBLISHED]
        finished = self.tournament.status == Tournament.Status.FINISHED
        can_close = (not finished and bool(round_list)
                     and all(r.status == Round.Status.FINISHED for r in round_list))  # fmt: skip
        return self.render(
            "dashboard.html", rounds=round_list, round_rows=rows, can_pair=not refusal,
            next_number=next_number, to_finish=to_finish, can_close=can_close,
            short=can_close and len(round_list) < self.tournament.rounds,
            active=self.tournament.entries.filter(status=Entry.Status.ACTIVE).count(),
        )  # fmt: skip


class CloseView(ManageView):
    """Close the event: finished once every round is finished."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        try:
            rounds.close_tournament(request.user, pk)
        except TournamentError as err:
            _refused(request, err)
        else:
            messages.success(request, _("The tournament is finished."))
        return redirect("tournaments:manage", pk=pk)


class EntriesView(ManageView):
    def get(
        self, request: HttpRequest, pk: int, form: EntryForm | None = None,
        import_errors: list[dict[str, Any]] | None = None, status: int = 200,
    ) -> HttpResponse:  # fmt: skip
        entries = selectors.tournament_with_entries(
            Tournament.objects.filter(pk=pk)).get().entries.all()  # fmt: skip
        absent = {}
        rows = EntryAbsence.objects.filter(entry__tournament_id=pk)
        for entry_id, number in rows.values_list("entry_id", "round_number"):
            absent.setdefault(entry_id, []).append(number)
        return self.render(
            "entries.html", status=status, entries=entries, absent=absent,
            form=form or EntryForm(), import_form=ImportForm(), absence_form=AbsenceForm(),
            import_errors=import_errors or [], columns=csv_import.COLUMNS,
        )  # fmt: skip

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = EntryForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.add_entry(request.user, pk, name=data["name"], seed=data["seed"],
                                   club=data["club"], new_players=form.new_players())  # fmt: skip
            except TournamentError as err:
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                messages.success(request, _("The entry was added."))
                return redirect("tournaments:manage_entries", pk=pk)
        return self.get(request, pk, form=form, status=400)


class ImportView(EntriesView):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = ImportForm(request.POST, request.FILES)
        if not form.is_valid():
            messages.error(request, _("Choose a CSV file."))
            return redirect("tournaments:manage_entries", pk=pk)
        try:
            result = csv_import.import_csv(request.user, pk, form.cleaned_data["file"].read())
        except TournamentError as err:
            return self.get(request, pk, import_errors=err.errors, status=400)
        messages.success(
            request,
            _("Imported: %(entries)s entries, %(players)s new players, %(clubs)s new clubs.")
            % {"entries": result.entries, "players": result.players, "clubs": result.clubs},
        )
        return redirect("tournaments:manage_entries", pk=pk)


class EntryEditView(ManageView):
    def entry(self, entry_id: int) -> Entry:
        return get_object_or_404(Entry, pk=entry_id, tournament=self.tournament)

    def get(self, request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
        entry = self.entry(entry_id)
        return self.render("entry.html", entry=entry, form=EntryEditForm(instance=entry))

    def post(self, request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
        entry = self.entry(entry_id)
        form = EntryEditForm(request.POST, instance=Entry.objects.get(pk=entry.pk))
        if form.is_valid():
            try:
                services.update_entry(request.user, entry.pk, **form.cleaned_data)
            except TournamentError as err:
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                messages.success(request, _("The entry was saved."))
                return redirect("tournaments:manage_entries", pk=pk)
        return self.render("entry.html", status=400, entry=entry, form=form)


class EntryActionView(ManageView):
    def post(self, request: HttpRequest, pk: int, entry_id: int, action: str) -> HttpResponse:
        get_object_or_404(Entry, pk=entry_id, tournament=self.tournament)
        try:
            if action == "withdraw":
                services.withdraw_entry(request.user, entry_id)
                messages.success(request, _("The entry was withdrawn."))
            elif action == "reinstate":
                services.reinstate_entry(request.user, entry_id)
                messages.success(request, _("The entry was reinstated."))
            elif action == "absence":
                form = AbsenceForm(request.POST)
                if not form.is_valid():
                    raise TournamentError.one("bad_round", _("Give the round number."))
                data = form.cleaned_data
                services.set_absence(request.user, entry_id, data["round_number"],
                                     data["absent"], data["reason"])  # fmt: skip
                messages.success(request, _("Availability saved."))
            else:
                raise Http404
        except TournamentError as err:
            _refused(request, err)
        return redirect("tournaments:manage_entries", pk=pk)


class PairRoundView(ManageView):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        try:
            round_ = rounds.start_pairing(request.user, pk)
        except TournamentError as err:
            _refused(request, err)
            return redirect("tournaments:manage", pk=pk)
        return redirect("tournaments:manage_round", pk=pk, number=round_.number)


def _referees() -> list[Any]:
    users = get_user_model().objects.filter(groups__name__in=[REFEREE, CHIEF_REFEREE])
    return list(users.distinct().order_by("username"))


class RoundView(ManageView):
    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        round_ = selectors.round_with_pairings(Round.objects.filter(pk=round_.pk)).get()
        pairings = list(round_.pairings.all())
        tables = [p for p in pairings if p.table]
        forfeited = set(
            Sanction.objects.filter(pairing__round=round_, kind=Sanction.Kind.FORFEIT,
                                    revoked_at__isnull=True).values_list("pairing_id", flat=True)
        )  # fmt: skip
        open_tables = [p.table for p in tables if p.pk not in forfeited
                       and (p.match is None or p.match.status != "confirmed")]  # fmt: skip
        return self.render(
            "round.html", round=round_, tables=tables, forfeited=forfeited,
            byes=[p for p in pairings if not p.table], flag_labels=FLAG_LABELS,
            referees=_referees(), entries=[pl.entry for p in pairings for pl in p.places.all()],
            status_url=reverse("tournaments:manage_round_status", args=[pk, number]),
            open_tables=open_tables, standings_url=standings_url(pk, number),
        )  # fmt: skip


class RoundStatusView(ManageView):
    """The small JSON the round page polls while the job runs."""

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        return JsonResponse({
            "status": round_.status, "status_label": round_.get_status_display(),
            "progress": round_.progress, "step": round_.step, "error": round_.error,
        })  # fmt: skip


class RoundActionView(ManageView):
    def post(self, request: HttpRequest, pk: int, number: int, action: str) -> HttpResponse:
        round_ = self.round(number)
        post = request.POST
        try:
            if action == "swap":
                rounds.swap(request.user, round_.pk, int(post["entry_a"]), int(post["entry_b"]))
                messages.success(request, _("The entries changed places."))
            elif action in ("lock", "unlock"):
                pairing = get_object_or_404(Pairing, pk=int(post["pairing"]), round=round_)
                rounds.set_locked(request.user, pairing.pk, action == "lock")
            elif action == "referee":
                pairing = get_object_or_404(Pairing, pk=int(post["pairing"]), round=round_)
                referee = (get_user_model().objects.get(pk=int(post["referee"]))
                           if post.get("referee") else None)  # fmt: skip
                rounds.assign_referee(request.user, pairing.pk, referee)
                messages.success(request, _("Referee assigned to table %(table)s.")
                                 % {"table": pairing.table})  # fmt: skip
            elif action == "regenerate":
                rounds.regenerate(request.user, round_.pk)
            elif action == "publish":
                rounds.publish(request.user, round_.pk)
                messages.success(request, _("Round %(n)s is published.") % {"n": number})
            elif action == "finish":
                audit_hooks.finish_round(request.user, round_.pk)
                messages.success(request, _("Round %(n)s is finished; its standings are saved.")
                                 % {"n": number})  # fmt: skip
            else:
                raise Http404
        except (KeyError, ValueError):
            messages.error(request, _("Bad request."))
        except TournamentError as err:
            _refused(request, err)
        return redirect("tournaments:manage_round", pk=pk, number=number)


class PrintTablesView(ManageView):
    """The table list to pin up in the hall: table, seats and names (leaders at table 1)."""

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        round_ = selectors.round_with_pairings(Round.objects.filter(pk=round_.pk)).get()
        pairings = list(round_.pairings.all())
        return self.render("print_tables.html", round=round_,
                           tables=[p for p in pairings if p.table],
                           byes=[p for p in pairings if not p.table])  # fmt: skip


# --- discipline ---------------------------------------------------------------------------------


class DisciplineView(ManageView):
    """The chief referee's page: every sanction, recording one, revoking one."""

    def allowed(self) -> bool:
        return results.can_judge(self.request.user, self.tournament)

    def page(self, form: SanctionForm | None = None, revoke_form: RevokeForm | None = None,
             revoking: int | None = None, status: int = 200) -> HttpResponse:  # fmt: skip
        sanctions = list(results.sanctions_of(self.tournament).order_by("round_number", "pk"))
        return self.render(
            "discipline.html", status=status, sanctions=sanctions,
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
                sanction = results.record_sanction(
                    request.user, pk, entry_id=data["entry"].pk,
                    round_number=data["round_number"], kind=data["kind"],
                    reason=data["reason"], player_id=data["player"].pk if data["player"] else None,
                    match_points=data["match_points"] or 0, game_points=data["game_points"] or 0,
                    table=data["table"],
                )  # fmt: skip
            except TournamentError as err:
                _to_form(form, err)
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
                results.revoke_sanction(request.user, sanction.pk, form.cleaned_data["reason"])
            except TournamentError as err:
                _to_form(form, err)
            else:
                messages.success(request, _("The sanction was revoked."))
                return redirect("tournaments:manage_discipline", pk=pk)
        return self.page(revoke_form=form, revoking=sanction.pk, status=400)
