"""The desk copies a paper protocol into a match: a row per deal as written on paper — how it
ended, who went out, the points written for each side, the hands where they were written —
typed on a laptop's keyboard (``static/js/transcribe.js``: Tab from field to field, digits only
in the points, Enter for the next deal).

Every row is judged as it is typed (``TranscribePreviewView``, through
``scoring.services.review``): a written amount that is not the rules' is flagged on its row with
the rules' amount («записано 66, по правилам 58») and the totals on paper stand beside the
rules'; the desk accepts the rules' amount or corrects the hands. Saving records the rows as the
next deals, all or none (``services.record_deals``), each with its own key so that a save sent
twice stores each deal once; where the rules' amount was accepted, the paper's stays in the
deal's history. The desk of the match only (``services.is_desk_for``), while it is in play.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.forms import formset_factory
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import services
from scoring.changes import compare
from scoring.errors import ScoringError
from scoring.forms import PaperDealForm
from scoring.games import deal_limit, is_fives, sheet_asks
from scoring.views.match_view import MatchView, name_place

PaperRows = formset_factory(PaperDealForm, extra=0)
#: blank rows drawn for a match that ends by a target (one that ends after N deals gets N)
OPEN_ROWS = 6


class TranscriptionPage(LoginRequiredMixin, MatchView):
    def allowed(self) -> bool:
        return services.is_desk_for(self.request.user, self.match)

    def refusal(self) -> str:
        return _("Copying a paper protocol in is for the match's desk (the chief referees and "
                 "organisers of its tournament), and you are not at it.")

    def usable(self) -> bool:
        rules = self.match.get_rules()
        return self.match.status in services.EDITABLE and not is_fives(rules)

    def room(self) -> int:
        """The rows a paper may still add: the rules' deal limit less the deals stored (the
        engine refuses more anyway; bounded here, a 990-row paper is not read at all)."""
        return max(1, deal_limit(self.match.get_rules()) - self.match.deals.count())

    def rows(self, data: Any = None) -> Any:
        rules = self.match.get_rules()
        kwargs = {"seats": tuple(rules.seats), "sides": tuple(rules.sides),
                  "finish": "finish" in sheet_asks(rules)}
        if data is not None:
            room = self.room()
            bounded = formset_factory(PaperDealForm, extra=0, max_num=room, validate_max=True,
                                      absolute_max=room)  # fmt: skip
            return bounded(data, prefix="row", form_kwargs=kwargs,
                           error_messages={"too_many_forms": self.too_many(room)})
        counted = sum(1 for d in self.match.deals.all() if d.record.get("result") != "redeal")
        wanted = rules.deals - counted if rules.end == "deals" else OPEN_ROWS
        initial = [{"key": uuid.uuid4()} for _ in range(max(wanted, 1))]
        return PaperRows(initial=initial, prefix="row", form_kwargs=kwargs)

    def judged(self, rows: Any) -> dict[str, Any]:
        """Each row's state and message, and the totals on paper and by the rules, for the
        rows typed so far after the deals already stored."""
        stored = [deal.record for deal in self.match.deals.all()]
        new, where, problems = [], [], {}
        for i, form in enumerate(rows.forms):
            if not form.is_bound:
                continue
            if not form.is_valid():
                problems[i] = [{"code": "invalid", "message": str(m)}
                               for errors in form.errors.values() for m in errors]
            elif not form.is_blank():
                new.append(form.deal())
                where.append(i)
        found = compare(self.match.get_rules(), stored + new)
        sheet = self.sheet()
        states: dict[int, Any] = {i: {"problems": p} for i, p in problems.items()}
        for line in found.lines[len(stored):]:
            i = where[line.index - len(stored)]
            for item in line.errors:
                name_place(sheet, item)
            states[i] = {"line": line, "accepted": rows.forms[i].note()}
        for i, form in enumerate(rows.forms):
            form.state = states.get(i, {})
        return {"cmp": found, "states": states, "invalid": bool(problems),
                "stored": found.lines[:len(stored)], "typed": len(new),
                "planned": self.match.get_rules().deals
                if self.match.get_rules().end == "deals" else None}


    @staticmethod
    def too_many(room: int) -> str:
        return ngettext("The rules allow %(count)s more deal in this match.",
                        "The rules allow %(count)s more deals in this match.", room) % {
            "count": room}


class TranscribeView(TranscriptionPage):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.show(self.rows())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = self.rows(request.POST)
        status = 400
        if not self.usable():
            status = 409
        elif rows.is_valid():
            todo = [services.DealToRecord(form.deal(), form.cleaned_data.get("key"), form.note())
                    for form in rows.forms if not form.is_blank()]
            version = request.POST.get("expected_version")
            try:
                done = services.record_deals(
                    self.match.pk, todo, request.user,
                    expected_version=int(version) if version and version.isdecimal() else None,
                )  # fmt: skip
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    messages.error(request, item["message"])
            else:
                return self.saved(len(done), sum(1 for d in done if d.created))
        for error in rows.non_form_errors():
            messages.error(request, error)
        self.reload()
        return self.show(rows, status=status)

    def saved(self, count: int, created: int) -> HttpResponse:
        if created:
            text = ngettext("%(count)s deal recorded from the paper protocol.",
                            "%(count)s deals recorded from the paper protocol.", created)
            messages.success(self.request, text % {"count": created})
        elif count:
            messages.info(self.request, _("These deals had already been recorded."))
        if self.request.headers.get("Accept", "").startswith("application/json"):
            url = f"/matches/{self.match.pk}/"
            return JsonResponse({"ok": True, "redirect": url, "created": created})
        return redirect("scoring:sheet", pk=self.match.pk)

    def show(self, rows: Any, status: int = 200) -> HttpResponse:
        rules = self.match.get_rules()
        context = self.context(
            rows=rows, usable=self.usable(), sides=self.sheet().sides,
            seat_names=self.sheet().seats, **self.judged(rows),
            transcribe_data={"match": self.match.pk, "version": self.match.version,
                             "sides": list(rules.sides), "seats": list(rules.seats),
                             "strings": {
                                 "kept": _("Rows typed earlier on this computer were kept and "
                                           "are shown again."),
                                 "offline": _("No connection: the rows are kept in this "
                                              "browser. Save again when the connection is "
                                              "back; nothing is recorded twice."),
                             }},
        )
        return render(self.request, "scoring/transcribe.html", context, status=status)


class TranscribePreviewView(TranscriptionPage):
    """POST the rows → each row's check and the totals (HTML pieces); stores nothing."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = self.rows(request.POST)
        rows.is_valid()
        if rows.non_form_errors():
            return JsonResponse({"ok": False, "rows": {}, "error": rows.non_form_errors()[0]},
                                status=400)  # fmt: skip
        context = self.judged(rows)
        return JsonResponse({
            "ok": context["cmp"].ok and not context["invalid"],
            "rows": {str(i): render_to_string("scoring/_paper_check.html", state, request)
                     for i, state in context["states"].items()},
            "totals": render_to_string("scoring/_paper_totals.html", context, request),
        })
