"""Pages of a match: the referee's phone page, submit, confirm, correct, history and printing.

Thin: a view parses with ``scoring.forms``, writes only through ``scoring.services`` (which judge
every deal through the rules engine and decide who may do what) and reads through
``scoring.selectors``. Nothing here scores a deal. The referee's page talks to the record and
preview views with ``fetch`` (JSON answers) and works as plain HTML forms without JavaScript.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Case, When
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from scoring import selectors, services
from scoring.errors import ScoringError, problem_item
from scoring.forms import (
    ConfirmForm,
    CorrectionForm,
    DealForm,
    MatchForm,
    PinForm,
    SubmitForm,
)
from scoring.models import Match
from scoring.pdf import protocol_pdf
from scoring.sheet import Sheet, build_sheet, side_label


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def form_errors(form: Any) -> list[dict[str, Any]]:
    return [{"code": "invalid", "message": str(message), "field": field}
            for field, messages_ in form.errors.items() for message in messages_]


class MatchView(View):
    """A view of one match: loads it (404 when missing) and builds its sheet."""

    match: Match

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            self.match = selectors.get_match(kwargs["pk"])
        except Match.DoesNotExist as err:
            raise Http404(_("No such match.")) from err
        return super().dispatch(request, *args, **kwargs)

    def reload(self) -> None:
        self.match = selectors.get_match(self.match.pk)

    def sheet(self) -> Sheet:
        url = self.request.build_absolute_uri(reverse("scoring:sheet", args=[self.match.pk]))
        return build_sheet(self.match, self.match.deals.all(), url=url)

    def context(self, **extra: Any) -> dict[str, Any]:
        user = self.request.user
        match = self.match
        return {
            "match": match,
            "sheet": extra.pop("sheet", None) or self.sheet(),
            "can_write": services.can_write(user, match),
            "editable": match.status in services.EDITABLE,
            "is_desk": services.is_desk_for(user, match),
            "can_correct": services.can_correct(user),
            "pin_form": PinForm(),
            **extra,
        }

    def leader_html(self) -> str:
        return render_to_string("scoring/_leader.html", {"sheet": self.sheet()}, self.request)

    def protocol_html(self) -> str:
        return render_to_string("scoring/_protocol.html", self.context(), self.request)

    def verdict_html(self, verdict: Any = None, errors: list[dict[str, Any]] | None = None) -> str:
        return render_to_string(
            "scoring/_verdict.html", verdict_context(self.sheet(), verdict, errors), self.request
        )


def verdict_context(sheet: Sheet, verdict: Any, errors: list[dict[str, Any]] | None) -> dict:
    """The preview panel: what gets written for whom, eggs, running totals; or the errors."""
    if errors is None and verdict is not None and not verdict.ok:
        errors = [problem_item(p) for p in verdict.errors]
    for item in errors or []:
        seat = item.get("seat")
        item["where"] = sheet.seat_name(seat) if seat else ""
    if errors:
        return {"errors": errors}
    if verdict is None:
        return {}
    sides = [s.side for s in sheet.sides]
    return {
        "verdict": verdict,
        "winner_label": side_label(verdict.winner) if verdict.winner else "",
        "written": [(side_label(s), verdict.recorded.get(s, 0)) for s in sides
                    if verdict.recorded.get(s, 0)],
        "values": [(side_label(s), (verdict.values or {}).get(s, 0)) for s in sides],
        "totals": [(side_label(s), verdict.totals.get(s, 0)) for s in sides],
        "hanging": [(side_label(s), verdict.hanging.get(s, 0)) for s in sides
                    if verdict.hanging.get(s, 0)],
        "next_leader": sheet.seat_name(verdict.next_leader),
    }


class MatchListView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        queryset = selectors.matches()
        if not services.is_desk(request.user):
            queryset = queryset.filter(referee=request.user)
        # what needs someone now comes first: waiting for confirmation, in play, not started
        waiting = Case(
            When(status=Match.Status.SUBMITTED, then=0), When(status=Match.Status.IN_PLAY, then=1),
            When(status=Match.Status.DRAFT, then=2), default=3,
        )  # fmt: skip
        queryset = queryset.order_by(waiting, "-created_at", "-pk")
        return render(request, "scoring/match_list.html", {
            "matches": queryset[:100], "can_create": services.can_create(request.user),
        })


class MatchCreateView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not services.can_create(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "scoring/match_form.html", {"form": MatchForm()})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = MatchForm(request.POST)
        if form.is_valid():
            try:
                match = services.create_match(user=request.user, **form.create_kwargs())
            except ScoringError as err:
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                return redirect("scoring:sheet", pk=match.pk)
        return render(request, "scoring/match_form.html", {"form": form}, status=400)


class SheetView(MatchView):
    """The referee's page: seats, the protocol so far and, for the referee, the deal entry."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return render(request, "scoring/sheet.html", self.sheet_context())

    def sheet_context(self, form: DealForm | None = None, **extra: Any) -> dict[str, Any]:
        match = self.match
        rules = match.get_rules()
        if form is None:
            form = DealForm(seats=rules.seats, initial={
                "expected_version": match.version, "leader": match.next_leader or "",
                "mode": "tiles",
            })
        sheet = self.sheet()
        form.fields["by"].choices = [("", "—")] + [(s.seat, sheet.seat_name(s.seat))
                                                   for s in sheet.seats]
        deals = list(match.deals.all())
        return self.context(
            sheet=sheet,
            form=form,
            seat_list=list(rules.seats),
            hand_rows=[(s, form[f"hand_{s.seat}"], form[f"pips_{s.seat}"]) for s in sheet.seats],
            tile_rows=[[f"{a}:{b}" for b in range(a + 1)] for a in range(7)],
            last_deal=deals[-1].record if deals else None,
            strings={
                "went_out": _("went out"), "pips": _("pips"), "empty_hand": _("no tiles yet"),
                "who_went_out": _("Who went out"),
                "who_blocked": _("Who made the blocking move (optional)"),
                "preview_offline": _("No connection: the verdict will show when it is back."),
                "kept_offline": _("No connection. The deal is kept on this phone and will be "
                                  "sent again automatically."),
                "resending": _("Sending the kept deal again…"),
            },
            **extra,
        )


class PreviewView(MatchView):
    """POST the deal form → the verdict it would get (JSON with an HTML panel). Stores nothing."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not services.can_write(request.user, self.match):  # as the API's preview
            raise PermissionDenied
        form = DealForm(request.POST, seats=self.match.get_rules().seats)
        if not form.is_valid():
            return JsonResponse({"ok": False, "html": self.verdict_html(errors=form_errors(form))})
        verdict = services.preview_deal(self.match.pk, form.deal())
        return JsonResponse({"ok": verdict.ok, "html": self.verdict_html(verdict)})


class RecordView(MatchView):
    """POST the deal form → the deal stored (once per client_id) or the reasons it was not."""

    amend = False

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = DealForm(request.POST, seats=self.match.get_rules().seats)
        if not form.is_valid():
            return self.refused(form, form_errors(form), 400)
        data = form.cleaned_data
        try:
            if self.amend:
                services.amend_last_deal(self.match.pk, form.deal(), request.user,
                                         expected_version=data["expected_version"])
                created = True
            else:
                created = services.record_deal(
                    self.match.pk, form.deal(), request.user,
                    client_id=data["client_id"], expected_version=data["expected_version"],
                ).created
        except ScoringError as err:
            return self.refused(form, err.errors, err.status)
        self.reload()
        message = _("Deal saved.") if created else _("This deal had already been saved.")
        if not wants_json(request):
            messages.success(request, message)
            return redirect("scoring:sheet", pk=self.match.pk)
        return JsonResponse({
            "ok": True, "created": created, "message": message,
            "version": self.match.version, "next_leader": self.match.next_leader or "",
            "leader_html": self.leader_html(), "protocol_html": self.protocol_html(),
            "reload": self.match.finished,
        }, status=201 if created else 200)

    def refused(self, form: DealForm, errors: list[dict[str, Any]], status: int) -> HttpResponse:
        self.reload()
        if not wants_json(self.request):
            for item in errors:
                form.add_error(None, item["message"])
            sheet = SheetView(request=self.request, kwargs=self.kwargs)
            sheet.match = self.match
            context = sheet.sheet_context(form=form, errors_html=self.verdict_html(errors=errors))
            return render(self.request, "scoring/sheet.html", context, status=status)
        messages_ = {403: _("You may not change this protocol."),
                     409: _("The protocol has changed; it is shown as it is now.")}
        return JsonResponse({
            "ok": False, "errors": errors, "html": self.verdict_html(errors=errors),
            "message": messages_.get(status, ""), "version": self.match.version,
            "protocol_html": self.protocol_html(),
        }, status=status)


class DeleteLastView(MatchView):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not services.can_write(request.user, self.match):
            raise PermissionDenied
        version = request.POST.get("expected_version")
        try:
            services.delete_last_deal(self.match.pk, request.user,
                                      expected_version=int(version) if version else None)
        except (ScoringError, ValueError) as err:
            for item in getattr(err, "errors", [{"message": _("Bad request.")}]):
                messages.error(request, item["message"])
        else:
            messages.success(request, _("The last deal was deleted."))
        return redirect("scoring:sheet", pk=self.match.pk)


class SubmitView(MatchView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = SubmitForm(initial={"expected_version": self.match.version})
        return render(request, "scoring/submit.html", self.context(form=form))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = SubmitForm(request.POST)
        status = 400  # a refusal of the services keeps its status
        if form.is_valid():
            try:
                services.submit(self.match.pk, request.user,
                                expected_version=form.cleaned_data["expected_version"])
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                messages.success(request, _("The protocol was submitted."))
                return redirect("scoring:confirm", pk=self.match.pk)
        self.reload()
        return render(request, "scoring/submit.html", self.context(form=form), status=status)


class ConfirmView(LoginRequiredMixin, MatchView):
    """The chief referee confirms at the desk, or the opposing captain types the PIN here."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return render(request, "scoring/confirm.html", self.context(form=ConfirmForm()))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = ConfirmForm(request.POST)
        if form.is_valid():
            try:
                services.confirm(self.match.pk, request.user, pin=form.cleaned_data["pin"] or None)
            except ScoringError as err:
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                messages.success(request, _("The protocol was confirmed."))
                return redirect("scoring:sheet", pk=self.match.pk)
        self.reload()
        return render(request, "scoring/confirm.html", self.context(form=form), status=400)


class PinView(LoginRequiredMixin, MatchView):
    """The desk issues the captain's PIN (the form sits on the sheet page for desk users)."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not services.is_desk_for(request.user, self.match):
            raise PermissionDenied
        form = PinForm(request.POST)
        if form.is_valid():
            try:
                services.set_confirm_pin(self.match.pk, request.user, form.cleaned_data["pin"])
            except ScoringError as err:
                for item in err.errors:
                    messages.error(request, item["message"])
            else:
                messages.success(request, _("The captain's PIN was issued."))
        else:
            for problems in form.errors.values():
                for problem in problems:
                    messages.error(request, problem)
        return redirect("scoring:sheet", pk=self.match.pk)


class CorrectView(LoginRequiredMixin, MatchView):
    """A confirmed protocol corrected by the chief referee, with a reason; the old one is kept."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not services.can_correct(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        lines = "\n".join(json.dumps(d.record, ensure_ascii=False) for d in self.match.deals.all())
        form = CorrectionForm(initial={"deals": lines, "expected_version": self.match.version})
        return render(request, "scoring/correct.html", self.context(form=form))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = CorrectionForm(request.POST)
        status = 400  # a refusal of the services keeps its status
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.correct(self.match.pk, request.user, data["deals"], data["reason"],
                                 expected_version=data["expected_version"])
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                messages.success(request, _("The protocol was corrected."))
                return redirect("scoring:history", pk=self.match.pk)
        self.reload()
        return render(request, "scoring/correct.html", self.context(form=form), status=status)


class HistoryView(MatchView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = list(selectors.history(self.match.pk))
        return render(request, "scoring/history.html", self.context(rows=rows))


class PrintView(MatchView):
    """The A4 print page; ``?blank=1`` prints the empty protocol even after deals exist."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        context = self.context()
        if request.GET.get("blank"):
            context["sheet"] = blank_copy(context["sheet"])
        sheet = context["sheet"]
        first = sheet.rows[-1].n + 1 if sheet.rows else 1
        context["blank_range"] = range(first, first + sheet.blank_rows)
        context["qr_svg"] = qr_svg(sheet.url)
        return render(request, "scoring/print.html", context)


class PdfView(MatchView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        sheet = self.sheet()
        if request.GET.get("blank"):
            sheet = blank_copy(sheet)
        response = HttpResponse(protocol_pdf(sheet), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="protocol-{self.match.pk}.pdf"'
        return response


def blank_copy(sheet: Sheet) -> Sheet:
    return replace(sheet, rows=[], totals=[0] * len(sheet.totals), finished=False,
                   winner=None, winner_label="", unclaimed_eggs=0, blank_rows=sheet.planned_rows)


def qr_svg(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=3, border=2, omitsize=True))
