"""The standings and the crosstable as a PDF for the notice board and the federation.

    sheet_pdf(sheet, tournament, order_labels, source) -> bytes

The same ``exports.Sheet`` the CSV and the XLSX are written from (so the three always agree),
drawn on A4 (landscape when the table is wide) under the tournament's facts: its dates, venue,
game, system and rounds, the tie-breaks used, and whether the table is final or live. Signature
lines for the chief referee and the organiser close it. Fonts are the protocol's (DejaVu Sans:
Cyrillic on any server).
"""

from __future__ import annotations

import io
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.pdf import FONT, FONT_BOLD, GRID, SHADE, _register_fonts
from scoring.rules_words import game_name
from tournaments.models import Tournament
from tournaments.results.exports import Sheet

#: columns beyond this make the page landscape
WIDE = 10


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def facts(tournament: Tournament, order_labels: list[str], source: str) -> list[str]:
    """The lines above the table: what event, where, when, how it was ranked."""
    when = ""
    if tournament.start_date:
        when = formats.date_format(tournament.start_date, "DATE_FORMAT")
        if tournament.end_date and tournament.end_date != tournament.start_date:
            when += " — " + formats.date_format(tournament.end_date, "DATE_FORMAT")
    parts = [when, tournament.venue, game_name(tournament.rules_preset),
             str(tournament.get_system_display()), str(tournament.get_format_display()),
             _("%(n)s rounds") % {"n": tournament.rounds}]  # fmt: skip
    lines = [" · ".join(p for p in parts if p)]
    if order_labels:
        lines.append(_("Tie-break order") + ": " + ", ".join(order_labels) + "; "
                     + _("then lot") + ".")  # fmt: skip
    if source == "live":
        lines.append(_("Live standings: tables still in play are not counted."))
    return lines


def sheet_pdf(sheet: Sheet, tournament: Tournament, order_labels: list[str],
              source: str) -> bytes:  # fmt: skip
    _register_fonts()
    wide = len(sheet.header) > WIDE
    size = landscape(A4) if wide else A4
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=size, leftMargin=10 * mm, rightMargin=10 * mm,
                            topMargin=10 * mm, bottomMargin=10 * mm,
                            title=f"{tournament.name} — {sheet.title}",
                            author="domino-scoresheet")  # fmt: skip
    base = ParagraphStyle("export", fontName=FONT, fontSize=9, leading=11.5)
    title = ParagraphStyle("export-title", parent=base, fontName=FONT_BOLD, fontSize=14,
                           leading=18)  # fmt: skip
    cell = ParagraphStyle("export-cell", parent=base, fontSize=7.5 if wide else 8.5, leading=9.5)
    story: list[Any] = [Paragraph(_esc(f"{tournament.name}: {sheet.title}"), title)]
    story += [Paragraph(_esc(line), base) for line in facts(tournament, order_labels, source)]
    story.append(Spacer(1, 4 * mm))
    header = [Paragraph(f"<b>{_esc(h)}</b>", cell) for h in sheet.header]
    rows = [header] + [[Paragraph(_esc(v), cell) for v in row] for row in sheet.rows]
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, GRID), ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
    ]))  # fmt: skip
    story += [table, Spacer(1, 10 * mm)]
    signers = [_("Chief referee"), _("Organiser")]
    sigs = Table([[name, "", _("signature")] for name in signers],
                 colWidths=[45 * mm, 70 * mm, 30 * mm], rowHeights=10 * mm, hAlign="LEFT")
    sigs.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("LINEBELOW", (1, 0), (1, -1), 0.6, colors.black), ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TEXTCOLOR", (2, 0), (2, -1), GRID),
    ]))  # fmt: skip
    story.append(sigs)
    doc.build(story)
    return buffer.getvalue()
