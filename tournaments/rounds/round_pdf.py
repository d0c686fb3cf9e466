"""A round's paper in one PDF: every table's blank protocol, then the table cards, then the
pairing slips to hand out.

    round_pdf(round_, absolute) -> bytes    ``round_`` from ``selectors.round_with_pairings``;
                                            ``absolute(path)`` makes a link for the QR codes

The protocols are ``scoring.pdf``'s (made for the game: the pips left in each hand in their own
columns, so that the desk can check every amount when it copies the paper in); a blank one says
neither a status nor a match number, which mean nothing on paper. A table card is half a page:
the table's number large, the round, the seats and names, the QR code of the round's public
page. The slips tell each entry its table and seat, eight to a page with lines to cut along,
each with the QR code of the entry's personal page (``tournaments.personal``): the slip is
handed to the entry alone, where the card stays on the table for everyone.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from scoring.pdf import FONT, FONT_BOLD, WIDTH, QRCode, a4, protocol_story
from scoring.sheet import blank_copy, build_sheet, seat_label
from tournaments.models import Pairing, Round

SEATS = ("N", "E", "S", "W")


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("round-base", fontName=FONT, fontSize=11, leading=14)
    return {
        "base": base,
        "small": ParagraphStyle("round-small", parent=base, fontSize=9, leading=11),
        "card_no": ParagraphStyle("round-card-no", parent=base, fontName=FONT_BOLD,
                                  fontSize=64, leading=70),  # fmt: skip
        "card_name": ParagraphStyle("round-card-name", parent=base, fontSize=17, leading=22),
        "slip": ParagraphStyle("round-slip", parent=base, fontSize=10.5, leading=13.5),
    }


def heading(round_: Round) -> str:
    """The tournament, its date and venue, the round: on every card and slip."""
    t = round_.tournament
    parts = [t.name, _("round %(n)s") % {"n": round_.number}]
    if t.start_date:
        parts.append(formats.date_format(t.start_date, "SHORT_DATE_FORMAT"))
    if t.venue:
        parts.append(t.venue)
    return " · ".join(parts)


def _seated(pairing: Pairing) -> list[tuple[str, str]]:
    """(seat or side, who) of a table: the players in their seats when they are known, else
    the entries by side."""
    seats = [(seat_label(s), getattr(pairing, f"seat_{s.lower()}")) for s in SEATS]
    if any(player is not None for _label, player in seats):
        return [(label, player.full_name) for label, player in seats if player is not None]
    sides: list[tuple[str, str]] = []
    for side, places in (("NS", pairing.north_south), ("EW", pairing.east_west)):
        names = ", ".join(pl.entry.name for pl in places)
        if names:
            sides.append((side if len(places) != 1 or places[0].side == side
                          else places[0].side, names))  # fmt: skip
    return sides


def _protocols(tables: list[Pairing], absolute: Callable[[str], str]) -> list[Flowable]:
    story: list[Flowable] = []
    for pairing in tables:
        if pairing.match is None:
            continue
        url = absolute(reverse("scoring:sheet", args=[pairing.match_id]))
        sheet = blank_copy(build_sheet(pairing.match, [], url=url), paper=True)
        story += protocol_story(sheet)
        story.append(PageBreak())
    return story


def _card(round_: Round, pairing: Pairing, st: dict[str, ParagraphStyle],
          qr: Flowable) -> Flowable:  # fmt: skip
    names = [[Paragraph(_esc(label), st["card_name"]), Paragraph(_esc(who), st["card_name"])]
             for label, who in _seated(pairing)]  # fmt: skip
    seats = Table(names, colWidths=[22 * mm, WIDTH - 22 * mm - 8 * mm], hAlign="LEFT")
    seats.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LEFTPADDING", (0, 0), (-1, -1), 0)]))  # fmt: skip
    top = Table([[Paragraph(_esc(_("Table %(n)s") % {"n": pairing.table}), st["card_no"]), qr]],
                colWidths=[WIDTH - 36 * mm, 32 * mm])  # fmt: skip
    top.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                             ("LEFTPADDING", (0, 0), (-1, -1), 0)]))  # fmt: skip
    body = [Paragraph(_esc(heading(round_)), st["small"]), Spacer(1, 2 * mm), top,
            Spacer(1, 3 * mm), seats]
    frame = Table([[body]], colWidths=[WIDTH], rowHeights=[128 * mm])
    frame.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 1.2, colors.black),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LEFTPADDING", (0, 0), (-1, -1), 4 * mm),
                               ("TOPPADDING", (0, 0), (-1, -1), 4 * mm)]))  # fmt: skip
    return KeepTogether([frame, Spacer(1, 6 * mm)])


def _slips(round_: Round, tables: list[Pairing], byes: list[Pairing],
           st: dict[str, ParagraphStyle], absolute: Callable[[str], str]) -> Flowable:  # fmt: skip
    texts: list[tuple[str, str]] = []  # (text, the entry's personal link)

    def link(place: Any) -> str:
        return absolute(reverse("tournaments:personal", args=[place.entry.token]))

    for pairing in tables:
        sides = (("NS", pairing.north_south, pairing.east_west),
                 ("EW", pairing.east_west, pairing.north_south))  # fmt: skip
        for _side, ours, theirs in sides:
            for place in ours:
                against = ", ".join(pl.entry.name for pl in theirs)
                texts.append((_("<b>%(entry)s</b><br/>table <b>%(table)s</b>, %(side)s<br/>"
                                "against %(against)s")
                              % {"entry": _esc(place.entry.name), "table": pairing.table,
                                 "side": _esc(place.side), "against": _esc(against)},
                              link(place)))  # fmt: skip
    for pairing in byes:
        for place in pairing.places.all():
            texts.append((_("<b>%(entry)s</b><br/>no opponent this round (bye)")
                          % {"entry": _esc(place.entry.name)}, link(place)))  # fmt: skip
    head = _esc(heading(round_))
    cells: list[Flowable] = []
    for text, url in texts:
        cell = Table([[Paragraph(f'<font size="8">{head}</font><br/>{text}', st["slip"]),
                       QRCode(url, 24 * mm)]], colWidths=[WIDTH / 2 - 34 * mm, 26 * mm])
        cell.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                                  ("LEFTPADDING", (0, 0), (-1, -1), 0)]))  # fmt: skip
        cells.append(cell)
    if len(cells) % 2:
        cells.append(Paragraph("", st["slip"]))
    rows = [cells[i : i + 2] for i in range(0, len(cells), 2)]
    grid = Table(rows, colWidths=[WIDTH / 2] * 2, rowHeights=[31 * mm] * len(rows))
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey, None, (2, 2)),
                              ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                              ("LEFTPADDING", (0, 0), (-1, -1), 4 * mm)]))  # fmt: skip
    return grid


def round_pdf(round_: Round, absolute: Callable[[str], str]) -> bytes:
    pairings = list(round_.pairings.all())
    tables = sorted((p for p in pairings if p.table), key=lambda p: p.table or 0)
    byes = [p for p in pairings if not p.table]
    st = _styles()
    public = absolute(reverse("tournaments:round", args=[round_.tournament_id, round_.number]))
    story = _protocols(tables, absolute)
    for pairing in tables:
        story.append(_card(round_, pairing, st, QRCode(public, 30 * mm)))
    story.append(PageBreak())
    story.append(Paragraph(_esc(_("Pairing slips") + " — " + heading(round_)), st["base"]))
    story.append(Spacer(1, 3 * mm))
    story.append(_slips(round_, tables, byes, st, absolute))
    buffer = io.BytesIO()
    doc = a4(buffer, heading(round_))
    doc.build(story)
    return buffer.getvalue()
