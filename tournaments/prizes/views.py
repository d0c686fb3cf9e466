"""The public pages of the prize list: category standings, the club classification, the prize
list for the ceremony, and each as CSV, XLSX and PDF.

    /tournaments/<pk>/categories/?category=<id>     a category's standings (the first one
    /tournaments/<pk>/categories.<fmt>?category=    when none is asked for)
    /tournaments/<pk>/clubs/  and  clubs.<fmt>      clubs by their best entries
    /tournaments/<pk>/prizes/ and  prizes.<fmt>     who wins which prize (a printable page)

Public when the tournament is (``results.views.visible_tournament``; a hidden one is a 404).
Thin: ``prizes.lists`` reads, ``prizes.sheets`` shapes the rows.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import View

from tournaments.errors import TournamentError
from tournaments.models import Category, Tournament
from tournaments.prizes import lists, sheets
from tournaments.results import exports, pdf_export
from tournaments.results.exports import Sheet
from tournaments.results.views import visible_tournament


class PrizePage(View):
    """A public page of the prize list; ``fmt`` (csv, xlsx, pdf) answers its file."""

    template = ""
    page = ""
    tournament: Tournament

    def get(self, request: HttpRequest, pk: int, fmt: str = "") -> HttpResponse:
        self.tournament = visible_tournament(request, pk)
        try:
            final = lists.final_lines(self.tournament)
        except TournamentError as err:
            raise Http404(err.messages[0]) from err
        context = self.data(final)
        if fmt:
            sheet = self.sheet(final, context)
            if fmt != "pdf":
                return exports.response(sheet, fmt)
            body = pdf_export.sheet_pdf(sheet, self.tournament, final.results.order_labels(),
                                        final.results.table.source)  # fmt: skip
            answer = HttpResponse(body, content_type="application/pdf")
            answer["Content-Disposition"] = f'inline; filename="{sheet.filename}.pdf"'
            return answer
        context.update(tournament=self.tournament, final=final, live=final.live, page=self.page,
                       query=request.GET.urlencode())  # fmt: skip
        return render(request, f"tournaments/prizes/{self.template}", context)

    def data(self, final: lists.Final) -> dict[str, Any]:
        raise NotImplementedError

    def sheet(self, final: lists.Final, context: dict[str, Any]) -> Sheet:
        raise NotImplementedError


class CategoriesView(PrizePage):
    template = "categories.html"
    page = "categories"

    def data(self, final: lists.Final) -> dict[str, Any]:
        categories = list(self.tournament.categories.all())
        chosen = self._chosen(categories)
        table = lists.category_table(self.tournament, chosen, final) if chosen else None
        rows = [{"rank": rank, "overall": final.ranks[line.participant], "line": line,
                 "values": final.results.values(line)}
                for rank, line in table.rows] if table else []  # fmt: skip
        return {"categories": categories, "chosen": chosen, "table": table, "rows": rows,
                "columns": final.results.columns}  # fmt: skip

    def _chosen(self, categories: list[Category]) -> Category | None:
        asked = self.request.GET.get("category", "")
        if asked in ("", None):
            return categories[0] if categories else None
        found = next((c for c in categories if str(c.pk) == asked), None)
        if found is None:
            raise Http404("no such category")
        return found

    def sheet(self, final: lists.Final, context: dict[str, Any]) -> Sheet:
        if context["table"] is None:  # no categories: a file with the header only
            return sheets.no_category_sheet(self.tournament)
        return sheets.category_sheet(self.tournament, context["table"], final)


class ClubsView(PrizePage):
    template = "clubs.html"
    page = "clubs"

    def data(self, final: lists.Final) -> dict[str, Any]:
        clubs = lists.club_classification(self.tournament, final)
        names = {line.participant: line.name for line in final.lines}
        rows = [{"club": c, "counted": [names.get(e, "") for e in c.entries]} for c in clubs]
        return {"clubs": clubs, "rows": rows}

    def sheet(self, final: lists.Final, context: dict[str, Any]) -> Sheet:
        return sheets.clubs_sheet(self.tournament, context["clubs"], final)


class PrizesView(PrizePage):
    template = "prizes.html"
    page = "prizes"

    def data(self, final: lists.Final) -> dict[str, Any]:
        prizes = lists.prize_list(self.tournament, final)
        rows = [{"line": line, "amount": sheets.money(line.amount),
                 "listed": line.category} for line in prizes.lines]  # fmt: skip
        return {"prizes": prizes, "rows": rows}

    def sheet(self, final: lists.Final, context: dict[str, Any]) -> Sheet:
        return sheets.prizes_sheet(self.tournament, context["prizes"])
