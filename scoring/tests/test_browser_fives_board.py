"""The fives board on a 360 px phone (issue 28): the running total counts the end of the deal
(the winner's bonus, RULES.md section 20) as soon as the hands are tapped, so that it shows what
the protocol will record; a refused save's message goes when the referee undoes a move; the last
deal can be amended on the board as the other games' sheet amends it, its totals counted from
those before it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts import roles
from rules.fives import FivesJudge, make_fives_rules
from rules.fives.simulate import play_fives_match
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_user
from scoring.tests.test_browser import PHONE, log_in
from scoring.tests.test_browser_fives import tap_fives_deal
from scoring.tests.test_fives import muggins_deals

#: a «fives» deal (no rounding) that E ends by going out, N left with 22 pips: E's bonus is 28
SEED = 3
#: a points-only deal: N 10, E 5, N goes out, E holds 6:6 5:4 (21 pips: muggins' bonus 20 ÷ 5)
LIGHT = {"result": "domino", "by": "N", "leader": "N", "hands": {"E": "6:6 5:4"},
         "scores": [{"seat": "N", "points": 10}, {"seat": "E", "points": 5}]}  # fmt: skip


def board(browser: Any, live_server: Any, preset: str, language: str = "ru") -> tuple[Any, Any]:
    referee = make_user("referee", roles.REFEREE)
    match = services.create_match(user=referee, rules_preset=preset)
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.on("pageerror", lambda exc: print("page error:", exc))
    log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
    page.wait_for_selector("#fives-entry.js")
    return page, match


def tap_light(page: Any, scores: list[tuple[str, int]], hands: dict[str, str]) -> None:
    page.click('[name=fives-mode][value="light"]')
    for seat, points in scores:
        page.click(f'#fives-seats [data-seat="{seat}"]')
        page.click(f'#fives-points .points-pick:text-is("{points}")')
    page.click('#fives-seats [data-seat="N"]')
    page.click("#fives-domino")
    for seat, tiles in hands.items():
        page.click(f'#fives-hand-tabs [data-seat="{seat}"]')
        for tile in tiles.split():
            page.click(f'#tile-grid .tile[data-tile="{tile}"]')


def shown_totals(page: Any) -> str:
    return page.inner_text("#fives-totals").split(" (")[0].split(" — ")[0]


@pytest.mark.django_db(transaction=True)
def test_the_running_total_counts_the_bonus_the_deal_will_record(
    browser: Any, live_server: Any
) -> None:
    rules = make_fives_rules("fives")
    deal = play_fives_match(rules, random.Random(SEED))[0]
    verdict = FivesJudge(rules).fold([deal]).deals[0]
    assert verdict.bonus["E"] == 28 and verdict.totals["E"] > 28
    page, match = board(browser, live_server, "fives")
    try:
        page.click(f'#fives-seats [data-seat="{deal["leader"]}"]')
        tap_fives_deal(page, rules, deal)
        totals = verdict.totals
        assert shown_totals(page) == f"Итого: N {totals['N']} · E {totals['E']}"
        assert "(призовые E +28)" in page.inner_text("#fives-totals")
        with page.expect_navigation():
            page.click("#fives-save")
        assert Match.objects.get(pk=match.pk).totals == totals
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_undoing_a_move_clears_the_refusal_of_the_last_save(browser: Any, live_server: Any) -> None:
    page, match = board(browser, live_server, "muggins")
    try:
        tap_light(page, [("N", 10)], {})  # E's hand not tapped: refused
        page.click("#fives-save")
        page.wait_for_selector("#verdict p")
        assert "Раздача не записана" in page.inner_text("#verdict")
        page.click("#fives-undo")
        assert page.inner_text("#verdict").strip() == ""
        assert not Deal.objects.filter(match=match).exists()
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_last_fives_deal_is_amended_on_the_board(
    browser: Any, live_server: Any, language: str
) -> None:
    rules = make_fives_rules("muggins")
    page, match = board(browser, live_server, "muggins", language)
    try:
        tap_light(page, [("N", 10), ("E", 5)], {"E": "6:6 5:4"})
        with page.expect_navigation():
            page.click("#fives-save")
        assert Deal.objects.get(match=match).record == LIGHT
        assert page.locator("#amend-last").count() == 1
        title = "Исправление последней раздачи" if language == "ru" else "Amending the last deal"

        page.click("#amend-last")
        assert page.inner_text("#fives-entry .entry-title") == title
        # the last deal back on the board, counted from the totals before it (none)
        assert page.locator("#fives-line li").count() == 2
        assert shown_totals(page).endswith("N 14 · E 5")  # 10 + bonus 4 (20 ÷ 5), E 5
        page.click("#fives-undo")  # back to the points
        page.click("#fives-undo")  # E's 5 taken back
        page.click('#fives-seats [data-seat="E"]')
        page.click('#fives-points .points-pick:text-is("10")')
        page.click('#fives-seats [data-seat="N"]')
        page.click("#fives-domino")  # E's hand is still there
        assert shown_totals(page).endswith("N 14 · E 10")
        with page.expect_navigation():
            page.click("#fives-save")
        amended = {**LIGHT, "scores": [{"seat": "N", "points": 10}, {"seat": "E", "points": 10}]}
        stored = Deal.objects.get(match=match)  # still one deal, now the amended one
        assert stored.record == amended
        expected = FivesJudge(rules).fold([amended]).state.totals
        assert Match.objects.get(pk=match.pk).totals == expected == {"N": 14, "E": 10}
        assert page.locator("#fives-entry.amending").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_last_deal_of_a_finished_fives_match_opens_on_the_board(
    browser: Any, live_server: Any
) -> None:
    """The match is over: no board for a new deal, but «Amend» opens the last deal on it."""
    page, match = board(browser, live_server, "muggins")
    try:
        deals = muggins_deals()
        for deal in deals:
            services.record_deal(match.pk, deal, match.referee)
        page.reload()
        assert page.locator("#fives-entry").is_hidden() and page.locator("#fives-bar").is_hidden()
        page.click("#amend-last")
        assert page.locator("#fives-entry").is_visible()
        assert page.locator("#fives-save").is_visible()
        assert page.locator("#submit-link").is_hidden()
        lines = page.locator("#fives-line li").count()
        assert lines == len(deals[-1].get("play") or deals[-1].get("scores") or [])
        final = Match.objects.get(pk=match.pk).totals
        assert shown_totals(page) == "Итого: " + " · ".join(f"{s} {final[s]}" for s in "NE")
        page.click("#fives-amend-cancel")  # nothing changed: the board goes again
        page.wait_for_selector("#submit-link")
        assert page.locator("#fives-entry").is_hidden()
    finally:
        page.context.close()
