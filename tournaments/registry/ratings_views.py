"""The site administrator's import of a federation's rating list (``rating_list``).

    GET  /registry/ratings/import/     the form: a CSV file or pasted text
    POST … action=preview             what the list would do, nothing written; the list goes
                                       back signed in the form, with the preview's digest
    POST … action=apply               the signed list planned again and applied when the plan
                                       is still the one previewed (else the new preview)

Superusers only: the registry is every organiser's, and its ratings seed their tournaments.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from tournaments.errors import TournamentError
from tournaments.registry import rating_list

SALT = "registry.rating_list"
SHOWN = 200  # rows of each kind listed on the preview (the counts are whole)


class ListForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"), required=False)
    text = forms.CharField(label=gettext_lazy("…or the list pasted"), required=False,
                           widget=forms.Textarea(attrs={"rows": 6}))  # fmt: skip
    create = forms.BooleanField(label=gettext_lazy(
        "Add the players the registry does not have yet"), required=False)


class RatingImportView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not request.user.is_superuser:
            raise PermissionDenied(_("Only a site administrator imports a rating list: the "
                                     "registry's ratings seed every organiser's tournaments."))
        return super().dispatch(request, *args, **kwargs)

    def page(self, form: ListForm, status: int = 200, **context: Any) -> HttpResponse:
        return render(self.request, "tournaments/registry/rating_import.html",
                      {"form": form, "shown": SHOWN, **context}, status=status)  # fmt: skip

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.page(ListForm())

    def post(self, request: HttpRequest) -> HttpResponse:
        if request.POST.get("action") == "apply":
            return self.apply(request)
        form = ListForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.page(form, status=400)
        upload = form.cleaned_data["file"]
        data = upload.read(rating_list.MAX_BYTES + 1) if upload else form.cleaned_data["text"]
        try:
            text = rating_list.decode(data)
            return self.preview(form, text, form.cleaned_data["create"])
        except TournamentError as err:
            for message in err.messages:
                form.add_error(None, message)
            return self.page(form, status=400)

    def preview(self, form: ListForm, text: str, create: bool, status: int = 200,
                ) -> HttpResponse:  # fmt: skip
        rows, problems = rating_list.read(text)
        plan = rating_list.plan(rows, create)
        signed = signing.dumps({"text": text, "create": create}, salt=SALT, compress=True)
        return self.page(form, status=status, plan=plan, problems=problems, signed=signed,
                         digest=plan.digest())  # fmt: skip

    def apply(self, request: HttpRequest) -> HttpResponse:
        try:
            kept = signing.loads(request.POST.get("signed", ""), salt=SALT, max_age=3600)
        except signing.BadSignature:
            messages.error(request, _("The previewed list could not be read back (changed or "
                                      "older than an hour): preview it again."))
            return redirect("tournaments:registry_ratings")
        rows, _problems = rating_list.read(kept["text"])
        try:
            plan = rating_list.apply(request.user, rows, kept["create"],
                                     request.POST.get("digest", ""))  # fmt: skip
        except TournamentError as err:
            messages.error(request, err.messages[0])
            return self.preview(ListForm(), kept["text"], kept["create"], status=409)
        messages.success(request, _(
            "Rating list applied: %(changed)s ratings changed, %(created)s players added, "
            "%(unchanged)s unchanged, %(conflicts)s conflicts left as they were."
        ) % {"changed": len(plan.changes), "created": len(plan.new) if plan.create else 0,
             "unchanged": len(plan.unchanged), "conflicts": len(plan.conflicts)})  # fmt: skip
        return redirect("tournaments:registry_ratings")
