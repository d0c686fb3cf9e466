"""Substitutes in Chromium: the organiser sets one from the round page (1366 px), the referee's
phone (360 px) shows the substitute at his seat in the protocol, and once the table is confirmed
the substitute's public page (360 px) shows the match with his partner. Screenshots go to
``CLOCK_SCREENSHOTS`` when set (else a temporary folder)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import Match
from scoring.tests.test_browser import log_in, open_page
from tournaments.models import Pairing, Substitute, Tournament
from tournaments.rounds.tables import reseat_table
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import PlayerFactory

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 800}
SCREENSHOTS = os.environ.get("CLOCK_SCREENSHOTS")


def shot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), full_page=True)


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_a_substitute_appears_in_the_protocol_and_on_his_page(
    browser: Any, live_server: Any, tmp_path: Path, language: str
) -> None:
    organiser = make_user("org", "Organiser")
    referee = make_user("ref", "Referee")
    tournament = Tournament.objects.create(name="Кубок замен", rounds=3, public=True)
    tournament.organisers.add(organiser)
    e = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    for pairing in Pairing.objects.filter(round=round_):
        Pairing.objects.filter(pk=pairing.pk).update(referee=referee)
        Match.objects.filter(pk=pairing.match_id).update(referee=referee)
        reseat_table(pairing, organiser)
    reserve = PlayerFactory(last_name="Запасной", first_name="Пётр", club=e[0].club)
    out = e[0].players.get(last_name="Южин1")
    partner = e[0].players.get(last_name="Северов1")
    match = Match.objects.get(pairing__round=round_, pairing__table=1)
    errors: list[str] = []

    page = open_page(browser, live_server.url, language, errors, viewport=LAPTOP)
    desk = page.context
    log_in(page, live_server.url, "org", f"/manage/{tournament.pk}/rounds/1/")
    with page.expect_navigation():
        page.click("#substitutes-link")
    assert page.input_value("#id_from_round") == "1"
    page.select_option("#id_replaced", str(out.pk))
    page.select_option("#id_player", str(reserve.pk))
    page.check('input[name=scope][value="one"]')
    page.fill("#id_reason", "заболел")
    with page.expect_navigation():
        page.click("#substitute-form button[type=submit]")
    page.wait_for_selector("#substitutes")
    assert "Запасной Пётр" in page.inner_text("#substitutes")
    assert Substitute.objects.filter(player=reserve, replaced=out, to_round=1).exists()
    shot(page, tmp_path, f"substitutes-{language}-1366.png")

    # the referee's phone: the substitute at his seat
    sheet = open_page(browser, live_server.url, language, errors, viewport=PHONE,
                      has_touch=True)  # fmt: skip
    phone = sheet.context
    log_in(sheet, live_server.url, "ref", f"/matches/{match.pk}/")
    seats = sheet.inner_text(".seat-list")
    assert "Запасной Пётр" in seats and "Южин1" not in seats and "Северов1" in seats
    shot(sheet, tmp_path, f"sheet-substitute-{language}-360.png")
    assert sheet.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # the table confirmed: the substitute's page shows it, with his partner
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.CONFIRMED, winner="NS", totals={"NS": 120, "EW": 40},
        finished=True, end="deals", confirmed_at=timezone.now())  # fmt: skip
    public = open_page(browser, live_server.url, language, errors, viewport=PHONE)
    visitor = public.context
    public.goto(f"{live_server.url}/players/{reserve.pk}/")
    text = public.inner_text("main")
    assert "Кубок замен" in text and partner.full_name in text
    assert public.locator(".history-match").count() == 1
    shot(public, tmp_path, f"player-substitute-{language}-360.png")
    public.goto(f"{live_server.url}/players/{out.pk}/")
    assert public.locator(".history-match").count() == 0
    for context in (desk, phone, visitor):
        context.close()
    assert not errors
