"""In a real browser: a spectator on a phone opens the live standings and sees the table (and it
refreshes in place); the hall's projector shows the round's tables, then moves on by itself to
the standings."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import TournamentFactory

PHONE = {"width": 390, "height": 800}
PROJECTOR = {"width": 1280, "height": 720}


@pytest.mark.django_db(transaction=True)
def test_standings_on_a_phone_and_the_hall_screen_advancing(browser: Any, live_server: Any) -> None:
    tournament = TournamentFactory(name="Открытый кубок")
    a, b, c, d = add_pairs(tournament, 4)
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)])
    errors: list[str] = []

    phone = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        page = phone.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
        page.wait_for_selector("#standings tbody tr[data-rank='4']")
        first = page.inner_text("#standings tbody tr[data-rank='1']")
        assert "Пара 1" in first
        assert page.get_attribute("#results-box", "data-refresh") == "20"
        assert "ещё играет" in page.inner_text("#results-status")
        # the fragment the script re-fetches holds the same table
        page.evaluate("""async () => {
            const box = document.getElementById('results-box');
            const html = await (await fetch(box.dataset.fragmentUrl)).text();
            box.innerHTML = html;
        }""")
        assert "Пара 1" in page.inner_text("#standings tbody tr[data-rank='1']")
    finally:
        phone.close()

    projector = browser.new_context(viewport=PROJECTOR, locale="ru-RU")
    try:
        page = projector.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/hall/?every=1")
        page.wait_for_selector("#hall[data-showing='pairings:1']")
        assert page.is_visible(".slide[data-kind='pairings'] tr[data-table='1']")
        assert not page.is_visible(".slide[data-kind='standings']")
        page.wait_for_selector("#hall[data-showing='standings:1']", timeout=5000)
        assert page.is_visible(".slide[data-kind='standings'] tr[data-rank='1']")
        assert not page.is_visible(".slide[data-kind='pairings']")
        # after the last slide it reloads its data and starts again with the tables
        page.wait_for_selector("#hall[data-showing='pairings:1']", timeout=5000)
    finally:
        projector.close()
    assert errors == []
