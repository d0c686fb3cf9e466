"""The referee's phone page: the sheet with the deal entry, the preview of a deal, recording or
amending it (JSON answers for ``fetch``, redirects for plain forms) and deleting the last deal;
the match's clock as JSON for the page's countdown.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.limits import body_limit
from scoring import services
from scoring.errors import ScoringError
from scoring.forms import DealForm
from scoring.games import AnyRules, is_fives, seats_out, sheet_asks
from scoring.views.fives_page import fives_data
from scoring.views.match_view import MatchView, form_errors, wants_json


def deal_sides(rules: AnyRules) -> tuple[str, ...]:
    """The sides whose announced points the deal form takes (none for the fives board)."""
    return () if is_fives(rules) else tuple(rules.sides)


def deal_form(match: Any, data: Any = None, **kwargs: Any) -> DealForm:
    """The referee's deal form for the match's game: its seats and sides, and a club game's
    extra questions (``scoring.games.sheet_asks``)."""
    rules = match.get_rules()
    return DealForm(data, seats=rules.seats, sides=deal_sides(rules), asks=sheet_asks(rules),
                    **kwargs)


class SheetView(MatchView):
    """The referee's page: seats, the protocol so far and, for the referee, the deal entry."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return render(request, "scoring/sheet.html", self.sheet_context())

    def sheet_context(self, form: DealForm | None = None, **extra: Any) -> dict[str, Any]:
        match = self.match
        rules = match.get_rules()
        deals = list(match.deals.all())
        clock = services.clock_state(match)
        # the clock ran out and no deal ended the match by time yet: the next deal recorded is
        # the last (the server marks it anyway: ``scoring.services.clock``)
        last_by_time = bool(clock and clock.time_up and not match.finished
                            and not any(d.record.get("time_up") for d in deals))  # fmt: skip
        if form is None:
            # Every deal gets its key when the form is drawn (the script keeps it with a deal
            # waiting to be sent), so that sending the form again never stores it twice.
            form = deal_form(match, initial={
                "expected_version": match.version, "leader": match.next_leader or "",
                "mode": "tiles", "client_id": uuid.uuid4(), "time_up": last_by_time,
            })
        sheet = self.sheet()
        # ``semerka``: a seat out of the match is named in no later deal (RULES.md section 26)
        out = seats_out(rules, match.outcome)
        form.fields["by"].choices = [("", "—")] + [(s.seat, sheet.seat_name(s.seat))
                                                   for s in sheet.seats if s.seat not in out]
        if is_fives(rules):
            extra["fives_data"] = fives_data(match, rules)
        return self.context(
            sheet=sheet,
            form=form,
            seat_list=[s for s in rules.seats if s not in out],
            hand_rows=[(s, form[f"hand_{s.seat}"], form[f"pips_{s.seat}"]) for s in sheet.seats
                       if s.seat not in out],
            seats_out=[sheet.seat_name(s) for s in out],
            tile_rows=[[f"{a}:{b}" for b in range(a + 1)] for a in range(7)],
            last_deal=deals[-1].record if deals else None,
            last_n=len(deals),
            clock=clock.as_json() if clock and not match.finished else None,
            clock_url=reverse("scoring:clock", args=[match.pk]),
            last_by_time=last_by_time,
            strings={
                "went_out": _("went out"), "empty_hand": _("no tiles yet"),
                # the word after a number of pips in each plural category the page's
                # Intl.PluralRules gives for a whole number ("18 очков", not "18 очки")
                "pips_forms": {category: ngettext("pip", "pips", n) for category, n in
                               (("one", 1), ("few", 2), ("many", 5), ("other", 5))},
                "who_went_out": _("Who went out"),
                "who_blocked": _("Who made the blocking move (optional)"),
                "preview_offline": _("No connection: the verdict will show when it is back."),
                "kept_offline": _("No connection. The deal is kept on this phone and will be "
                                  "sent again automatically; tapping Save again will not "
                                  "record it twice."),
                "no_answer": _("No answer from the server. The deal is kept on this phone and "
                               "will be sent again; tapping Save again will not record it "
                               "twice."),
                "resending": _("Sending the kept deal again…"),
            },
            **extra,
        )


@body_limit("DEAL_MAX_BYTES")
class PreviewView(MatchView):
    """POST the deal form → the verdict it would get (JSON with an HTML panel). Stores nothing."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not services.can_write(request.user, self.match):  # as the API's preview
            raise PermissionDenied
        form = deal_form(self.match, request.POST)
        if not form.is_valid():
            return JsonResponse({"ok": False, "html": self.verdict_html(errors=form_errors(form))})
        try:
            verdict = services.preview_deal(self.match.pk, form.deal(),
                                            amend=request.POST.get("amend") == "1")
        except ScoringError as err:
            return JsonResponse({"ok": False, "html": self.verdict_html(errors=err.errors)})
        return JsonResponse({"ok": verdict.ok, "html": self.verdict_html(verdict)})


@body_limit("DEAL_MAX_BYTES")
class RecordView(MatchView):
    """POST the deal form → the deal stored (once per client_id) or the reasons it was not."""

    amend = False

    def actions_html(self) -> str:
        """The last deal's buttons as they must be now (the version and the deal they act on)."""
        last = self.match.deals.order_by("-n").first()
        return render_to_string("scoring/_last_actions.html", {
            "match": self.match, "last_deal": last.record if last else None,
            "last_n": last.n if last else 0}, request=self.request)  # fmt: skip

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = deal_form(self.match, request.POST)
        if not form.is_valid():
            return self.refused(form, form_errors(form), 400)
        data = form.cleaned_data
        try:
            if self.amend:
                amended = services.amend_last_deal(self.match.pk, form.deal(), request.user,
                                                   expected_version=data["expected_version"])
                # A resent amendment is answered without a new version.
                created = amended.match_version > self.match.version
            else:
                created = services.record_deal(
                    self.match.pk, form.deal(), request.user,
                    client_id=data["client_id"], expected_version=data["expected_version"],
                ).created
        except ScoringError as err:
            return self.refused(form, err.errors, err.status)
        self.reload()
        if created:
            message = _("Deal saved.")
        elif self.amend:
            message = _("The last deal already reads like this; nothing was changed.")
        else:
            message = _("This deal had already been saved.")
        if not wants_json(request):
            messages.success(request, message)
            return redirect("scoring:sheet", pk=self.match.pk)
        return JsonResponse({
            "ok": True, "created": created, "message": message,
            "version": self.match.version, "next_leader": self.match.next_leader or "",
            "leader_html": self.leader_html(), "protocol_html": self.protocol_html(),
            "actions_html": self.actions_html(), "reload": self.match.finished,
        }, status=201 if created else 200)

    def refused(self, form: DealForm, errors: list[dict[str, Any]], status: int) -> HttpResponse:
        self.reload()
        reused_key = any(item["code"] == "idempotency_conflict" for item in errors)
        if not wants_json(self.request):
            if reused_key:
                # The old key is spent: saving the form again records it as a new deal.
                form.data = form.data.copy()
                form.data["client_id"] = str(uuid.uuid4())
            for item in errors:
                form.add_error(None, item["message"])
            sheet = SheetView(request=self.request, kwargs=self.kwargs)
            sheet.match = self.match
            context = sheet.sheet_context(form=form, errors_html=self.verdict_html(errors=errors))
            return render(self.request, "scoring/sheet.html", context, status=status)
        messages_ = {403: _("You may not change this protocol."),
                     409: _("The protocol has changed; it is shown as it is now.")}
        message = messages_.get(status, "")
        if reused_key:
            message = _("This entry had already been saved as a deal with other contents; "
                        "nothing new was stored. Check the protocol: amend the last deal, or "
                        "save again to record this one as a new deal.")
        return JsonResponse({
            "ok": False, "errors": errors, "html": self.verdict_html(errors=errors),
            "message": message, "version": self.match.version,
            "protocol_html": self.protocol_html(), "actions_html": self.actions_html(),
        }, status=status)


class DeleteLastView(MatchView):
    """POST ``expected_version`` (and ``n``, the deal shown as the last) → the last deal deleted;
    the same form sent again deletes nothing more and says so."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not services.can_write(request.user, self.match):
            raise PermissionDenied
        version, n = request.POST.get("expected_version"), request.POST.get("n")
        try:
            match = services.delete_last_deal(
                self.match.pk, request.user, n=int(n) if n else None,
                expected_version=int(version) if version else None,
            )  # fmt: skip
        except (ScoringError, ValueError) as err:
            for item in getattr(err, "errors", [{"message": _("Bad request.")}]):
                messages.error(request, item["message"])
        else:
            self.say_done(match, _("The last deal was deleted."),
                          _("The last deal had already been deleted."))
        return redirect("scoring:sheet", pk=self.match.pk)


class ClockView(MatchView):
    """GET → the match's clock as JSON (``{"clock": null}`` without one), for whoever sees the
    match: the referee's page re-syncs its countdown with it (``static/js/clock.js``)."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        clock = services.clock_state(self.match)
        response = JsonResponse({"clock": clock.as_json() if clock else None})
        response["Cache-Control"] = "no-store"
        return response
