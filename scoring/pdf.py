"""The protocol as an A4 PDF: heading, seats, the deal grid, signature lines and a QR code.

Draws a ``scoring.sheet.Sheet`` (plain data) with reportlab; the QR code (segno) opens the table's
referee page. A sheet without deals prints blank rows for the referee to fill in by hand. Fonts
are the DejaVu Sans subset shipped in ``scoring/fonts`` (Latin and Cyrillic), so the PDF does not
depend on the fonts of the server. Reads nothing from the database.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import segno
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.sheet import Sheet

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT = "ProtocolSans"
FONT_BOLD = "ProtocolSans-Bold"
GRID = colors.HexColor("#555555")
SHADE = colors.HexColor("#eeeeee")
#: a tile as the referee writes it: «6:4», «6-4»
TILE = re.compile(r"(\d)\s*[:\-]\s*(\d)")


def _register_fonts() -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))


class QRCode(Flowable):
    """A QR code drawn as vector squares (sharp at any print resolution)."""

    def __init__(self, data: str, size: float) -> None:
        super().__init__()
        self.qr = segno.make(data, error="m")
        self.size = size
        self.width = self.height = size

    def draw(self) -> None:
        matrix = [list(row) for row in self.qr.matrix]
        border = 2
        count = len(matrix) + 2 * border
        cell = self.size / count
        canvas = self.canv
        canvas.setFillColor(colors.black)
        for y, row in enumerate(matrix):
            for x, dark in enumerate(row):
                if dark:
                    canvas.rect((x + border) * cell, self.size - (y + border + 1) * cell,
                                cell, cell, stroke=0, fill=1)


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("base", fontName=FONT, fontSize=9.5, leading=12)
    return {
        "base": base,
        "title": ParagraphStyle("title", parent=base, fontName=FONT_BOLD, fontSize=15, leading=19),
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10,
                                textColor=colors.HexColor("#444444")),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10),
    }


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: the printable width of an A4 page between the margins every document here uses
WIDTH = A4[0] - 28 * mm


def a4(buffer: io.BytesIO, title: str) -> SimpleDocTemplate:
    """An A4 document with the protocol's margins (the round's PDF uses it too)."""
    _register_fonts()
    return SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=14 * mm, rightMargin=14 * mm,
        topMargin=12 * mm, bottomMargin=12 * mm, title=title, author="domino-scoresheet",
    )  # fmt: skip


def protocol_pdf(sheet: Sheet) -> bytes:
    """The PDF bytes of ``sheet``; filled in when it has deals, blank rows otherwise."""
    buffer = io.BytesIO()
    doc = a4(buffer, _("Protocol") + " — " + sheet.title)
    doc.build(protocol_story(sheet))
    return buffer.getvalue()


def protocol_story(sheet: Sheet) -> list[Flowable]:
    """The protocol's page as flowables (one protocol, or one of a round's in a single PDF)."""
    _register_fonts()
    st = _styles()
    width = WIDTH
    story: list[Flowable] = []

    # Heading: what and where on the left, the QR code to the referee page on the right.
    head = [Paragraph(_esc(_("Protocol") + " — " + sheet.title), st["title"])]
    facts = list(sheet.facts)
    if sheet.table:
        facts.append((_("Table"), sheet.table))
    facts.append((_("Rules"), sheet.rules_words))
    if not sheet.paper:
        facts += [(_("Status"), sheet.status_label), (_("Match"), "№ " + str(sheet.match_id))]
    head.append(Paragraph(" · ".join(f"{_esc(k)}: <b>{_esc(v)}</b>" for k, v in facts),
                          st["base"]))
    qr_size = 30 * mm
    qr_cell: list[Flowable] = []
    if sheet.url:
        qr_cell = [QRCode(sheet.url, qr_size), Paragraph(_esc(_("Referee page")), st["small"])]
    heading = Table([[head, qr_cell]], colWidths=[width - qr_size - 4 * mm, qr_size + 4 * mm])
    heading.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    story += [heading, Spacer(1, 3 * mm)]

    # Seats and names; the side only where a side has two seats (no «pair» repeating the seat).
    pairs = any(len(s.side) > 1 for s in sheet.sides)
    seat_rows = [[_("Seat"), _("Player")] + ([_("Side")] if pairs else [])]
    side_label = {s.side: s.label for s in sheet.sides}
    for seat in sheet.seats:
        seat_rows.append([seat.label, seat.name or ""]
                         + ([side_label.get(seat.side, seat.side)] if pairs else []))
    seats = Table(seat_rows, colWidths=[18 * mm, 110 * mm] + ([25 * mm] if pairs else []),
                  hAlign="LEFT",
                  rowHeights=[6 * mm] + [7 * mm] * len(sheet.seats))
    seats.setStyle(_grid_style(header_rows=1))
    story += [seats, Spacer(1, 4 * mm)]

    story.append(_deal_grid(sheet, width, st))
    story.append(Spacer(1, 3 * mm))

    # The outcome, filled in only when the match is over.
    winner = _esc(_("Winner"))
    if sheet.finished:
        outcome = f"{winner}: <b>{_esc(sheet.winner_label)}</b>"
        if sheet.unclaimed_eggs:
            unclaimed = _esc(_("Unclaimed eggs"))
            outcome += f" · {unclaimed}: {sheet.unclaimed_eggs}"
    else:
        outcome = f"{winner}: ____________________"
    story += [Paragraph(_esc(line), st["base"]) for line in sheet.outcome]
    story += [Paragraph(outcome, st["base"]), Spacer(1, 8 * mm)]

    # Signature lines.
    signers = [_("Referee")] + [f"{s.signer} {s.label}" for s in sheet.sides]
    signers.append(_("Chief referee"))
    sig_rows = [[name, "", _("signature")] for name in signers]
    sigs = Table(sig_rows, colWidths=[45 * mm, 70 * mm, 30 * mm], rowHeights=10 * mm,
                 hAlign="LEFT")
    sigs.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("LINEBELOW", (1, 0), (1, -1), 0.6, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"), ("TEXTCOLOR", (2, 0), (2, -1), GRID),
    ]))
    story.append(sigs)
    return story


def _grid_style(header_rows: int) -> TableStyle:
    return TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), FONT_BOLD),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
        ("GRID", (0, 0), (-1, -1), 0.5, GRID),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ])


def hand_pips(text: str) -> str:
    """What a seat still held, as the pips the desk adds up: «12» stays, «6:6 2:0» is 14."""
    text = (text or "").strip()
    if text.isdigit():
        return text
    tiles = TILE.findall(text)
    return str(sum(int(a) + int(b) for a, b in tiles)) if tiles else ""


def _deal_grid(sheet: Sheet, width: float, st: dict[str, ParagraphStyle]) -> Table:
    """№ · lead · result · by · the pips left in each hand · per side: written, total · eggs —
    the paper protocol's columns. The hands are what the desk needs to check each amount when
    it copies the paper in."""
    sides = sheet.sides
    seats = sheet.seats
    head1: list[Any] = ["№", _("Lead"), _("Result"), _("By")]
    head2: list[Any] = ["", "", "", ""]
    head1 += [_("Left in hands")] + [""] * (len(seats) - 1)
    head2 += [seat.label for seat in seats]
    for side in sides:
        head1 += [side.label, ""]
        head2 += [_("written"), sheet.units or _("total")]
    head1.append(_("Eggs"))
    head2.append("")
    rows: list[list[Any]] = [head1, head2]
    move_rows: list[int] = []  # a fives deal's scoring moves, a line under the deal
    first_side = 4 + len(seats)
    for row in sheet.rows:
        line: list[Any] = [str(row.n), _seat(sheet, row.leader), row.result_label,
                           _seat(sheet, row.by)]
        line += [hand_pips(row.hands.get(seat.seat, "")) for seat in seats]
        for i in range(len(sides)):
            if row.is_redeal:
                line += ["", ""]
            else:
                line += [str(row.recorded[i]) if row.recorded[i] else "–", str(row.totals[i])]
        line.append(str(row.eggs) if row.eggs else "")
        rows.append(line)
        if row.scoring or row.notes:  # a fives deal's moves, a club deal's titles and sticks
            move_rows.append(len(rows))
            rows.append(["", Paragraph(_esc(" · ".join(row.scoring + row.notes)), st["cell"])]
                        + [""] * (len(head1) - 2))
    next_n = (sheet.rows[-1].n + 1) if sheet.rows else 1
    for i in range(sheet.blank_rows):
        rows.append([str(next_n + i)] + [""] * (len(head1) - 1))
    if sheet.rows:
        total_line: list[Any] = [_("Total"), "", "", ""] + [""] * len(seats)
        for total in sheet.totals:
            total_line += ["", str(total)]
        total_line.append(str(sheet.unclaimed_eggs) if sheet.unclaimed_eggs else "")
        rows.append(total_line)
    widths = [9 * mm, 12 * mm, 22 * mm, 12 * mm] + [9 * mm] * len(seats)
    eggs_w = 12 * mm
    side_w = min((width - sum(widths) - eggs_w) / (2 * len(sides)), 26 * mm)
    widths += [side_w] * (2 * len(sides)) + [eggs_w]
    # a line of moves grows with its text; the other rows keep the paper's height
    heights = [None if i in move_rows else 6 * mm for i in range(len(rows))]
    table = Table(rows, colWidths=widths, repeatRows=2, rowHeights=heights)
    style = _grid_style(header_rows=2)
    style.add("SPAN", (4, 0), (first_side - 1, 0))
    style.add("ALIGN", (4, 0), (first_side - 1, -1), "CENTER")
    style.add("FONTSIZE", (4, 0), (4, 0), 6.5)
    for i in range(len(sides)):
        col = first_side + 2 * i
        style.add("SPAN", (col, 0), (col + 1, 0))
        style.add("ALIGN", (col, 0), (col + 1, -1), "CENTER")
        style.add("LINEBEFORE", (col, 0), (col, -1), 1.2, colors.black)
    if len(sides) > 2:  # three or four players each for himself: narrow columns
        style.add("FONTNAME", (first_side, 1), (-2, 1), FONT)
        style.add("FONTSIZE", (first_side, 1), (-2, 1), 6)
    for col in range(4):
        style.add("SPAN", (col, 0), (col, 1))
    style.add("SPAN", (len(head1) - 1, 0), (len(head1) - 1, 1))
    style.add("ALIGN", (0, 0), (0, -1), "CENTER")
    for i in move_rows:
        style.add("SPAN", (1, i), (-1, i))
    if sheet.rows:
        style.add("SPAN", (0, -1), (3, -1))
        style.add("FONTNAME", (0, -1), (-1, -1), FONT_BOLD)
        style.add("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black)
    table.setStyle(style)
    return table


def _seat(sheet: Sheet, seat: str) -> str:
    if not seat:
        return ""
    line = sheet.seat_map.get(seat)
    return line.label if line else seat
