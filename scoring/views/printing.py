"""The printed protocol: the A4 print page (with a QR code of the sheet) and the PDF, either
filled in or blank.
"""

from __future__ import annotations

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.pdf import protocol_pdf
from scoring.sheet import blank_copy
from scoring.views.match_view import MatchView


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


def qr_svg(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=3, border=2, omitsize=True))
