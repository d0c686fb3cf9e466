"""A «Генерал» evening «на вылет» of three teams from the setup page to the final standings, in
a real browser (issue 27): the organiser picks «Генерал», the end of a stint by lost deals and
the system «На вылет» in the setup form; three pairs register; three stints are paired, played
and confirmed through the services; the «За столом» page ranks the teams at 360 px, with no
accessibility violation, in Russian and English."""

from __future__ import annotations

import random
from typing import Any

import pytest

from config.tests.axe import install, violations
from tournaments.models import Tournament
from tournaments.rotation import standings
from tournaments.tests.rotation.test_rotation import TEAMS, add_pairs, pair, play
from tournaments.tests.rounds.test_fives_events import referee_user
from tournaments.tests.test_browser import DESKTOP, log_in

PHONE = {"width": 360, "height": 740}
__all__ = ["referee_user"]  # a fixture


@pytest.mark.django_db(transaction=True)
def test_a_rotation_evening_of_three_teams_from_setup_to_final_standings(
    browser: Any, live_server: Any, organiser: Any, referee_user: Any
) -> None:
    axe = install()
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU", bypass_csp=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "org", "/manage/new/")
        page.fill("#id_name", "Генерал на вылет")
        page.fill("#id_start_date", "2026-12-05")
        page.select_option("#id_rules_preset", "general")
        assert page.locator("#id_clubgame_general_rule").is_visible()
        assert not page.locator("#id_clubgame_sticks").is_visible()  # Семёрка's knob
        page.select_option("#id_clubgame_end", "losses")
        page.select_option("#id_format", "pairs")
        page.select_option("#id_system", "rotation")
        page.fill("#id_rounds", "3")
        with page.expect_navigation():
            page.click("#save-setup")
        refusals = page.locator(".field-error").all_inner_texts()
        assert refusals == [], refusals
        tournament = Tournament.objects.get(name="Генерал на вылет")
        assert tournament.system == "rotation" and tournament.rules.end == "losses"
        add_pairs(tournament)
        rng = random.Random(8)
        for _number in range(3):
            play(organiser, pair(organiser, tournament, referee_user), rng, referee_user)
        lines = standings.table(tournament)
        assert sum(t.stints for t in lines) == 6
        for language, word in (("ru", "Очередь"), ("en", "Queue")):
            context.add_cookies([{"name": "django_language", "value": language,
                                  "url": live_server.url}])  # fmt: skip
            page.set_viewport_size(PHONE)
            page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rotation/")
            assert word in page.inner_text("#queue")
            rows = page.locator("#rotation-standings tbody tr")
            assert rows.count() == 3
            assert [rows.nth(i).locator("th").inner_text() for i in range(3)] == [
                t.name for t in lines]
            assert set(TEAMS) == {t.name for t in lines}
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            assert violations(page, axe) == []
        assert not errors, errors
    finally:
        context.close()
