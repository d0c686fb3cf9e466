"""In a real browser: the home page is Russian, and the switch in the header makes it English."""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.testing import service_unavailable

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        service_unavailable(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django would otherwise refuse
    # database access from it (SynchronousOnlyOperation).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.mark.django_db(transaction=True)
def test_home_is_russian_and_switches_to_english(browser, live_server) -> None:
    # An English browser still gets Russian first: it is the club's language.
    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        assert page.locator("h1").inner_text() == "Открытые турниры"
        assert page.locator(".brand").inner_text() == "Домино: протокол и турнир"

        with page.expect_navigation():
            page.select_option("#language-select", "en")  # the script submits on change
        assert page.locator("h1").inner_text() == "Public tournaments"
        assert page.locator(".brand").inner_text() == "Domino: scoresheet and tournaments"
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()
