"""In a real browser, end to end: the organiser finishes round 1 of a public evening on his
round page; the ratings follow at once (the task, eager here: the worker's path is in
test_ratings.py); a spectator on a 360 px phone finds the rating list from the menu, opens the
winner's rating history (its chart and the change of the match), then the season's table and
its CSV. Nothing on those pages is wider than the phone."""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

import pytest

from tournaments.models import Round, Season
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import TournamentFactory
from tournaments.tests.test_browser import log_in

PHONE = {"width": 360, "height": 740}
WIDER = """() => document.documentElement.scrollWidth > document.documentElement.clientWidth"""


@pytest.mark.django_db(transaction=True)
def test_a_finished_round_moves_the_ratings_and_the_season_in_the_browser(
    browser: Any, live_server: Any, organiser: Any
) -> None:
    evening = TournamentFactory(name="Вечер в клубе", start_date=datetime.date(2027, 1, 15),
                                rounds=1)  # fmt: skip
    evening.organisers.add(organiser)
    a, b, c, d = add_pairs(evening, 4)
    play_round(evening, 1, [(a, b, (150, 20)), (c, d, (90, 100))])
    season = Season.objects.create(name="Зимний сезон 2026/27", scale=[25, 18, 15, 12])
    season.tournaments.add(evening)
    winner = a.players.order_by("last_name").first()
    assert winner is not None
    errors: list[str] = []

    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    try:
        page = desk.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, organiser.username, f"/manage/{evening.pk}/rounds/1/")
        with page.expect_navigation():
            page.click("#finish-form button")
        assert Round.objects.get(tournament=evening, number=1).status == Round.Status.FINISHED
    finally:
        desk.close()

    phone = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        page = phone.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server.url}/")
        page.click("#menu-button")  # on a phone the links are in the header's menu
        with page.expect_navigation():
            page.click("#nav-ratings")
        rows = page.locator("#rating-list tbody tr")
        assert rows.count() == 8
        top = page.inner_text("#rating-list tbody tr:first-child")
        assert "± " in top
        assert not page.evaluate(WIDER)
        # the winner's history: the chart and the change of the match
        with page.expect_navigation():
            page.click(f"#rating-list tr[data-player='{winner.pk}'] a")
        assert page.inner_text("#player-name") == winner.full_name
        assert page.is_visible("svg.rating-chart polyline")
        change = page.inner_text("#rating-changes tbody tr:first-child .delta")
        assert change.startswith("+") and int(change) > 0
        assert "Вечер в клубе" in page.inner_text("#rating-changes")
        assert not page.evaluate(WIDER)
        # the season: the winners share the top of the table with 25 points each
        page.goto(f"{live_server.url}/seasons/")
        with page.expect_navigation():
            page.click("#season-list a")
        first = page.inner_text("#season-table tbody tr:first-child")
        assert "25" in first
        assert not page.evaluate(WIDER)
        with page.expect_download() as download:
            page.click("#season-csv")
        text = open(download.value.path(), encoding="utf-8-sig").read()  # noqa: SIM115
        rows_csv = list(csv.reader(io.StringIO(text)))
        assert rows_csv[1][0] == "1" and rows_csv[1][3] == "25"
        assert "Вечер в клубе" in rows_csv[0][-1]
    finally:
        phone.close()
    assert errors == []
