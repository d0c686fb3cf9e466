"""In a real browser at 360 px (Russian): a referee records a «Телефон» deal move by move on the
fives board (issue 27, RULES.md section 32) — the «дом» and its arms, two doubles laid in one
move, draws, each move's count and points, the losers' write-off in the running total — and the
saved deal is the engine's; axe-core finds nothing blocking on the board. A new match offers the
game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts import roles
from config.tests.axe import install, violations
from rules.fives import FivesJudge, FivesTable, make_fives_rules, parse_tile
from rules.fives.simulate import play_fives_match
from rules.tiles import NAMES
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in, tile_name

#: the first deal of this two-player «Телефон» match lays 2:2 and 6:6 in one move, opens the
#: «дом»'s arms, has draws, and N goes out with E left writing off (N 30, E 20)
SEED = 6


def tap_telefon_deal(page: Any, rules: Any, deal: dict[str, Any]) -> None:
    table = FivesTable(rules)
    for entry in deal["play"]:
        if "tiles" in entry:
            tiles = [parse_tile(t["tile"]) for t in entry["tiles"]]
            ends, count, scored = table.play_doubles(tiles, [t.get("end") for t in entry["tiles"]])
            page.click("#fives-multi")
            for tile, end in zip(tiles, ends, strict=True):
                page.click(f'#tile-grid .tile[data-tile="{NAMES[tile]}"]')
                if page.locator("#fives-end-choice .end-pick").count():
                    page.click(f'#fives-end-choice .end-pick[data-end="{end}"]')
            assert "Несколько дублей за один ход" in page.inner_text("#fives-message")
            page.click("#fives-multi-done")
            last = page.locator("#fives-line li").last.inner_text()
            assert " + " in last and f"сумма {count}" in last
            assert not scored or f"+{scored}" in last
        elif "tile" in entry:
            tile = parse_tile(entry["tile"])
            laid = table.play(tile, entry.get("end"))
            page.click(f'#tile-grid .tile[data-tile="{NAMES[tile]}"]')
            if laid.end is not None:
                page.click(f'#fives-end-choice .end-pick[data-end="{laid.end}"]')
            last = page.locator("#fives-line li").last.inner_text()
            assert f"сумма {laid.count}" in last and (not laid.points or f"+{laid.points}" in last)
        elif "draw" in entry:
            for token in entry["draw"].split():
                page.click("#fives-draw")
                page.click(f'#tile-grid .tile[data-tile="{tile_name(token)}"]')
        else:
            page.click("#fives-pass")
    page.click("#fives-domino" if deal["result"] == "domino" else "#fives-fish")
    for seat, hand in (deal.get("hands") or {}).items():
        page.click(f'#fives-hand-tabs [data-seat="{seat}"]')
        for token in hand.split():
            page.click(f'#tile-grid .tile[data-tile="{tile_name(token)}"]')


@pytest.mark.django_db(transaction=True)
def test_a_referee_records_a_telefon_deal_move_by_move_on_a_phone(
    browser: Any, live_server: Any
) -> None:
    rules = make_fives_rules("telefon")
    deal = play_fives_match(rules, random.Random(SEED))[0]
    assert any("tiles" in e for e in deal["play"]) and any("draw" in e for e in deal["play"])
    verdict = FivesJudge(rules).fold([deal])
    assert verdict.ok and verdict.deals[0].write_off == {"N": 5, "E": 0}
    totals = verdict.state.totals

    referee = make_user("referee", roles.REFEREE)
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True,
                                  bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # the new-match form offers «Телефон»
        make_player("Иванов"), make_player("Петров")
        log_in(page, live_server.url, "referee", "/matches/new/")
        assert page.locator('select[name="rules_preset"] option[value="telefon"]').count() == 1
        match = services.create_match(user=referee, rules_preset="telefon", label="Телефон")
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#fives-entry.js")
        assert page.locator("#fives-multi").is_hidden()  # not on the lead
        page.click(f'#fives-seats [data-seat="{deal["play"][0]["seat"]}"]')
        tap_telefon_deal(page, rules, deal)
        assert "«дом»" in page.inner_text("#fives-ends") or "дом" in page.inner_text("#fives-ends")
        shown = page.inner_text("#fives-totals")
        assert shown.startswith(f"Итого: N {totals['N']} · E {totals['E']}"), shown
        assert "(списывает N −5)" in shown
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        found = violations(page, install())
        assert not found, found
        page.screenshot(path="/tmp/telefon-board-ru.png", full_page=True)
        with page.expect_navigation():
            page.click("#fives-save")
        assert not errors
        stored = Deal.objects.get(match=match)
        assert stored.verdict["ok"], stored.verdict
        assert Match.objects.get(pk=match.pk).totals == totals
        assert stored.verdict["write_off"] == {"N": 5, "E": 0}
    finally:
        context.close()
