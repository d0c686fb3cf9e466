"""On a 360×740 phone the header is one bar — the site's name, «Войти» for a visitor, and a menu
button — instead of ~150–300 px of links on every page; the button is a disclosure a keyboard
and a screen reader use (a real button, ``aria-expanded``, ``aria-controls``; Enter or Space
opens it, Tab walks its links, Escape closes it and gives the focus back). On a laptop the links
are shown as before, without the button. Real pages in Chromium, both languages."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts import roles
from scoring.tests.test_browser import log_in
from tournaments.tests.conftest import make_user

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
#: the tallest the header may be on a phone
MAX_HEADER = 120
PAGES = ["/", "/ratings/", "/matches/", "/manage/", "/account/"]
HEIGHT = "document.querySelector('.site-header').getBoundingClientRect().height"


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_the_header_is_one_bar_on_a_phone_with_a_menu_the_keyboard_opens(
    browser: Any, live_server: Any, language: str
) -> None:
    # every role and the administration: the most links a header has
    boss = make_user("boss", roles.ORGANISER, roles.CHIEF_REFEREE, roles.REFEREE)
    User.objects.filter(pk=boss.pk).update(is_staff=True, first_name="Константин",
                                           last_name="Константинопольский")  # fmt: skip
    heights: dict[str, float] = {}
    for who in (None, "boss"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])  # fmt: skip
        page = context.new_page()
        try:
            if who:
                log_in(page, live_server.url, who, "/")
            for path in PAGES if who else ["/", "/ratings/", "/login/"]:
                page.goto(live_server.url + path)
                heights[f"{who} {path}"] = page.evaluate(HEIGHT)
            button = page.locator("#menu-button")
            assert button.is_visible() and button.get_attribute("aria-expanded") == "false"
            assert button.get_attribute("aria-controls") == "site-menu"
            assert not page.is_visible("#nav-ratings") and not page.is_visible("#language-select")
            if not who:  # a visitor signs in straight from the bar
                assert page.is_visible(".bar a.sign-in")

            page.focus("#menu-button")
            page.keyboard.press("Enter")
            assert button.get_attribute("aria-expanded") == "true"
            assert page.is_visible("#nav-ratings") and page.is_visible("#language-select")
            page.keyboard.press("Tab")  # into the menu, its first link
            assert page.evaluate("document.activeElement.closest('#site-menu') !== null")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            page.keyboard.press("Escape")
            assert button.get_attribute("aria-expanded") == "false"
            assert page.evaluate("document.activeElement.id") == "menu-button"
            assert not page.is_visible("#nav-ratings")
            page.keyboard.press("Space")  # a button: Space works as Enter does
            assert button.get_attribute("aria-expanded") == "true"
            with page.expect_navigation():
                page.click("#nav-ratings")
            assert page.url.endswith("/ratings/")
        finally:
            context.close()
    assert {k: h for k, h in heights.items() if h > MAX_HEADER} == {}, heights

    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "boss", "/manage/")
        assert not page.is_visible("#menu-button")
        for link in ("#nav-ratings", "#nav-manage", "#nav-matches", "#nav-account"):
            assert page.is_visible(link), link
    finally:
        context.close()
