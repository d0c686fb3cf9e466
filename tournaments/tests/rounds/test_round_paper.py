"""The round's paper in one PDF (issue 29), read back as the organiser would check it: one blank
protocol per table with the hands' columns and no status or match number, a card per table with
its number and names, a slip per entry with its table and seat."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tournaments.models import Pairing, Round
from tournaments.tests.builders import play_round

pytestmark = pytest.mark.django_db


def pages(pdf: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(pdf))
    return [" ".join((page.extract_text() or "").split()) for page in reader.pages]


def test_one_pdf_with_protocols_cards_and_slips(client, tournament, organiser, other_organiser,
                                                pairs) -> None:  # fmt: skip
    tournament.venue = "Клуб «Рыба»"
    tournament.save()
    e = pairs(tournament, 7)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None),
                                        (e[4], e[5], None)], byes=[e[6]])  # fmt: skip
    url = f"/manage/{tournament.pk}/rounds/1/paper.pdf"
    client.force_login(other_organiser)
    assert client.get(url).status_code in (403, 404)
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
    assert f'href="{url}"' in page  # one click from the round page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pages(response.content)
    protocols = [t for t in text if t.startswith("Протокол")]
    assert len(protocols) == 3  # one page per table, in table order
    for number, page_text in enumerate(protocols, start=1):
        assert f"Стол: {number}" in page_text
        assert "Осталось на руках" in page_text  # the desk checks the amounts with them
        assert "Черновик" not in page_text and "Статус" not in page_text
        assert f"№ {Pairing.objects.get(round=round_, table=number).match_id}" not in page_text
    cards = " ".join(t for t in text if not t.startswith("Протокол"))
    for number in (1, 2, 3):
        assert f"Стол {number}" in cards
    assert "Кубок «Дубль» · тур 1" in cards and "Клуб «Рыба»" in cards
    assert "Пара 1" in cards and "Пара 2" in cards
    # the slips: each entry its table and side, the bye its own
    assert "Листки с местами" in cards
    assert "Пара 3 стол 2, NS против: Пара 4" in cards
    assert "Пара 7 в этом туре без соперника" in cards
    assert len(text) >= 3 + 2  # protocols, the cards (two a page), the slips


def test_a_round_without_tables_has_no_paper(client, tournament, organiser) -> None:
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.PAIRED)
    client.force_login(organiser)
    assert client.get(f"/manage/{tournament.pk}/rounds/1/paper.pdf").status_code == 404
    assert not Pairing.objects.exists()


def test_the_printed_table_list_says_what_and_where_and_nothing_that_means_nothing_on_paper(
    client, tournament, organiser, pairs
) -> None:
    tournament.venue = "Клуб «Рыба»"
    tournament.save()
    e = pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    client.force_login(organiser)
    html = client.get(f"/manage/{tournament.pk}/rounds/1/print/").content.decode()
    facts = html.split('id="list-facts">', 1)[1].split("</p>", 1)[0]
    assert "Кубок «Дубль» · тур 1" in facts and "Клуб «Рыба»" in facts
    assert "<svg" in html and "Тур на сайте" in html  # the QR code of the public round page
    for pairing in Pairing.objects.filter(round=round_):
        assert f"№ {pairing.match_id}" not in html
    assert "Черновик" not in html
