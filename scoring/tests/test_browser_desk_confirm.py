"""The chief referee who copies a paper protocol in and submits it himself (issue 28) lands on
«Confirm the protocol», where he may not confirm (``submitter_cannot_confirm``): the page says so,
says who may (another chief referee or organiser of the match, or the opposing captain with a
PIN he did not issue) and offers his ways on; another chief referee then confirms. On a 360 px
phone, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import roles
from scoring import services
from scoring.models import Match
from scoring.tests.helpers import make_player, make_user, record_all, sport_deals
from scoring.tests.test_browser import PHONE, log_in

WORDS = {
    "ru": {"why": "Этот протокол сдали вы, поэтому подтвердить его не можете",
           "who": "другой главный судья или организатор",
           "pin": "PIN, выданный вами, не действует", "warn": "подтверждает кто-то другой"},
    "en": {"why": "You submitted this protocol, so you cannot confirm it",
           "who": "another chief referee or organiser",
           "pin": "The PIN you issued does not count", "warn": "is confirmed by someone else"},
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_chief_who_submits_is_told_who_confirms_and_another_chief_does(
    browser: Any, live_server: Any, language: str
) -> None:
    words = WORDS[language]
    chief = make_user("chief", roles.CHIEF_REFEREE)
    make_user("chief2", roles.CHIEF_REFEREE)
    referee = make_user("referee", roles.REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=chief, referee=referee, seats=seats, label="Вечер")
    record_all(match, chief, sport_deals())  # the paper protocol, copied in at the desk
    services.set_confirm_pin(match.pk, chief, "4321")  # his own PIN: it will not count
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    try:
        log_in(page, live_server.url, "chief", f"/matches/{match.pk}/submit/")
        assert words["warn"] in page.inner_text("#desk-submits")
        with page.expect_navigation():
            page.click("#submit-form button[type=submit]")
        assert page.url.endswith(f"/matches/{match.pk}/confirm/")
        assert page.locator("#confirm-form, #pin-form").count() == 0
        told = page.inner_text("#who-confirms")
        assert words["why"] in told and words["who"] in told and words["pin"] in told
        assert page.locator("#who-confirms a").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.click("#back-to-sheet")
        page.wait_for_selector("#protocol")

        page.click("#menu-button")  # on a phone «Sign out» is in the header's menu
        page.click("form[action='/logout/'] button")
        log_in(page, live_server.url, "chief2", f"/matches/{match.pk}/confirm/")
        assert page.locator("#who-confirms").count() == 0
        with page.expect_navigation():
            page.click("#confirm-form button[type=submit]")
        confirmed = Match.objects.get(pk=match.pk)
        assert confirmed.status == Match.Status.CONFIRMED and confirmed.confirmed_by_id != chief.pk
    finally:
        context.close()
