"""A confirmed protocol corrected by the chief referee: pick a deal in the protocol's grid,
change it with the tile picker, see the whole protocol judged again (every later deal, the totals,
the winner) beside the confirmed one, give the reason, save.

The page holds the protocol as the form's ``deals`` (one JSON object per line, what the page
posts without JavaScript too); ``static/js/correction.js`` rewrites those lines from the picker
and asks ``CorrectPreviewView`` for the protocol judged again. Judging is the services' (through
``scoring.changes``, ``scoring.services.review``); writing is ``services.correct``, one
transaction that keeps the confirmed version in the history. A game recorded move by move (the
fives games, «Телефон») has the move-list editor instead of the picker (``fives_editor``): a deal
picked, its moves as rows of fields, the deal judged again on the same preview; its lines stay in
the form only as a hidden field that carries the other deals.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import services
from scoring.changes import Comparison, compare
from scoring.errors import ScoringError
from scoring.forms import CorrectionDealForm, CorrectionForm
from scoring.games import deal_keys, is_fives
from scoring.services.review import numbered
from scoring.services.state import clean_records
from scoring.views import fives_editor
from scoring.views.match_view import MatchView, name_place
from scoring.views.referee_page import deal_sides

TILE_ROWS = [[f"{a}:{b}" for b in range(a + 1)] for a in range(7)]


class CorrectionPage(LoginRequiredMixin, MatchView):
    """What the correction's pages share: who may (``services.can_correct``) and the protocol
    judged beside the confirmed one."""

    def allowed(self) -> bool:
        return services.can_correct(self.request.user, self.match)

    def refusal(self) -> str:
        return _("Correcting a confirmed protocol needs a chief referee of its tournament (of a "
                 "match outside tournaments, any chief referee), and you are not one.")

    def stored(self) -> list[dict[str, Any]]:
        return [deal.record for deal in self.match.deals.all()]

    def comparison(self, deals: list[Any]) -> tuple[Comparison | None, list[dict[str, Any]]]:
        """The posted deals judged beside the stored ones, or the reasons they cannot be read."""
        rules = self.match.get_rules()
        try:
            records = clean_records(deals, deal_keys(rules))
        except ScoringError as err:
            return None, err.errors
        found = compare(rules, records, self.stored())
        sheet = self.sheet()
        for line in found.lines:
            for item in line.errors:
                name_place(sheet, item)
        return found, []

    def edit(self, post: Any) -> tuple[list[Any] | None, int | None, list[dict[str, Any]]]:
        """The posted deals with the move-list editor's fields written into the deal it edits,
        and the deal to show in it next (``pick``, else the one edited); or why the deals
        cannot be read."""
        form = CorrectionForm({"deals": post.get("deals", ""), "reason": "-"})
        if not form.is_valid():
            return None, None, [{"code": "invalid", "message": str(message), "field": "deals"}
                                for message in form.errors.get("deals", [])]
        deals = form.cleaned_data["deals"]
        rules = self.match.get_rules()
        if not is_fives(rules):
            return deals, None, []
        index = fives_editor.apply(post, deals, list(rules.seats))
        pick = str(post.get("pick", ""))
        if pick.isdigit():
            index = int(pick)
        return deals, index, []

    def editor(self, found: Comparison | None, deals: list[Any],
               index: int | None) -> fives_editor.Editor | None:
        if index is None:
            return None
        verdict = None
        if found is not None and found.review is not None and index < len(found.review.deals):
            verdict = found.review.deals[index].verdict
        return fives_editor.editor(self.match.get_rules(), deals, index, verdict)

    def editor_html(self, found: Comparison | None, deals: list[Any], index: int | None) -> str:
        context = {"ed": self.editor(found, deals, index), "tile_rows": TILE_ROWS}
        return render_to_string("scoring/_move_editor.html", context, self.request)

    def review_html(self, found: Comparison | None, problems: list[dict[str, Any]]) -> str:
        fives = is_fives(self.match.get_rules())
        context = {"cmp": found, "problems": problems, "sheet": self.sheet(),
                   "pickable": not fives, "moves_editor": fives}
        return render_to_string("scoring/_review.html", context, self.request)


class CorrectView(CorrectionPage):
    """A confirmed protocol corrected by the chief referee, with a reason; the old one is kept."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        records = self.stored()
        form = CorrectionForm(initial={"deals": CorrectionForm.lines(records),
                                       "expected_version": self.match.version})
        deal = request.GET.get("deal", "")
        index = int(deal) - 1 if deal.isdigit() and is_fives(self.match.get_rules()) else None
        return render(request, "scoring/correct.html", self.page(form, records, index))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        data, index = request.POST, None
        if is_fives(self.match.get_rules()) and ("edit-deal" in data or "pick" in data):
            deals, index, _problems = self.edit(request.POST)
            if deals is not None:
                data = request.POST.copy()
                data["deals"] = CorrectionForm.lines(deals)
                if request.POST.get("action", "save") != "save" or "pick" in request.POST:
                    # a move-list editor's step without JavaScript: the page judged again
                    form = CorrectionForm(initial={key: data.get(key) for key in
                                                   ("deals", "reason", "expected_version")})
                    return render(request, "scoring/correct.html",
                                  self.page(form, deals, index))
        form = CorrectionForm(data)
        status = 400  # a refusal of the services keeps its status
        if form.is_valid():
            data = form.cleaned_data
            try:
                match = services.correct(self.match.pk, request.user, data["deals"],
                                         data["reason"], expected_version=data["expected_version"])
            except ScoringError as err:
                status = err.status
                for item in err.errors:
                    form.add_error(None, item["message"])
            else:
                self.say_done(match, _("The protocol was corrected."),
                              _("The protocol had already been corrected so."))
                return redirect("scoring:history", pk=self.match.pk)
        self.reload()
        posted = form.cleaned_data.get("deals") if hasattr(form, "cleaned_data") else None
        return render(request, "scoring/correct.html",
                      self.page(form, posted if posted is not None else self.stored(), index),
                      status=status)

    def page(self, form: CorrectionForm, deals: list[Any],
             index: int | None = None) -> dict[str, Any]:
        rules = self.match.get_rules()
        found, problems = self.comparison(deals)
        pickable = not is_fives(rules)
        extra: dict[str, Any] = {"form": form, "cmp": found, "problems": problems,
                                 "pickable": pickable, "moves_editor": not pickable}
        if not pickable:
            extra["ed"] = self.editor(found, deals, index)
            extra["tile_rows"] = TILE_ROWS
        if pickable:
            edit = CorrectionDealForm(seats=rules.seats, sides=deal_sides(rules),
                                      auto_id="edit_%s", initial={"mode": "tiles"})
            sheet = self.sheet()
            edit.fields["by"].choices = [("", "—")] + [(s.seat, sheet.seat_name(s.seat))
                                                       for s in sheet.seats]
            extra.update(
                edit_form=edit, tile_rows=TILE_ROWS,
                hand_rows=[(s, edit[f"hand_{s.seat}"], edit[f"pips_{s.seat}"])
                           for s in sheet.seats],
            )  # fmt: skip
        extra["correction_data"] = {
            "match": self.match.pk, "version": self.match.version,
            "seats": list(rules.seats), "sides": list(rules.sides), "pickable": pickable,
            "session": str(uuid.uuid4()),
            "strings": {
                "went_out": _("went out"), "empty_hand": _("no tiles yet"),
                "deal_title": _("Deal %(n)s"),
                "pips_forms": self.pips_forms(),
                "who_went_out": _("Who went out"),
                "who_blocked": _("Who made the blocking move (optional)"),
                "kept": _("An unsaved correction of this protocol was kept in this browser "
                          "and is shown again."),
                "offline": _("No connection: the protocol will be judged again when it is "
                             "back. Nothing is lost."),
                "tap_tile": _("Move %(n)s: tap the tile"), "choose_end": _("Lay it on:"),
                "end_names": {"L": _("left"), "R": _("right"), "U": _("up"), "D": _("down")},
            },
        }
        if not pickable:  # the fives board's table (fives_table.js) offers a tile's ends
            extra["correction_data"]["table"] = {
                "spinner": getattr(rules, "spinner", "none") != "none",
                "all_arms": getattr(rules, "spinner_count", "") == "all_arms"}
        return self.context(**extra)

    @staticmethod
    def pips_forms() -> dict[str, str]:
        return {category: ngettext("pip", "pips", n) for category, n in
                (("one", 1), ("few", 2), ("many", 5), ("other", 5))}  # fmt: skip


class CorrectPreviewView(CorrectionPage):
    """POST ``deals`` (as the correction form) → the protocol judged again beside the confirmed
    one: ``html`` (the grid), ``summary`` (the line by Save), ``ok``. Stores nothing."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        deals, index, problems = self.edit(request.POST)
        found = None
        if deals is not None:
            found, problems = self.comparison(deals)
        fives = is_fives(self.match.get_rules())
        context = {"cmp": found, "problems": numbered(problems), "pickable": not fives}
        answer = {
            "ok": found is not None and found.ok,
            "html": self.review_html(found, problems),
            "summary": render_to_string("scoring/_review_summary.html", context, request),
        }
        if fives and deals is not None:
            # the move-list editor as the server reads the posted fields, and the deals as lines
            answer["editor"] = self.editor_html(found, deals, index)
            answer["deals"] = CorrectionForm.lines(deals)
        return JsonResponse(answer)
