"""In a real browser: the home page is Russian, and the switch in the header makes it English.

The ``browser`` fixture (Debian's Chromium through Playwright) is in the root conftest.py.
"""

import pytest


@pytest.mark.django_db(transaction=True)
def test_home_is_russian_and_switches_to_english(browser, live_server) -> None:
    # An English browser still gets Russian first: it is the club's language.
    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        assert page.locator("h1").inner_text() == "Открытые турниры"
        assert page.locator(".brand").inner_text() == "Домино: протокол и турнир"

        page.click("#menu-button")  # on a phone the switch is in the header's menu
        with page.expect_navigation():
            page.select_option("#language-select", "en")  # the script submits on change
        assert page.locator("h1").inner_text() == "Public tournaments"
        assert page.locator(".brand").inner_text() == "Domino: scoresheet and tournaments"
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()
