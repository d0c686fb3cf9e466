"""On a 360 px phone: choosing the game shows the numbers of players it allows, choosing the
number shows only the seats that play, and the match is created with them."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Match
from scoring.tests.test_browser import log_in
from tournaments.tests.factories import PlayerFactory


@pytest.mark.django_db(transaction=True)
def test_the_seats_follow_the_game_and_the_number_of_players(
    browser: Any, live_server: Any, referee: Any
) -> None:
    players = [PlayerFactory(last_name=name) for name in ("Орлов", "Зуев", "Лисин")]
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = context.new_page()
    log_in(page, live_server.url, referee.username, "/matches/new/")

    def seats() -> list[str]:
        return [s for s in "NESW" if page.locator(f'.seat-field[data-seat="{s}"]').is_visible()]

    # sports domino: four, no choice to make
    assert not page.locator("#players-choice").is_visible() and seats() == list("NESW")
    page.select_option('select[name="rules_preset"]', "muggins")
    assert page.locator("#players-choice").is_visible()
    assert page.is_checked('input[name="players"][value="2"]') and seats() == ["N", "E"]
    box = page.locator('#players-choice label[data-players="3"]').bounding_box()
    assert box is not None and box["height"] >= 40  # a thumb's target on a phone
    page.check('input[name="players"][value="4"]')
    assert seats() == list("NESW")
    page.select_option('select[name="rules_preset"]', "sport")  # back to four, no choice
    assert not page.locator("#players-choice").is_visible() and seats() == list("NESW")
    page.select_option('select[name="rules_preset"]', "muggins")
    assert seats() == ["N", "E"]
    page.check('input[name="players"][value="3"]')
    assert seats() == ["N", "E", "S"]
    for seat, player in zip("NES", players, strict=True):
        page.select_option(f'select[name="seat_{seat}"]', str(player.pk))
    with page.expect_navigation():
        page.click('button[form="match-form"]')
    match = Match.objects.get()
    assert match.rules["players"] == 3 and match.seat_w_id is None
    assert page.url.endswith(f"/matches/{match.pk}/")
    context.close()
