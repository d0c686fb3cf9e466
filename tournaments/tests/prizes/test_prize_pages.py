"""The prize list, category standings and club classification pages and files, read through the
Django test client as a visitor and the organiser read them."""

from __future__ import annotations

import csv
import datetime
import io
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Category, Prize, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs

pytestmark = pytest.mark.django_db


def set_players(entry, sex: str = "", year: int | None = None, rating: int | None = None) -> None:
    entry.players.update(sex=sex, birth_year=year, rating=rating)


@pytest.fixture
def event(tournament: Tournament) -> dict[str, Any]:
    """Six pairs, two rounds. R1: 1 beats 2 120-80, 3 beats 4 100-60, 5 beats 6 90-70.
    R2: 1 beats 3 90-60, 5 beats 4 80-40, 2 beats 6 70-50.
    Standings: Пара 1 4 MP (+70), Пара 5 4 MP (+60), Пара 3 2 MP (+10), Пара 2 2 MP (-20),
    Пара 6 0 (-40), Пара 4 0 (-80). Пары 3 and 5 are women, Пара 2 half; Пара 1 veterans."""
    tournament.start_date = datetime.date(2025, 6, 1)
    tournament.save(update_fields=["start_date"])
    p = add_pairs(tournament, 6)
    a, b, c, d, e, f = p
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 60)), (e, f, (90, 70))])
    play_round(tournament, 2, [(a, c, (90, 60)), (e, d, (80, 40)), (b, f, (70, 50))])
    set_players(a, "m", 1960, 1500)
    set_players(c, "f", 1990, 1300)
    set_players(e, "f", 1985, 1600)
    first, _second = b.players.order_by("pk")
    first.sex = "f"
    first.save()
    women = Category.objects.create(tournament=tournament, name="Женщины", sex="f", order=1)
    veterans = Category.objects.create(tournament=tournament, name="Ветераны", age_min=60,
                                       order=2)  # fmt: skip
    for place, amount in ((1, 1000), (2, 500), (3, 300)):
        Prize.objects.create(tournament=tournament, place=place, amount=amount)
    Prize.objects.create(tournament=tournament, category=women, place=1, amount=600,
                         text="Кубок")  # fmt: skip
    return {"entries": p, "women": women, "veterans": veterans}


def read_csv(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def prize_rows(html: str) -> list[tuple[str, str, str, str]]:
    """(list, place, winner, amount) of each row of the printed prize list."""
    body = html.split('id="prize-list"')[1].split("</table>")[0]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", " ", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>",
                                                                row, re.S)]  # fmt: skip
        clean = [" ".join(c.split()) for c in cells]
        rows.append((clean[0], clean[1], clean[2].split(" Северов")[0], clean[4]))
    return rows


def test_a_pair_entitled_to_two_prizes_gets_the_better_one(client, event, tournament):
    # Пара 5 is second overall (500) and the best women's pair (600): she takes the women's
    # prize; the overall second prize goes down to Пара 3, the third to Пара 2
    html = client.get(reverse("tournaments:prizes", args=[tournament.pk])).content.decode()
    assert prize_rows(html) == [
        ("Общий зачёт", "1", "Пара 1", "1 000"), ("Общий зачёт", "2", "Пара 3", "500"),
        ("Общий зачёт", "3", "Пара 2", "300"), ("Женщины", "1", "Пара 5", "600"),
    ]
    assert "Кубок" in html and 'id="print-prizes"' in html
    # of equal value, the organiser's priority: the overall one
    Prize.objects.filter(category=event["women"]).update(amount=500)
    html = client.get(reverse("tournaments:prizes", args=[tournament.pk])).content.decode()
    assert [r[2] for r in prize_rows(html)] == ["Пара 1", "Пара 5", "Пара 2", "Пара 3"]
    Tournament.objects.filter(pk=tournament.pk).update(prize_priority="category")
    html = client.get(reverse("tournaments:prizes", args=[tournament.pk])).content.decode()
    assert [r[2] for r in prize_rows(html)] == ["Пара 1", "Пара 3", "Пара 2", "Пара 5"]


def test_shared_places_split_the_overall_prizes(client, event, tournament):
    # Пара 1 and Пара 5 are level on 4 MP: 1000 + 500 shared; Пара 3 and Пара 2 on 2 MP: the
    # third prize (300) shared with Пара 2, who won nothing; no woman is left for the
    # women's prize (worth less than the overall ones, it is handed out last)
    Tournament.objects.filter(pk=tournament.pk).update(prize_ties="split")
    Prize.objects.filter(category=event["women"]).update(amount=100)
    html = client.get(reverse("tournaments:prizes", args=[tournament.pk])).content.decode()
    assert prize_rows(html) == [
        ("Общий зачёт", "1", "Пара 1", "750 разделено"),
        ("Общий зачёт", "2", "Пара 5", "750 разделено"),
        ("Общий зачёт", "3", "Пара 3", "150 разделено"),
        ("Общий зачёт", "разделено", "Пара 2", "150 разделено"),
        ("Женщины", "1", "не вручается", "—"),
    ]


def test_the_prize_list_as_csv_xlsx_and_pdf(client, event, tournament):
    url = reverse("tournaments:prizes_export", args=[tournament.pk, "csv"])
    rows = read_csv(client.get(url).content)
    assert rows[0][:3] == ["Зачёт", "Место", "Победитель"]
    assert [(r[0], r[1], r[2], r[5]) for r in rows[1:]] == [
        ("Общий зачёт", "1", "Пара 1", "1\xa0000"), ("Общий зачёт", "2", "Пара 3", "500"),
        ("Общий зачёт", "3", "Пара 2", "300"), ("Женщины", "1", "Пара 5", "600")]
    book = load_workbook(io.BytesIO(client.get(
        reverse("tournaments:prizes_export", args=[tournament.pk, "xlsx"])).content))
    assert book.active["C5"].value == "Пара 5"
    pdf = client.get(reverse("tournaments:prizes_export", args=[tournament.pk, "pdf"]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_category_standings_rank_the_members_among_themselves(client, event, tournament):
    url = reverse("tournaments:categories", args=[tournament.pk])
    html = client.get(url, {"category": event["women"].pk}).content.decode()
    ranks = re.findall(r'data-participant="(\d+)" data-rank="(\d+)"', html)
    a, b, c, d, e, f = event["entries"]
    assert ranks == [(str(e.pk), "1"), (str(c.pk), "2")]  # Пара 2 is only half women
    html = client.get(url, {"category": event["veterans"].pk}).content.decode()
    assert re.findall(r'data-participant="(\d+)"', html) == [str(a.pk)]  # 65 in 2025
    assert client.get(url).status_code == 200  # the first category
    assert client.get(url, {"category": "999999"}).status_code == 404
    # "one of its players": Пара 2 too
    Category.objects.filter(pk=event["women"].pk).update(members="any")
    body = read_csv(client.get(reverse("tournaments:categories_export",
                                       args=[tournament.pk, "csv"]),
                               {"category": event["women"].pk}).content)  # fmt: skip
    assert body[0][:3] == ["Место", "Общее место", "Название"]
    assert [(r[0], r[1], r[2]) for r in body[1:]] == [("1", "2", "Пара 5"), ("2", "3", "Пара 3"),
                                                      ("3", "4", "Пара 2")]
    for fmt in ("xlsx", "pdf"):
        answer = client.get(reverse("tournaments:categories_export", args=[tournament.pk, fmt]),
                            {"category": event["women"].pk})  # fmt: skip
        assert answer.status_code == 200 and len(answer.content) > 500


def test_club_classification_sums_each_clubs_best_entries(client, event, tournament):
    # add_pairs: odd pairs play for club 1, even ones for club 0
    Tournament.objects.filter(pk=tournament.pk).update(club_best=2)
    html = client.get(reverse("tournaments:clubs", args=[tournament.pk])).content.decode()
    table = html.split('id="club-classification"')[1]
    rows = re.findall(r'data-rank="(\d)"><td>\d</td><td class="name"><strong>([^<]+)</strong>'
                      r'</td>\s*<td class="num">(\d+)</td><td class="num">(\d+)</td>', table)
    club = {e.club.name for e in event["entries"]}
    odd = f"Клуб {tournament.pk}-1"
    assert club == {odd, f"Клуб {tournament.pk}-0"}
    # club 1: Пара 1 (1st, 4) + Пара 5 (2nd, 4); club 0: Пара 2 (4th, 2) + Пара 6 (5th, 0)
    assert rows == [("1", odd, "8", "3"), ("2", f"Клуб {tournament.pk}-0", "2", "9")]
    rows = read_csv(client.get(reverse("tournaments:clubs_export",
                                       args=[tournament.pk, "csv"])).content)  # fmt: skip
    assert rows[1][:4] == ["1", odd, "8", "3"] and "Пара 1, Пара 5" in rows[1][4]


def test_hidden_tournaments_pages_are_not_found(client, event, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    for name in ("prizes", "categories", "clubs"):
        assert client.get(reverse(f"tournaments:{name}", args=[tournament.pk])).status_code == 404
    answer = client.get(reverse("tournaments:prizes_export", args=[tournament.pk, "csv"]))
    assert answer.status_code == 404


def test_standings_tabs_link_the_categories_and_the_prize_list(client, event, tournament):
    html = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert 'id="categories-link"' in html and 'id="prizes-link"' in html
    other = add_pairs(Tournament.objects.create(name="Без призов", public=True), 2)[0].tournament
    html = client.get(reverse("tournaments:standings", args=[other.pk])).content.decode()
    assert 'id="categories-link"' not in html and 'id="prizes-link"' not in html


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("page", ["prizes", "categories", "clubs"])
def test_queries_do_not_grow_with_entries(client, page, event, tournament):
    small = _queries(client, reverse(f"tournaments:{page}", args=[tournament.pk]))
    big = Tournament.objects.create(name="Большой", public=True, start_date=tournament.start_date)
    entries = add_pairs(big, 20)
    for n in (1, 2, 3):
        shift = entries[n:] + entries[:n]
        play_round(big, n, [(shift[i], shift[i + 1], (100, 40 + i)) for i in range(0, 20, 2)])
    women = Category.objects.create(tournament=big, name="Женщины", sex="f")
    for place in (1, 2, 3):
        Prize.objects.create(tournament=big, place=place, amount=100 * place)
        Prize.objects.create(tournament=big, category=women, place=place, amount=10 * place)
    assert _queries(client, reverse(f"tournaments:{page}", args=[big.pk])) == small
    assert small <= 16
