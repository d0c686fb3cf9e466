"""The referee's sheet says what the rules decide (issue 28), on a 360 px phone in both languages:
in «Козёл» and «Морской» the ladder names the first leader (RULES.md section 9), so the sheet
names him (the holder of 1:1) and the protocol's first «Lead» cell shows the 1:1 he led, where
they said «any seat» and left the cell empty; in «Морской» a deal won below the minimum says that
its amount burnt, where it said nothing about why nothing is written."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import roles
from scoring import services
from scoring.models import Deal
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in, tap_deal

#: N goes out, E–W hold 2:0 and 1:0: three points, below «Морской»'s minimum of 25
SMALL_WIN = {"result": "domino", "by": "N", "hands": {"E": "2:0", "W": "1:0", "S": "3:3"}}

WORDS = {
    "ru": {"leads": "Заходит: у кого 1:1, с дубля 1:1", "any": "любое место",
           "burnt": "N–S 3 очка — сгорело: меньше 25", "title": "у кого 1:1"},
    "en": {"leads": "Leads: the holder of 1:1, with the 1:1", "any": "any seat",
           "burnt": "N–S 3 points — burnt: less than 25", "title": "holder of 1:1"},
}


def open_sheet(browser: Any, live_server: Any, preset: str, language: str) -> tuple[Any, Any]:
    referee = make_user("referee", roles.REFEREE)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=chief, referee=referee, seats=seats, label="Вечер",
                                  table="1", rules_preset=preset)  # fmt: skip
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])  # fmt: skip
    page = context.new_page()
    log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
    return page, match


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("preset", ["kozel", "morskoy"])
def test_the_ladder_names_the_first_leader_on_the_sheet_and_in_the_protocol(
    browser: Any, live_server: Any, preset: str, language: str
) -> None:
    words = WORDS[language]
    page, match = open_sheet(browser, live_server, preset, language)
    try:
        leads = page.inner_text("#expected-leader")
        assert leads == words["leads"] and words["any"] not in leads
        tap_deal(page, SMALL_WIN)
        page.wait_for_selector("#verdict .verdict.ok")
        page.click("#save-deal")
        page.wait_for_selector('#protocol tr[data-n="1"]')
        cell = page.locator('#protocol tr[data-n="1"] td').nth(1)
        assert cell.inner_text() == "1:1"
        assert words["title"] in (cell.locator("abbr").get_attribute("title") or "")
        # after a counted deal the winner leads: the seat, by name
        assert page.inner_text("#expected-leader").endswith("N · Иванов")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_morskoy_win_below_the_minimum_says_it_burnt(
    browser: Any, live_server: Any, language: str
) -> None:
    words = WORDS[language]
    page, match = open_sheet(browser, live_server, "morskoy", language)
    try:
        tap_deal(page, SMALL_WIN)
        page.wait_for_selector("#verdict .verdict.ok")
        assert page.inner_text("#verdict .burnt") == words["burnt"]
        page.click("#save-deal")
        page.wait_for_selector('#protocol tr[data-n="1"] .burnt-tag')
        assert Deal.objects.get(match=match).verdict["recorded"] == {"NS": 0, "EW": 0}
    finally:
        page.context.close()


@pytest.mark.django_db
def test_with_a_boneyard_the_ladder_names_the_lowest_double_until_a_deal_counts(client) -> None:
    """Two players of «Козёл» leave a boneyard: the double may be in it, so the sheet names the
    whole ladder; a redeal keeps the ladder's lead, the first counted deal ends it."""
    referee = make_user("referee", roles.REFEREE)
    match = services.create_match(user=referee, referee=referee, rules_preset="kozel", players=2)
    client.force_login(referee)
    client.cookies["django_language"] = "ru"
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "у кого 1:1</b> (если его ни у кого нет — у кого 2:2 … 6:6, затем 0:0" in html
    services.record_deal(match.pk, {"result": "redeal", "hands": {"N": "1:1 2:2 3:3 4:4 5:5"}},
                         referee)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "у кого 1:1</b>" in html
    assert '<td><abbr title="у кого 1:1; если его ни у кого нет' in html and ">1:1…</abbr>" in html
