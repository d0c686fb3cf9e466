"""The roll call page: /manage/<pk>/roll-call/ (the organisers'; works without JavaScript).

Each row's buttons post one tap (``call=<entry>:<state>``) and come back to that row; a no-show
of the round in play posts ``no_show=<entry>:forfeit|withdraw``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.discipline import roll_call
from tournaments.errors import TournamentError
from tournaments.http import ManageView, refused
from tournaments.models import Entry


class RollCallView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render("registration/roll_call.html", sheet=roll_call.sheet(self.tournament))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        key = "call" if "call" in request.POST else "no_show"
        entry_text, _sep, what = request.POST.get(key, "").partition(":")
        anchor = ""
        try:
            entry = self.tournament.entries.get(pk=int(entry_text))
            anchor = f"#entry-{entry.pk}"
            if key == "call":
                roll_call.call(request.user, entry.pk, what)
            else:
                roll_call.no_show(request.user, entry.pk, what)
                messages.success(request, _("%(entry)s: done.") % {"entry": entry.name})
        except (ValueError, Entry.DoesNotExist):
            messages.error(request, _("Bad request."))
        except TournamentError as err:
            refused(request, err)
        return redirect(reverse("tournaments:manage_roll_call", args=[pk]) + anchor)
