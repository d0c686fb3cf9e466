"""Standings and crosstable files: read back, they hold what the pages show."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournaments import results
from tournaments.models import Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    """R1: Пара 1 beats Пара 2 120-80, Пара 3 and Пара 4 draw 100-100.
    R2: Пара 1 beats Пара 3 90-60, Пара 4 beats Пара 2 70-50.
    Standings: Пара 1 4 MP (+70), Пара 4 3 MP (+20), Пара 3 1 MP (-30), Пара 2 0 (-60)."""
    a, b, c, d = pairs(tournament, 4)
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 100))])
    play_round(tournament, 2, [(a, c, (90, 60)), (d, b, (70, 50))])
    return {"a": a, "b": b, "c": c, "d": d}


def read_csv(body: bytes) -> list[list[str]]:
    assert body.startswith("\ufeff".encode())  # Excel reads the BOM as "this is UTF-8"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_standings_csv_has_a_header_and_the_pages_rows(client, event, tournament):
    response = client.get(reverse("tournaments:standings_export", args=[tournament.pk, "csv"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment; filename=")
    rows = read_csv(response.content)
    header, body = rows[0], rows[1:]
    assert header[:4] == ["Место", "Название", "Игроки", "Клуб"]
    assert [r[1] for r in body] == ["Пара 1", "Пара 4", "Пара 3", "Пара 2"]
    first = dict(zip(header, body[0], strict=True))
    assert first["Место"] == "1"
    assert body[0][4:11] == ["4", "2", "0", "0", "210", "140", "70"]
    assert body[1][4:11] == ["3", "1", "1", "0", "170", "150", "20"]
    assert "Северов1" in body[0][2] and "Южин1" in body[0][2]
    # the same as the data the page shows
    res = results.results_table(tournament)
    assert [[str(v) for v in res.values(line)] for line in res.lines] == [r[4:] for r in body]


def test_standings_xlsx_numbers_are_numbers_and_the_header_is_frozen(client, event, tournament):
    url = reverse("tournaments:standings_export", args=[tournament.pk, "xlsx"])
    response = client.get(url, {"round": 1})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet.freeze_panes == "A2"
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:2] == ("Место", "Название")
    assert sheet.cell(row=1, column=1).font.bold
    # after round 1: Пара 1 2 MP (+40), Пара 3 and 4 drew, Пара 2 lost
    assert rows[1][:2] == (1, "Пара 1")
    assert rows[1][4:11] == (2, 1, 0, 0, 120, 80, 40)
    assert all(isinstance(v, int | float) for row in rows[1:] for v in row[4:])
    assert rows[-1][1] == "Пара 2"


def test_players_scope_export(client, event, tournament):
    url = reverse("tournaments:standings_export", args=[tournament.pk, "csv"])
    body = read_csv(client.get(url, {"scope": "players"}).content)[1:]
    assert len(body) == 8
    assert {body[0][1], body[1][1]} == {"Северов1 Иван", "Южин1 Иван"}
    assert body[0][2] == "Пара 1"  # a player's "players" column names the pair


def test_crosstable_csv_and_xlsx_agree_with_the_page(client, event, tournament):
    csv_rows = read_csv(
        client.get(reverse("tournaments:crosstable_export", args=[tournament.pk, "csv"])).content
    )
    assert csv_rows[0] == ["Место", "Название", "Клуб", "Т1", "Т2", "Очки за матч"]
    assert csv_rows[1][0:2] == ["1", "Пара 1"]
    # Пара 1 met Пара 2 (rank 4) and Пара 3 (rank 3), winning both
    assert csv_rows[1][3:] == ["4 В 120:80", "3 В 90:60", "4"]
    assert csv_rows[4][1] == "Пара 2" and csv_rows[4][3:] == ["1 П 80:120", "2 П 50:70", "0"]
    url = reverse("tournaments:crosstable_export", args=[tournament.pk, "xlsx"])
    rows = list(
        load_workbook(io.BytesIO(client.get(url).content)).active.iter_rows(values_only=True)
    )
    assert [list(map(str, r)) for r in rows] == csv_rows


def test_english_labels_and_a_bad_round(client, event, tournament):
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:standings_export", args=[tournament.pk, "csv"])
    header = read_csv(client.get(url).content)[0]
    assert header[:5] == ["Rank", "Name", "Players", "Club", "Match points"]
    assert client.get(url, {"round": 9}).status_code == 404
    assert client.get(f"/tournaments/{tournament.pk}/standings.ods").status_code == 404


def test_export_of_a_private_tournament_is_not_found(client):
    private = TournamentFactory(public=False)
    url = reverse("tournaments:crosstable_export", args=[private.pk, "csv"])
    assert client.get(url).status_code == 404


def test_standings_and_crosstable_as_a_pdf_for_the_notice_board(client, event, tournament):
    """Issue 29: the final standings and the crosstable as a PDF, with the tournament's facts,
    the tie-breaks used and signature lines; from the same sheet as the CSV."""
    import io

    from pypdf import PdfReader

    tournament.venue = "Клуб «Рыба»"
    tournament.save()
    page = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/standings.pdf?' in page
    for what in ("standings", "crosstable"):
        response = client.get(f"/tournaments/{tournament.pk}/{what}.pdf")
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        text = " ".join(" ".join((p.extract_text() or "").split())
                        for p in PdfReader(io.BytesIO(response.content)).pages)  # fmt: skip
        assert "Клуб «Рыба»" in text and "Порядок дополнительных показателей" in text
        assert "Главный судья" in text and "Организатор" in text
        assert "Пара 1" in text and "Пара 4" in text
