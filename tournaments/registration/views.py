"""Pages of setup and registration, and the public tournament pages.

    /                              public tournaments (no login)
    /tournaments/<pk>/             a tournament and its entries (no login when public)
    /manage/, /manage/new/         my tournaments; a new one (users in the Organiser role)
    /manage/<pk>/setup/            rules preset (every knob of every preset shown), format, ...
    /manage/<pk>/chief-referees/   POST: appoint the chief referees (the form is on the setup page)
    /manage/<pk>/entries/…         registration: add, edit, withdraw, absence, CSV import

Thin: forms parse, ``registration.services`` and ``registration.csv_import`` decide and write.
A refusal is shown as a message on the page it came from, or next to the field it names.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import DetailView, ListView

from config.limits import body_limit
from scoring.views.printing import qr_svg
from tournaments import access
from tournaments.errors import TournamentError
from tournaments.http import ManageView, refused, to_form
from tournaments.models import (
    TIE_BREAKS,
    Entry,
    EntryAbsence,
    Round,
    Tournament,
)
from tournaments.models.registration import default_tie_breaks
from tournaments.registration import csv_import, rules_form, selectors, services
from tournaments.registration.forms import (
    AbsenceForm,
    ChiefRefereesForm,
    EntryEditForm,
    EntryForm,
    ImportForm,
    TournamentForm,
)
from tournaments.selectors import by_rating, entry_ratings, imported_ratings


def _catalogue_rows() -> dict[str, Any]:
    """The presets of both engines, and each preset's knob values for the page's script (a
    change of preset fills the knob fields in)."""
    values = rules_form.presets()
    data = {name: {"engine": rules_form.engine_of(name),
                   "values": {rules_form.field_name(rules_form.engine_of(name), knob): value
                              for knob, value in knobs.items()},
                   "tie_breaks": default_tie_breaks(name)}
            for name, knobs in values.items()}  # fmt: skip
    return {"presets": list(values), "preset_data": data}


def _redisplayed(request: HttpRequest) -> bool:
    """Without the page's script, «Load the preset» and the tie-breaks' arrows are buttons
    that send the form to be shown again, changed and not saved."""
    return "load_preset" in request.POST or "tie_move" in request.POST


def _redisplay(form: TournamentForm, request: HttpRequest) -> TournamentForm:
    post = request.POST
    for bound in form.general_fields():
        form.initial[bound.name] = post.get(bound.name)
    preset = post.get("rules_preset") or "sport"
    form.initial["rules_preset"] = preset
    for engine in rules_form.ENGINES:
        for bound in form.knob_fields(engine):
            form.initial[bound.name] = post.get(bound.name)
    order = [n for n in post.getlist("tie_breaks") if n in TIE_BREAKS]
    if "load_preset" in post:
        form.initial.update(rules_form.initial_values(preset, {}))
        order = default_tie_breaks(preset)
    move, _sep, name = post.get("tie_move", "").partition(":")
    everything = [n for n in post.getlist("tie_order") if n in TIE_BREAKS]
    if name in everything and move in ("up", "down"):
        at = everything.index(name)
        to = at - 1 if move == "up" else at + 1
        if 0 <= to < len(everything):
            everything[at], everything[to] = everything[to], everything[at]
        order = [n for n in everything if n in order]
    form.initial["tie_breaks"] = order
    form.tie_order = everything or None  # type: ignore[attr-defined]
    return form


class ManageListView(LoginRequiredMixin, View):
    """The tournaments the user organises, and those he only judges (as a chief referee)."""

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "tournaments/registration/list.html", self.context(request))

    def context(self, request: HttpRequest) -> dict[str, Any]:
        managed = access.managed_tournaments(request.user)
        return {
            "tournaments": managed,
            "judged": access.judged_tournaments(request.user).exclude(pk__in=managed),
            "can_create": access.can_create_tournament(request.user),
        }


class TournamentCreateView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not access.can_create_tournament(request.user):
            raise PermissionDenied(_("Creating a tournament (or importing one) needs the role "
                                     "of an organiser; the site's administrator gives roles."))
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        rows = _catalogue_rows()
        form = TournamentForm(presets=rows["presets"])
        return render(request, "tournaments/registration/setup.html", {"form": form, **rows})

    def post(self, request: HttpRequest) -> HttpResponse:
        rows = _catalogue_rows()
        if _redisplayed(request):
            form = _redisplay(TournamentForm(presets=rows["presets"]), request)
            return render(request, "tournaments/registration/setup.html", {"form": form, **rows})
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
        return render(request, "tournaments/registration/setup.html", {"form": form, **rows},
                      status=400)  # fmt: skip


class SetupView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = _catalogue_rows()
        form = TournamentForm(instance=self.tournament, presets=rows["presets"])
        return self.render("registration/setup.html", form=form, **rows,
                           chief_form=self.chief_form())  # fmt: skip

    def chief_form(self) -> ChiefRefereesForm:
        chosen = list(self.tournament.chief_referees.values_list("pk", flat=True))
        return ChiefRefereesForm(initial={"chief_referees": chosen})

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = _catalogue_rows()
        current = Tournament.objects.get(pk=pk)
        if _redisplayed(request):
            form = _redisplay(TournamentForm(instance=current, presets=rows["presets"]), request)
            return self.render("registration/setup.html", form=form, **rows,
                               chief_form=self.chief_form())  # fmt: skip
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
        return self.render("registration/setup.html", status=400, form=form, **rows,
                           chief_form=self.chief_form())  # fmt: skip


class ChiefRefereesView(SetupView):
    """The chief referees' form of the setup page: saved, or the page again with the refusal."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        chief_form = ChiefRefereesForm(request.POST)
        if chief_form.is_valid():
            try:
                services.set_chief_referees(request.user, pk,
                                            chief_form.cleaned_data["chief_referees"])  # fmt: skip
            except TournamentError as err:
                to_form(chief_form, err)
            else:
                messages.success(request, _("The chief referees were saved."))
                return redirect("tournaments:manage_setup", pk=pk)
        rows = _catalogue_rows()
        form = TournamentForm(instance=self.tournament, presets=rows["presets"])
        return self.render("registration/setup.html", status=400, form=form, **rows,
                           chief_form=chief_form)  # fmt: skip


class EntriesView(ManageView):
    def get(
        self, request: HttpRequest, pk: int, form: EntryForm | None = None,
        import_errors: list[dict[str, Any]] | None = None, status: int = 200,
    ) -> HttpResponse:  # fmt: skip
        tournament = selectors.tournament_with_entries(Tournament.objects.filter(pk=pk)).get()
        entries = list(tournament.entries.all())
        # the rating each entry would have today (its players' club ratings) and the one its
        # players were imported with: both shown, and the order of the list when round 1 is
        # seeded by rating
        today, imported = entry_ratings(tournament), imported_ratings(tournament)
        for entry in entries:
            entry.rating_today = today.get(entry.pk)  # type: ignore[attr-defined]
            entry.rating_imported = imported.get(entry.pk)  # type: ignore[attr-defined]
        if tournament.seed_by_rating:
            entries = by_rating(entries, today, imported)
        absent = {}
        rows = EntryAbsence.objects.filter(entry__tournament_id=pk)
        for entry_id, number in rows.values_list("entry_id", "round_number"):
            absent.setdefault(entry_id, []).append(number)
        return self.render(
            "registration/entries.html", status=status, entries=entries, absent=absent,
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


@body_limit(csv_import.MAX_BYTES)
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
        for note in result.notes:
            messages.warning(request, note["message"])
        return redirect("tournaments:manage_entries", pk=pk)


class EntryEditView(ManageView):
    def entry(self, entry_id: int) -> Entry:
        return get_object_or_404(Entry, pk=entry_id, tournament=self.tournament)

    def render_entry(self, entry: Entry, form: EntryEditForm, status: int = 200) -> HttpResponse:
        # the entry's personal link (``tournaments.personal``) with its QR code, to hand over
        link = self.request.build_absolute_uri(reverse("tournaments:personal", args=[entry.token]))
        return self.render("registration/entry.html", status=status, entry=entry, form=form,
                           personal_link=link, personal_qr=qr_svg(link))  # fmt: skip

    def get(self, request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
        entry = self.entry(entry_id)
        return self.render_entry(entry, EntryEditForm(instance=entry))

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
        return self.render_entry(entry, form, status=400)


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
            refused(request, err)
        return redirect("tournaments:manage_entries", pk=pk)


class HomeView(ListView):
    template_name = "tournaments/registration/home.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> QuerySet[Tournament]:
        return access.public_tournament_list()


class TournamentDetailView(DetailView):
    template_name = "tournaments/registration/detail.html"
    context_object_name = "tournament"

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournament_with_entries(access.visible_tournaments(self.request.user))

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["entries"] = list(self.object.entries.all())
        published = (Round.Status.PUBLISHED, Round.Status.FINISHED)
        context["rounds"] = list(self.object.round_set.filter(status__in=published))
        context["can_manage"] = access.can_manage(self.request.user, self.object)
        return context
