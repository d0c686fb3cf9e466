"""In a real browser at 360 px: a referee taps a whole muggins deal (RULES.md sections 15–23),
the spinner and a draw among its moves, into the fives board; each move shows its count at once,
and the saved deal's totals on the page equal the engine's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from accounts import roles
from rules.fives import FivesJudge, FivesTable, make_fives_rules, parse_tile
from rules.fives.simulate import play_fives_match
from rules.tiles import NAMES
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in, tile_name

#: the first deal of this muggins match has a spinner (3:3, then the arms U and D) and draws
SEED = 1


def shot(page: Any, name: str) -> None:
    page.screenshot(path=f"/tmp/{name}", full_page=True)


def tap_fives_deal(page: Any, rules: Any, deal: dict[str, Any]) -> None:
    table = FivesTable(rules)
    for i, entry in enumerate(deal["play"]):
        if "tile" in entry:
            tile = parse_tile(entry["tile"])
            legal = table.legal_ends(tile)
            laid = table.play(tile, entry.get("end"))
            for attempt in (1, 2) if i == 1 else (2,):
                page.click(f'#tile-grid .tile[data-tile="{NAMES[tile]}"]')
                if laid.end is not None:
                    offered = page.eval_on_selector_all(
                        "#fives-end-choice .end-pick", "bs => bs.map(b => b.dataset.end)")
                    assert offered == legal  # only the ends the tile fits
                    page.click(f'#fives-end-choice .end-pick[data-end="{laid.end}"]')
                if attempt == 1:  # laid, then taken back and laid again
                    assert page.locator("#fives-line li").count() == 2
                    page.click("#fives-undo")
                    assert page.locator("#fives-line li").count() == 1
            last = page.locator("#fives-line li").last.inner_text()
            assert f"{laid.count}" in last and (not laid.points or f"+{laid.points}" in last)
        elif "draw" in entry:
            for token in entry["draw"].split():
                page.click("#fives-draw")
                page.click(f'#tile-grid .tile[data-tile="{tile_name(token)}"]')
        else:
            page.click("#fives-pass")
    page.click("#fives-fish")  # a slip: the undo goes back to the line of play
    page.click("#fives-undo")
    assert page.locator("#fives-hands").is_hidden() and page.locator("#fives-draw").is_visible()
    page.click("#fives-domino" if deal["result"] == "domino" else "#fives-fish")
    for seat, hand in (deal.get("hands") or {}).items():
        page.click(f'#fives-hand-tabs [data-seat="{seat}"]')
        for token in hand.split():
            page.click(f'#tile-grid .tile[data-tile="{tile_name(token)}"]')


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_referee_taps_a_muggins_deal_on_the_fives_board(
    browser: Any, live_server: Any, tmp_path: Path, lang: str
) -> None:
    rules = make_fives_rules("muggins")
    deal = play_fives_match(rules, random.Random(SEED))[0]
    assert any("draw" in e for e in deal["play"]) and any(e.get("end") == "U" for e in deal["play"])
    expected = FivesJudge(rules).fold([deal]).state.totals

    referee = make_user("referee", roles.REFEREE)
    seats = {"N": make_player("Иванов"), "E": make_player("Петров")}
    match = services.create_match(user=referee, rules_preset="muggins", seats=seats,
                                  label="Пятёрка", table="3")  # fmt: skip
    context = browser.new_context(viewport=PHONE, locale=f"{lang}-RU" if lang == "ru" else "en-GB",
                                  has_touch=True)  # fmt: skip
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
        page.wait_for_selector("#fives-entry.js")
        tap_fives_deal(page, rules, deal)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, f"fives-entry-{lang}.png")
        with page.expect_navigation():
            page.click("#fives-save")
        assert not errors
        stored = Deal.objects.get(match=match)
        assert stored.verdict["ok"], stored.verdict
        assert Match.objects.get(pk=match.pk).totals == expected
        assert FivesJudge(rules).fold([stored.record]).state.totals == expected
        page_totals = {
            "N": int(page.inner_text('#protocol [data-total="0"]')),
            "E": int(page.inner_text('#protocol [data-total="1"]')),
        }
        assert page_totals == expected
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, f"fives-saved-{lang}.png")
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_points_only_deal_saved_offline_is_sent_once_when_the_network_is_back(
    browser: Any, live_server: Any
) -> None:
    rules = make_fives_rules("muggins")
    deal = {"result": "domino", "by": "N", "leader": "N", "hands": {"E": "6:6 5:4"},
            "scores": [{"seat": "N", "points": 10}, {"seat": "E", "points": 5}]}  # fmt: skip
    expected = FivesJudge(rules).fold([deal]).state.totals
    referee = make_user("referee", roles.REFEREE)
    match = services.create_match(user=referee, rules_preset="muggins")
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
        page.wait_for_selector("#fives-entry.js")
        page.click('[name=fives-mode][value="light"]')
        for seat, points in (("N", 10), ("E", 5)):
            page.click(f'#fives-seats [data-seat="{seat}"]')
            page.click(f'#fives-points .points-pick:text-is("{points}")')
        assert page.inner_text("#fives-totals").startswith("Итого: N 10 · E 5")
        page.click('#fives-seats [data-seat="N"]')
        page.click("#fives-domino")
        page.click('#fives-hand-tabs [data-seat="E"]')
        for tile in ("6:6", "5:4"):
            page.click(f'#tile-grid .tile[data-tile="{tile}"]')
        shot(page, "fives-light-ru.png")
        context.set_offline(True)
        page.click("#fives-save")
        page.wait_for_selector("#network-banner:not([hidden])")
        assert not Deal.objects.filter(match=match).exists()
        page.click("#fives-save")  # tapped again while offline: the same key
        context.set_offline(False)
        page.wait_for_selector("#protocol tr[data-n='1']", timeout=20000)
        assert not errors
        stored = Deal.objects.get(match=match)  # once
        assert stored.record == deal
        assert Match.objects.get(pk=match.pk).totals == expected
    finally:
        context.close()
