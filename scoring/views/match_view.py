"""What every page of a match shares: ``MatchView`` loads the match (404 when missing or hidden
from the user: ``services.can_see``), builds its sheet and the common context; the preview
panel's context and the JSON helpers of the referee's page.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from rules.club.types import ClubDealVerdict
from scoring import club_words, selectors, services
from scoring.errors import problem_item
from scoring.forms import PinForm
from scoring.models import Match
from scoring.sheet import Sheet, build_sheet, side_label


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def form_errors(form: Any) -> list[dict[str, Any]]:
    return [{"code": "invalid", "message": str(message), "field": field}
            for field, messages_ in form.errors.items() for message in messages_]


class MatchView(View):
    """A view of one match: loads it (404 when missing or hidden: its existence is not
    revealed; 403 when seen but ``allowed`` says no, in the words of ``refusal``) and builds its
    sheet."""

    match: Match

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            self.match = selectors.get_match(kwargs["pk"])
        except Match.DoesNotExist as err:
            raise Http404(_("No such match.")) from err
        if not services.can_see(request.user, self.match):
            raise Http404(_("No such match."))
        if not self.allowed():
            raise PermissionDenied(self.refusal())
        return super().dispatch(request, *args, **kwargs)

    def allowed(self) -> bool:
        return True

    def refusal(self) -> str:
        """What the refusal page says the user lacks when ``allowed`` says no ("": the page's
        general words)."""
        return ""

    def reload(self) -> None:
        self.match = selectors.get_match(self.match.pk)

    def say_done(self, match: Any, done: str, already: str) -> None:
        """``done`` when this request changed the protocol, ``already`` when a form sent again
        found its change made by the first send (the service answers without a new version)."""
        if match.version > self.match.version:
            messages.success(self.request, done)
        else:
            messages.info(self.request, already)

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
            "can_correct": services.can_correct(user, match),
            "can_try_pin": services.may_try_pin(user, match),
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


def name_place(sheet: Sheet, item: dict[str, Any]) -> dict[str, Any]:
    """An error item made ready for a page: ``where`` names the seat and its player; a written
    (announced) amount that is not the rules' lists its sides as «E–W: 66 → 58» (``amounts``)
    with what accepting the rules' amounts sets (``accept``, JSON)."""
    seat = item.get("seat")
    item["where"] = sheet.seat_name(seat) if seat else ""
    if item.get("code") == "declared_mismatch" and isinstance(item.get("expected"), dict):
        expected, declared = item["expected"], item.get("declared") or {}
        item["amounts"] = [(side_label(s), int(declared.get(s) or 0), int(v))
                           for s, v in expected.items() if int(declared.get(s) or 0) != v]
        item["accept"] = json.dumps(expected)
    return item


def verdict_context(sheet: Sheet, verdict: Any, errors: list[dict[str, Any]] | None) -> dict:
    """The preview panel: what gets written for whom, eggs, running totals; or the errors."""
    if errors is None and verdict is not None and not verdict.ok:
        errors = [problem_item(p) for p in verdict.errors]
    for item in errors or []:
        name_place(sheet, item)
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
        # lost to the minimum (``below_min: discard``): why a won deal writes nothing
        "burnt": [(side_label(s), amount) for s, amount in
                  (getattr(verdict, "discarded", None) or {}).items()],
        "minimum": sheet.min_record,
        # a club game's titles, stick, player out (``scoring.club_words``)
        "notes": (club_words.deal_notes(sheet.preset, verdict.to_dict())
                  if isinstance(verdict, ClubDealVerdict) else []),
    }
