"""In a real browser at 360 px (Russian): the chief referee corrects a confirmed «Пятёрка» protocol
with the move-list editor (issue 27). He taps a deal's number, sees its moves as rows, taps a
move's tile field and another tile on the grid, lays it on the end it fits, sees the move's count
and points and the protocol judged again, reloads the page (his unsaved work is kept), writes
the reason and saves; the history tells the change in words. axe-core finds nothing blocking on
the editor."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import roles
from config.tests.axe import install, violations
from rules.fives import FivesJudge, make_fives_rules, parse_tile
from rules.tiles import NAMES
from scoring import services
from scoring.models import Match, MatchVersion
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in
from scoring.tests.test_fives_correction import a_legal_tile_change, deals_to_correct


def judged(page: Any) -> None:
    """Waits for the preview asked by the last change to be answered."""
    page.wait_for_timeout(150)
    page.wait_for_function("() => !document.getElementById('review').classList.contains('busy')")


@pytest.mark.django_db(transaction=True)
def test_the_chief_corrects_a_move_of_a_confirmed_fives_protocol_on_a_phone(
    browser: Any, live_server: Any
) -> None:
    deals = deals_to_correct()
    d, j, tile = a_legal_tile_change(deals)
    old = deals[d]["play"][j]
    rules = make_fives_rules("muggins")
    expected = [dict(x, play=[dict(e) for e in x["play"]]) for x in deals]
    expected[d]["play"][j]["tile"] = tile
    expected[d]["play"][j].pop("points", None)
    totals = FivesJudge(rules).fold(expected).state.totals

    referee = make_user("referee", roles.REFEREE)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    match = services.create_match(user=referee, rules_preset="muggins", label="Пятёрка",
                                  seats={"N": make_player("Иванов"), "E": make_player("Петров")})
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    before = Match.objects.get(pk=match.pk).totals
    assert before != totals

    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True,
                                  bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, live_server.url, "chief", f"/matches/{match.pk}/correct/")
        page.wait_for_selector("#correction.js")
        page.click(f'#review .moves-pick[data-index="{d}"]')
        page.wait_for_selector("#move-editor")
        judged(page)
        assert page.inner_text("#move-editor-title") == f"Раздача {d + 1}: ходы"
        assert page.locator("#move-editor tr.move-row").count() == len(deals[d]["play"])
        # the move's tile is changed on the grid; the end among those the tile fits
        page.click(f'[name="e{j}-tile"]')
        page.wait_for_selector("#move-tiles:not([hidden])")
        assert page.inner_text("#move-tiles-label") == f"Ход {j + 1}: нажмите кость"
        page.click(f'#move-tiles .tile[data-tile="{tile}"]')
        if page.locator("#move-end-choice .end-pick").count():
            page.click(f'#move-end-choice .end-pick[data-end="{old["end"]}"]')
        page.fill(f'[name="e{j}-points"]', "")
        page.dispatch_event(f'[name="e{j}-points"]', "change")
        judged(page)
        assert page.input_value(f'[name="e{j}-tile"]') == tile
        row = page.inner_text(f'#move-editor tr.move-row[data-j="{j}"] .judged')
        assert row.startswith("сумма")  # the move judged again: its count (and points)
        words = (f"Раздача {d + 1}, ход {j + 1}: {old['seat']} {tile}")
        assert words in page.inner_text("#review")
        assert f"вместо {NAMES[parse_tile(old['tile'])]}" in page.inner_text("#review")
        assert "Изменена 1 раздача." in page.inner_text("#correct-status")
        page.screenshot(path="/tmp/fives-correction-ru.png", full_page=True)
        wide = page.evaluate("""() => [...document.querySelectorAll('#move-editor *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1).length""")
        assert wide == 0  # the moves wrap on a phone: nothing to scroll sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        found = violations(page, install())
        assert not found, found
        page.screenshot(path="/tmp/fives-correction-ru.png", full_page=True)
        assert Match.objects.get(pk=match.pk).totals == before  # nothing saved yet
        # a reload keeps the unsaved correction in this browser, judged as it was left
        page.reload()
        page.wait_for_selector("#draft-note:not([hidden])")
        judged(page)
        assert words in page.inner_text("#review")
        page.fill("#id_reason", "кость перепутана")
        with page.expect_navigation():
            page.click("#save-correction")
        assert page.url.endswith(f"/matches/{match.pk}/history/")
        assert Match.objects.get(pk=match.pk).totals == totals
        assert MatchVersion.objects.filter(match=match, action="correct").count() == 1
        history = page.inner_text("main")
        assert words in history and "{" not in history
        found = violations(page, install())
        assert not found, found
        assert not errors
    finally:
        context.close()
