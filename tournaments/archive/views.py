"""The organiser's archive pages: download a tournament as JSON, create one from an archive.

    GET  /manage/<pk>/archive.json   the tournament's managers (403 otherwise, 404 if hidden)
    GET/POST /manage/import/         users who may create tournaments: an archive uploaded is
                                     shown for review (nothing written); ``replaces``: restore
                                     over that copy (its organisers only)
    POST /manage/import/<token>/     the importer confirms the review: the tournament is written
                                     and only the importer organises it

``tournaments.archive`` decides and writes; a refused archive is shown with every reason.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from config.limits import body_limit
from tournaments import access
from tournaments.archive import export, reader, review
from tournaments.errors import TournamentError
from tournaments.http import ManageView
from tournaments.models import Tournament


class ArchiveForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Tournament archive (JSON)"))
    replaces = forms.IntegerField(required=False, widget=forms.HiddenInput)


def archive_filename(tournament: Any) -> str:
    return f"tournament-{tournament.pk}.json"


class ArchiveDownloadView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        body = export.dumps(export.export_tournament(self.tournament))
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{archive_filename(self.tournament)}"'
        )
        return response


# the form's own overhead beside the file (the file itself is checked below, with a message)
@body_limit("ARCHIVE_MAX_BYTES")
class ArchiveImportView(LoginRequiredMixin, View):
    template = "tournaments/archive/import.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not access.can_create_tournament(request.user):
            raise PermissionDenied(_("Creating a tournament (or importing one) needs the role "
                                     "of an organiser; the site's administrator gives roles."))
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest, form: ArchiveForm | None = None,
            errors: list[Any] | None = None, status: int = 200) -> HttpResponse:  # fmt: skip
        if form is None:
            form = ArchiveForm(initial={"replaces": request.GET.get("replaces")})
        return render(request, self.template, {"form": form, "errors": errors},
                      status=status)  # fmt: skip

    def post(self, request: HttpRequest) -> HttpResponse:
        form = ArchiveForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.get(request, form, status=400)
        upload = form.cleaned_data["file"]
        try:
            limit = settings.ARCHIVE_MAX_BYTES
            if upload.size > limit:
                raise TournamentError.one(
                    "too_large",
                    _("The file is larger than %(mb)s MB.") % {"mb": limit // 2**20},
                    "file",
                )
            replaces = None
            if form.cleaned_data["replaces"]:
                replaces = access.visible_tournaments(request.user).filter(
                    pk=form.cleaned_data["replaces"]).first()  # fmt: skip
                if replaces is None:
                    raise TournamentError.one("replaces", _("No such tournament."), "replaces")
            raw = upload.read()
            pending = review.prepare(reader.load_file(raw), request.user, raw=raw,
                                     replaces=replaces)  # fmt: skip
        except TournamentError as err:
            return self.get(request, form, errors=err.errors, status=err.status)
        return render(request, "tournaments/archive/review.html", {
            "pending": pending, "players": pending.players,
            "counts": review.counts(pending.players),
            "name": (pending.data.get("tournament") or {}).get("name", ""),
        })  # fmt: skip


class ArchiveConfirmView(LoginRequiredMixin, View):
    def post(self, request: HttpRequest, token: str) -> HttpResponse:
        try:
            tournament: Tournament = review.confirm(token, request.user)
        except TournamentError as err:
            return render(request, ArchiveImportView.template,
                          {"form": ArchiveForm(), "errors": err.errors},
                          status=err.status)  # fmt: skip
        messages.success(request, _("The tournament was imported from the archive."))
        for note in tournament.archive_notes:  # type: ignore[attr-defined]
            messages.warning(request, note)
        return redirect("tournaments:manage", pk=tournament.pk)
