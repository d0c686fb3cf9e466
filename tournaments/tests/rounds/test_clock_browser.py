"""The round clock in Chromium: the organiser starts it on the round page (1366 px), the
referee's phone (360 px) counts down and, once time is up, a deal saved even with «time ran out»
unticked ends the match, the page saying why; the hall screen shows the last minutes large.
Screenshots go to ``CLOCK_SCREENSHOTS`` when set (else a temporary folder)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Match
from scoring.tests.helpers import sport_deals
from scoring.tests.test_browser import log_in, open_page, tap_deal
from tournaments.models import Pairing, Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 800}
SCREENSHOTS = os.environ.get("CLOCK_SCREENSHOTS")


def shot(page: Any, tmp_path: Path, name: str, full: bool = True) -> None:
    if not full:
        page.evaluate("window.scrollTo(0, 0)")  # the clock and the banner at the top
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), full_page=full)


def move_clock(round_: Round, left_seconds: float) -> None:
    """The running clock as if only ``left_seconds`` were left (a test cannot wait 40 minutes):
    the start moved back, the tables' matches told, as ``rounds.clock`` does."""
    round_.refresh_from_db()
    limit = timedelta(minutes=(round_.clock_minutes or 0) + round_.clock_extra_minutes)
    Round.objects.filter(pk=round_.pk).update(
        clock_started_at=timezone.now() - limit + timedelta(seconds=left_seconds))
    round_.refresh_from_db()
    scoring.set_clock(Match.objects.filter(pairing__round=round_).values_list("pk", flat=True),
                      ends_at=round_.clock_ends_at(), paused_left=round_.clock_paused_left())


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_the_clock_counts_down_and_a_deal_after_time_ends_the_match(
    browser: Any, live_server: Any, tmp_path: Path, language: str
) -> None:
    organiser = make_user("org", "Organiser")
    referee = make_user("ref", "Referee")
    tournament = Tournament.objects.create(name="Кубок часов", rounds=3, round_minutes=40,
                                           public=True)  # fmt: skip
    tournament.organisers.add(organiser)
    e = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    for pairing in Pairing.objects.filter(round=round_):
        Pairing.objects.filter(pk=pairing.pk).update(referee=referee)
        Match.objects.filter(pk=pairing.match_id).update(referee=referee)
    match = Match.objects.get(pairing__round=round_, pairing__table=1)
    errors: list[str] = []

    # the organiser starts the clock with the tournament's 40 minutes
    page = open_page(browser, live_server.url, language, errors, viewport=LAPTOP)
    desk = page.context
    log_in(page, live_server.url, "org", f"/manage/{tournament.pk}/rounds/1/")
    assert page.input_value("#clock-minutes") == "40"
    with page.expect_navigation():
        page.click("#clock-start-form button")
    page.wait_for_selector("#round-clock")
    assert page.inner_text("#round-clock .clock-time").startswith(("40:00", "39:5"))
    shot(page, tmp_path, f"round-page-clock-{language}-1366.png")

    # the referee's phone counts down
    sheet = open_page(browser, live_server.url, language, errors, viewport=PHONE,
                      has_touch=True)  # fmt: skip
    phone = sheet.context
    log_in(sheet, live_server.url, "ref", f"/matches/{match.pk}/")
    first = sheet.inner_text("#round-clock .clock-time")
    sheet.wait_for_function(
        "t => document.querySelector('#round-clock .clock-time').textContent !== t", arg=first)
    assert sheet.inner_text("#round-clock .clock-time") < first
    deals = sport_deals()
    tap_deal(sheet, deals[0])
    sheet.wait_for_selector("#verdict .verdict.ok")
    with sheet.expect_response(lambda r: r.url.endswith("/deals/")):
        sheet.click("#save-deal")
    sheet.wait_for_selector('#protocol tr[data-n="1"]')
    shot(sheet, tmp_path, f"sheet-clock-{language}-360.png", full=False)

    # four seconds left: the last minutes' colours, then zero while the phone watches
    move_clock(round_, 4)
    sheet.reload()
    sheet.wait_for_selector("#round-clock.last-minutes")
    shot(sheet, tmp_path, f"sheet-last-minutes-{language}-360.png", full=False)
    sheet.wait_for_selector("#round-clock.time-up", timeout=10000)
    assert sheet.is_checked("#deal-form [name=time_up]")  # ticked by the page at zero
    shot(sheet, tmp_path, f"sheet-time-up-{language}-360.png", full=False)

    # the referee unticks it and saves: the server marks the deal anyway, the match ends
    sheet.reload()
    sheet.wait_for_selector("#last-by-time")
    sheet.uncheck("#deal-form [name=time_up]")
    tap_deal(sheet, deals[1])
    sheet.wait_for_selector("#verdict .verdict.ok")
    sheet.click("#save-deal")
    sheet.wait_for_selector("#ended-by-time")
    match.refresh_from_db()
    assert match.finished and match.end == "time" and match.deals.count() == 2
    assert match.deals.get(n=2).time_up_by_clock
    assert "#round-clock" not in sheet.content() or not sheet.is_visible("#round-clock")
    shot(sheet, tmp_path, f"sheet-ended-by-time-{language}-360.png")

    # the hall screen: the last minutes large, then paused
    move_clock(round_, 200)
    hall = desk.new_page()
    hall.on("pageerror", lambda exc: errors.append(str(exc)))
    hall.goto(f"{live_server.url}/tournaments/{tournament.pk}/hall/")
    hall.wait_for_selector("#hall-clock.last-minutes")
    height = hall.evaluate("document.querySelector('#hall-clock .clock-time')"
                           ".getBoundingClientRect().height")
    assert height > LAPTOP["height"] * 0.18  # about a fifth of the screen: read from the back
    shot(hall, tmp_path, f"hall-last-minutes-{language}-1366.png", full=False)
    page.goto(f"{live_server.url}/manage/{tournament.pk}/rounds/1/")
    with page.expect_navigation():
        page.click("#clock-pause-form button")
    hall.reload()
    hall.wait_for_selector("#hall-clock.paused")
    shot(hall, tmp_path, f"hall-paused-{language}-1366.png", full=False)
    # the round page at 360 px does not scroll sideways with the clock panel
    narrow = phone.new_page()
    log_in(narrow, live_server.url, "org", f"/manage/{tournament.pk}/rounds/1/")
    assert narrow.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(narrow, tmp_path, f"round-page-clock-{language}-360.png")
    desk.close()
    phone.close()
    assert not errors
