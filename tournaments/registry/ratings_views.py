"""The site administrator's import of a federation's rating list (``rating_list``).

    GET  /registry/ratings/import/     the form: a CSV file or pasted text
    POST … action=preview             what the list would do, nothing written; the list goes
                                       back signed in the form, with the preview's digest
    POST … action=apply               the signed list planned again and applied when the plan
                                       is still the one previewed (else the new preview), with
                                       the conflicts ticked on it (``accept``: their lines)

A file may be ``MAX_BYTES``; pasted text and the signed list ride in form fields, which Django
caps at ``DATA_UPLOAD_MAX_MEMORY_SIZE``: the textarea says its limit, and a preview whose list
would not fit in the apply form asks for the list in parts rather than failing at the apply.

Superusers only: the registry is every organiser's, and its ratings seed their tournaments.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from config.limits import body_limit
from tournaments.errors import TournamentError
from tournaments.registry import rating_list

SALT = "registry.rating_list"
SHOWN = 200  # rows of each kind listed on the preview (the counts are whole)
#: room in a form body for the fields beside the pasted text or the signed list
FORM_SLACK = 16 * 1024


def field_room() -> int:
    """How large one form field may be (Django refuses a larger form body outright)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE  # None: Django checks nothing
    return (rating_list.MAX_BYTES * 2 if limit is None else int(limit)) - FORM_SLACK


class ListForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"), required=False)
    text = forms.CharField(label=gettext_lazy("…or the list pasted"), required=False,
                           widget=forms.Textarea(attrs={"rows": 6}), help_text=gettext_lazy(
                               "Up to %(n)s characters; a longer list as a file (2 MB).")
                           )  # fmt: skip
    create = forms.BooleanField(label=gettext_lazy(
        "Add the players the registry does not have yet"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # characters, so that even three bytes each fit the form body Django accepts
        room = field_room() // 3
        text = self.fields["text"]
        text.widget.attrs["maxlength"] = str(room)
        text.validators.append(MaxLengthValidator(room))
        text.help_text = text.help_text % {"n": room}


@body_limit(rating_list.MAX_BYTES)
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
        if len(signed) > field_room():
            raise TournamentError.one("too_big_to_apply", _(
                "This list is too large to apply in one go: split it into parts."))
        return self.page(form, status=status, plan=plan, problems=problems, signed=signed,
                         digest=plan.digest(),
                         tickable=any(clash.player for clash in plan.conflicts))  # fmt: skip

    def apply(self, request: HttpRequest) -> HttpResponse:
        try:
            kept = signing.loads(request.POST.get("signed", ""), salt=SALT, max_age=3600)
        except signing.BadSignature:
            messages.error(request, _("The previewed list could not be read back (changed or "
                                      "older than an hour): preview it again."))
            return redirect("tournaments:registry_ratings")
        rows, _problems = rating_list.read(kept["text"])
        try:
            accept = {int(line) for line in request.POST.getlist("accept") if line.isdigit()}
            plan = rating_list.apply(request.user, rows, kept["create"],
                                     request.POST.get("digest", ""), accept)  # fmt: skip
        except TournamentError as err:
            messages.error(request, err.messages[0])
            return self.preview(ListForm(), kept["text"], kept["create"], status=409)
        messages.success(request, _(
            "Rating list applied: %(changed)s ratings changed (%(accepted)s of them ticked "
            "conflicts), %(created)s players added, %(unchanged)s unchanged, %(conflicts)s "
            "conflicts left as they were."
        ) % {"changed": len(plan.changes), "created": len(plan.new) if plan.create else 0,
             "accepted": plan.ticked,
             "unchanged": len(plan.unchanged), "conflicts": len(plan.conflicts)})  # fmt: skip
        return redirect("tournaments:registry_ratings")
