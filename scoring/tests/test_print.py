"""Printing the protocol: the A4 page and the PDF, blank before the match and filled after, each
with the seats, the deal grid, signature lines and a QR code of the referee's page."""

from __future__ import annotations

import base64
import re
import zlib

import pytest
import segno

from rules import Judge, make_rules
from scoring import services
from scoring.tests.helpers import record_all

pytestmark = pytest.mark.django_db


def pdf_text_streams(pdf: bytes) -> bytes:
    """The content streams, decoded (reportlab writes them ASCII85 and Flate encoded)."""
    out = b""
    for match in re.finditer(rb"(?<!end)stream\r?\n(.*?)endstream", pdf, re.S):
        data = match.group(1).strip()
        try:
            if data.endswith(b"~>"):
                data = base64.a85decode(data[:-2])
            out += zlib.decompress(data)
        except (ValueError, zlib.error):
            out += data
    return out


def test_blank_print_page_before_the_match(client, match) -> None:
    html = client.get(f"/matches/{match.pk}/print/").content.decode()
    assert "Протокол — Вечер клуба" in html
    assert "Стол: <b>3</b>" in html
    assert "ИгрокN" in html and "ИгрокW" in html
    assert html.count('class="blank"') == 10  # eight deals of sports domino, two for redeals
    assert html.count('class="line"') >= 4  # referee, two captains, chief referee
    assert "<svg" in html and "Страница судьи" in html


def test_filled_print_page_after_the_match(client, referee, match, deals) -> None:
    record_all(match, referee, deals)
    html = client.get(f"/matches/{match.pk}/print/").content.decode()
    totals = Judge(make_rules("sport")).fold(deals).state.totals
    assert 'class="blank"' not in html
    assert f'<th class="num">{totals["NS"]}</th>' in html
    assert f'<th class="num">{totals["EW"]}</th>' in html
    assert "Победитель: <b>" in html
    # ?blank=1 still gives the empty form
    blank = client.get(f"/matches/{match.pk}/print/?blank=1").content.decode()
    assert blank.count('class="blank"') == 10


def test_qr_code_opens_the_referee_page(client, match) -> None:
    html = client.get(f"/matches/{match.pk}/print/").content.decode()
    expected = segno.make(f"http://testserver/matches/{match.pk}/", error="m")
    assert expected.svg_inline(scale=3, border=2, omitsize=True) in html


def test_pdf_blank_and_filled(client, referee, match, deals) -> None:
    blank = client.get(f"/matches/{match.pk}/protocol.pdf")
    assert blank.status_code == 200
    assert blank.headers["Content-Type"] == "application/pdf"
    assert blank.content.startswith(b"%PDF-")
    assert b"/Title" in blank.content and b"DejaVu" in blank.content  # Cyrillic font embedded

    record_all(match, referee, deals)
    filled = client.get(f"/matches/{match.pk}/protocol.pdf").content
    assert filled.startswith(b"%PDF-") and len(filled) > len(blank.content)
    # The grid's text is drawn with more glyph runs once the deals are in.
    assert pdf_text_streams(filled).count(b"Tj") > pdf_text_streams(blank.content).count(b"Tj")


def test_pdf_of_a_match_without_names_or_table(client, chief) -> None:
    match = services.create_match(user=chief, label="")
    response = client.get(f"/matches/{match.pk}/protocol.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
