"""A club's evening imported from a CSV whose pairs are numbered «1»…«16», in Chromium: the
round page, the crosstable, the hall's screen and a table's PDF show the players' names (they
showed «1»…«16»), the round page with each pair's club."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from tournaments.models import Round, Tournament
from tournaments.tests.test_browser import DESKTOP, log_in

SURNAMES = ["Белов", "Чернов", "Громов", "Щукин", "Ефимов", "Лапин", "Фомин", "Жуков",
            "Орлов", "Соколов", "Зуев", "Гусев", "Носов", "Рябов", "Котов", "Мухин",
            "Быков", "Волков", "Лебедев", "Козлов", "Егоров", "Павлов", "Семёнов", "Голубев",
            "Виноградов", "Богданов", "Воробьёв", "Фёдоров", "Михайлов", "Беляев", "Тарасов",
            "Белоусов"]  # fmt: skip
CLUBS = ["Клуб «Дубль»", "ДК «Металлург»"]


def csv_text() -> str:
    rows = ["entry;last_name;first_name;club;seed"]
    for n in range(16):
        for surname in SURNAMES[2 * n: 2 * n + 2]:
            rows.append(f"{n + 1};{surname};Иван;{CLUBS[n % 2]};{n + 1}")
    return "\n".join(rows) + "\n"


@pytest.mark.django_db(transaction=True)
def test_a_csv_evening_shows_players_names_everywhere(
    browser: Any, live_server: Any, tournament: Tournament, tmp_path: Any
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    path = tmp_path / "evening.csv"
    path.write_text(csv_text(), encoding="utf-8")
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "org", f"/manage/{tournament.pk}/entries/")
        page.set_input_files("#import-form input[type=file]", str(path))
        with page.expect_navigation():
            page.click("#import-form button[type=submit]")
        assert tournament.entries.count() == 16
        assert not tournament.entries.filter(name__regex=r"^[0-9]+$").exists()
        page.goto(f"{live_server.url}/manage/{tournament.pk}/")
        with page.expect_navigation():
            page.click("#pair-form button.primary")
        page.goto(f"{live_server.url}/manage/{tournament.pk}/rounds/1/")
        page.wait_for_selector("#tables tr[data-table='8']", timeout=60_000)
        tables = page.locator("#tables").inner_text()
        assert "Белов – Чернов" in tables and "Клуб «Дубль»" in tables
        assert "ДК «Металлург»" in tables
        with page.expect_navigation():
            page.click("#publish-form button")
        assert Round.objects.get(tournament=tournament, number=1).status == "published"

        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/crosstable/")
        cross = page.locator("main").inner_text()
        assert "Белов – Чернов" in cross and "Щукин" in cross
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/hall/")
        hall = page.locator("body").inner_text()
        assert "Белов – Чернов" in hall

        round1 = Round.objects.get(tournament=tournament, number=1)
        match_id = round1.pairings.exclude(match=None)[0].match_id
        pdf = page.request.get(f"{live_server.url}/matches/{match_id}/protocol.pdf")
        assert pdf.status == 200
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
        assert "тур 1" in text and "стол" in text  # the title composed in Russian
        assert any(surname in text for surname in SURNAMES)
    finally:
        context.close()
