"""The referee's sheet on a phone, without reloading between deals (issue 28): after the first
deal is saved the amend and delete buttons are there and act on the protocol now on screen (no
false «changed on another device»); «Amend the last deal» previews the last deal as the
amendment it is (not as one more deal); the verdict box stays empty until there is something to
judge, and shows a long refusal whole."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts import roles
from rules import make_rules
from rules.simulate import play_match
from scoring import services
from scoring.models import Deal
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, SCREENSHOTS, log_in, tap_deal


def sheet(browser: Any, live_server: Any, language: str) -> tuple[Any, Any, list[dict[str, Any]]]:
    deals = play_match(make_rules("sport"), random.Random(1), style="tiles")
    referee = make_user("referee", roles.REFEREE)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=chief, referee=referee, seats=seats, label="Вечер",
                                  table="1")  # fmt: skip
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])  # fmt: skip
    page = context.new_page()
    log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
    return page, match, deals


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_after_a_save_the_last_deals_buttons_act_on_the_protocol_on_screen(
    browser: Any, live_server: Any, language: str
) -> None:
    page, match, deals = sheet(browser, live_server, language)
    try:
        assert page.locator("#amend-last").count() == 0  # nothing to amend yet
        page.click(f'.result-choice input[value="{deals[0]["result"]}"]')
        if deals[0].get("by") and deals[0]["result"] != "redeal":
            page.click(f'.by-choice input[value="{deals[0]["by"]}"]')
        page.wait_for_timeout(600)
        # who went out is tapped, no tile yet: nothing to judge, nothing said
        assert page.inner_text("#verdict").strip() == ""
        page.reload()
        for i, deal in enumerate(deals[:2], start=1):
            tap_deal(page, deal)
            page.wait_for_selector("#verdict .verdict.ok")
            page.click("#save-deal")
            page.wait_for_selector(f'#protocol tr[data-n="{i}"]')
        # the buttons came without a reload, and act on deal 2 at the current version
        page.wait_for_selector("#amend-last")
        if SCREENSHOTS:
            page.screenshot(path=f"{SCREENSHOTS}/sheet-after-save-{language}.png", full_page=True)
        assert page.input_value("#last-actions input[name=n]") == "2"
        assert "{#" not in page.inner_text("main")  # no template text on screen
        assert page.input_value("#last-actions input[name=expected_version]") == str(
            match.__class__.objects.get(pk=match.pk).version)

        # amending: the untouched last deal is previewed as itself, accepted
        page.click("#amend-last")
        page.wait_for_selector("#verdict .verdict.ok")
        assert page.locator("#verdict .verdict.refused").count() == 0

        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            page.click("#last-actions button.danger")
        assert Deal.objects.filter(match=match).count() == 1, page.inner_text("main")
        assert page.locator(".messages .error, .messages .messages-error").count() == 0
    finally:
        page.context.close()
