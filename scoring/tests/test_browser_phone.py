"""The referee's sheet on a 360×740 phone, in Russian: what he needs is where he looks.

Save, the verdict and the network's state sit in a bar at the bottom of the screen, on screen
from the first tap to the tile picker's last row (Save was 1,100 px down the page and the
offline message out of sight). Save with nothing chosen says what is missing; counts agree with
their numbers («+21 очко», «2 · 18 очков»); an announced amount the rules do not give is shown
beside the rules' and accepted with one tap.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts import roles
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in

#: ex. 1 of RULES.md: E goes out, N holds 3:4 1:0 (8), S the lone 6:6 (50), W 2:2 4:1 (9)
HANDS = {"N": ["4:3", "1:0"], "S": ["6:6"], "W": ["2:2", "4:1"]}


def in_sight(page: Any, selector: str) -> bool:
    return bool(page.evaluate("""(selector) => {
        const e = document.querySelector(selector);
        const r = e.getBoundingClientRect();
        if (!r.height || r.top < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
        return e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    }""", selector))


@pytest.fixture
def phone(browser: Any, live_server: Any, db: Any) -> Any:
    referee = make_user("referee", roles.REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=referee, referee=referee, seats=seats,
                                  label="Клубный вечер", table="1")  # fmt: skip
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
    yield page, match, context
    context.close()
    assert not errors


def test_save_and_the_verdict_stay_in_sight_and_say_what_is_missing(phone: Any) -> None:
    page, match, context = phone
    assert in_sight(page, "#save-deal")
    page.click("#save-deal")  # nothing chosen yet
    page.wait_for_selector("#verdict .verdict.refused")
    assert page.inner_text("#verdict li") == "Выберите, чем закончилась раздача."
    assert in_sight(page, "#verdict li")
    assert "Обязательное поле" not in page.inner_text("body")

    page.click('.result-choice input[value="domino"]')
    page.click('.by-choice input[value="E"]')
    for seat, tiles in HANDS.items():
        page.click(f'.seat-tab[data-seat="{seat}"]')
        for tile in tiles:
            page.locator(f'#tile-grid .tile[data-tile="{tile}"]').scroll_into_view_if_needed()
            page.click(f'#tile-grid .tile[data-tile="{tile}"]')
            assert in_sight(page, "#save-deal")
    page.locator('#tile-grid .tile[data-tile="6:6"]').scroll_into_view_if_needed()
    page.wait_for_selector("#verdict .verdict.ok")
    assert in_sight(page, "#verdict .verdict-head") and in_sight(page, "#save-deal")
    assert "E–W +58 очков" in page.inner_text("#verdict")
    assert page.inner_text('.seat-tab[data-seat="S"] .seat-summary') == "1 · 12 очков"
    assert page.inner_text('.seat-tab[data-seat="N"] .seat-summary') == "2 · 8 очков"

    # the network drops as he saves: the message is in the bar he is looking at
    context.set_offline(True)
    page.click("#save-deal")
    page.wait_for_selector("#network-banner.warn")
    assert in_sight(page, "#network-banner")
    assert "повторное нажатие не запишет её дважды" in page.inner_text("#network-banner")
    context.set_offline(False)
    page.wait_for_selector('#protocol tr[data-n="1"]')
    assert Deal.objects.filter(match=match).count() == 1


def test_an_announced_amount_is_checked_and_the_rules_amount_accepted(phone: Any) -> None:
    page, match, _context = phone
    page.click('.result-choice input[value="domino"]')
    page.click('.by-choice input[value="E"]')
    for seat, tiles in HANDS.items():
        page.click(f'.seat-tab[data-seat="{seat}"]')
        for tile in tiles:
            page.click(f'#tile-grid .tile[data-tile="{tile}"]')
    page.click("details.declared summary")
    page.fill('input[name="declared_EW"]', "66")
    page.wait_for_selector("#verdict .verdict.refused")
    assert "E–W: объявлено 66, по правилам 58" in page.inner_text("#verdict")
    assert in_sight(page, "#verdict .accept-rules")
    page.click("#verdict .accept-rules")
    page.wait_for_selector("#verdict .verdict.ok")
    assert page.input_value('input[name="declared_EW"]') == "58"
    page.click("#save-deal")
    page.wait_for_selector('#protocol tr[data-n="1"]')
    deal = Deal.objects.get(match=match)
    assert deal.record["declared"] == {"NS": 0, "EW": 58}
    assert Match.objects.get(pk=match.pk).totals == {"NS": 0, "EW": 58}


def test_counts_agree_with_their_numbers_on_the_phone(phone: Any) -> None:
    page, _match, _context = phone
    page.click('.result-choice input[value="domino"]')
    page.click('.by-choice input[value="E"]')
    page.click('.mode-choice input[value="pips"]')
    for seat, pips in (("N", "20"), ("S", "1"), ("W", "3")):
        page.fill(f'input[name="pips_{seat}"]', pips)
    page.wait_for_selector("#verdict .verdict.ok")
    assert "E–W +21 очко" in page.inner_text("#verdict")
    assert page.inner_text('.seat-tab[data-seat="N"] .seat-summary') == "20 очков"
    assert page.inner_text('.seat-tab[data-seat="S"] .seat-summary') == "1 очко"
    page.fill('input[name="pips_S"]', "2")
    page.wait_for_function("() => document.querySelector('#verdict').textContent"
                           ".indexOf('+22 очка') >= 0")
    assert page.inner_text('.seat-tab[data-seat="S"] .seat-summary') == "2 очка"


#: the fish of RULES.md's tests (N–S 61, E–W 65): four hands, 18 tiles left
FISH = {"N": ["1:1", "6:6", "3:1", "4:2"], "E": ["2:2", "5:5", "4:1", "6:3"],
        "S": ["3:3", "5:1", "5:2", "5:3", "6:4"], "W": ["4:4", "6:1", "3:2", "6:2", "5:4"]}


def test_after_the_first_deal_every_tap_is_in_sight_without_scrolling(phone: Any) -> None:
    """Taps to record a deal, counted: a domino is who went out (the result follows), a tap on
    each other seat's card, its tiles, Save; a fish the result, the seats, the tiles, Save. After
    a deal is saved the next one starts in sight, and the players' cards stay at the top while
    the tiles are tapped, so no tap needs a scroll (before: 4–5 swipes a deal, Save 1,100 px
    down)."""
    page, match, _context = phone
    taps: list[str] = []

    def tap(selector: str, scrolling: bool = False) -> None:
        if not scrolling:
            assert in_sight(page, selector), f"{selector} is out of sight"
        page.locator(selector).scroll_into_view_if_needed()
        page.click(selector)
        taps.append(selector)

    def record(result: str, by: str | None, hands: dict[str, list[str]], first: bool) -> int:
        taps.clear()
        if result != "domino":
            tap(f'.result-choice input[value="{result}"]')
        if by:
            tap(f'.by-choice input[value="{by}"]', scrolling=first)
        page.wait_for_timeout(600)  # the cards and tiles come into sight
        for seat, tiles in hands.items():
            if page.get_attribute(f'.seat-tab[data-seat="{seat}"]', "aria-pressed") != "true":
                tap(f'.seat-tab[data-seat="{seat}"]')
            for tile in tiles:
                tap(f'#tile-grid .tile[data-tile="{tile}"]')
        page.wait_for_selector("#verdict .verdict")
        tap("#save-deal")
        return len(taps)

    assert record("domino", "E", HANDS, first=True) == 1 + 2 + 5 + 1
    page.wait_for_selector('#protocol tr[data-n="1"]')
    page.wait_for_timeout(300)
    assert record("fish", None, FISH, first=False) == 1 + 3 + 18 + 1
    page.wait_for_selector('#protocol tr[data-n="2"]')
    results = [d.record["result"] for d in Deal.objects.filter(match=match).order_by("n")]
    assert results == ["domino", "fish"]
