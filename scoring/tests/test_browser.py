"""In a real browser at 360 px: a referee taps a whole eight-deal sports match into the tile
picker, the page's totals equal the engine's, a deal saved while offline is sent once when the
network is back, the referee submits and the chief referee confirms."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from accounts import roles
from rules import Judge, make_rules
from rules.simulate import play_match
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_player, make_user

PHONE = {"width": 360, "height": 740}
#: a match with fishes and a redeal among its eight counted deals
SEED = 1
#: where the phone screenshots go (a temporary folder unless set)
SCREENSHOTS = os.environ.get("SCORESHEET_SCREENSHOTS")




def tile_name(token: str) -> str:
    a, b = (int(x) for x in re.split(r"[:\-|]", token.strip("[]")))
    return f"{max(a, b)}:{min(a, b)}"


def open_page(browser: Any, base: str, language: str, errors: list[str],
              **options: Any) -> Any:  # fmt: skip
    """A page in a new browser context (``options``: viewport, has_touch …) in ``language``,
    its script errors collected in ``errors``; its context is ``page.context``."""
    context = browser.new_context(**options)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def log_in(page: Any, base: str, username: str, next_url: str) -> None:
    page.goto(f"{base}/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "s3cret-pass")
    with page.expect_navigation():
        page.click("main button[type=submit]")


def tap_deal(page: Any, deal: dict[str, Any]) -> None:
    page.click(f'.result-choice input[value="{deal["result"]}"]')
    if deal.get("by") and deal["result"] != "redeal":
        page.click(f'.by-choice input[value="{deal["by"]}"]')
    for seat, hand in (deal.get("hands") or {}).items():
        page.click(f'.seat-tab[data-seat="{seat}"]')
        for token in hand.split():
            page.click(f'#tile-grid .tile[data-tile="{tile_name(token)}"]')
        assert page.input_value(f'input[name="hand_{seat}"]').split() == [
            tile_name(t) for t in hand.split()
        ]


def shot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_referee_records_a_sports_match_by_tiles_then_the_chief_confirms(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    rules = make_rules("sport")
    deals = play_match(rules, random.Random(SEED), style="tiles")
    expected = Judge(rules).fold(deals).state
    assert expected.finished and sum(d["result"] != "redeal" for d in deals) == 8
    assert {"fish", "redeal"} <= {d["result"] for d in deals}

    referee = make_user("referee", roles.REFEREE)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}
    match = services.create_match(user=chief, referee=referee, seats=seats,
                                  label="Клубный вечер", table="5")
    sheet_url = f"/matches/{match.pk}/"

    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "referee", sheet_url)
        assert page.locator("#expected-leader").inner_text() == "Заходит: N · Иванов"

        for i, deal in enumerate(deals, start=1):
            tap_deal(page, deal)
            page.wait_for_selector("#verdict .verdict.ok")
            if i == 2:
                shot(page, tmp_path, "sheet-entry-360.png")
            offline = i == 3
            if offline:
                # The network drops as the referee saves: the deal waits on the phone.
                context.set_offline(True)
            page.click("#save-deal")
            if offline:
                page.wait_for_selector("#network-banner.warn")
                assert "сохранена на этом телефоне" in page.inner_text("#network-banner")
                assert Deal.objects.filter(match=match).count() == 2
                context.set_offline(False)
            if i < len(deals):
                page.wait_for_selector(f'#protocol tr[data-n="{i}"]')
                next_leader = Match.objects.get(pk=match.pk).next_leader
                assert page.locator("#expected-leader").inner_text().startswith(
                    f"Заходит: {next_leader} · "
                )
            else:
                page.wait_for_selector("#submit-link")  # the finished match reloads the page

        assert not errors
        assert Deal.objects.filter(match=match).count() == len(deals)  # each stored once
        totals = {
            "NS": int(page.inner_text('#protocol [data-total="0"]')),
            "EW": int(page.inner_text('#protocol [data-total="1"]')),
        }
        assert totals == expected.totals
        assert page.locator("#protocol tbody tr.deal").count() == len(deals)
        shot(page, tmp_path, "sheet-finished-360.png")

        page.click("#submit-link")
        page.wait_for_selector("#submit-form")
        with page.expect_navigation():
            page.click("#submit-form button[type=submit]")
        assert Match.objects.get(pk=match.pk).status == Match.Status.SUBMITTED
        assert page.locator("#confirm-form").count() == 0  # the submitter cannot confirm

        page.click("#menu-button")  # on a phone «Выйти» is in the header's menu
        page.click("form[action='/logout/'] button")
        log_in(page, live_server.url, "chief", f"/matches/{match.pk}/confirm/")
        with page.expect_navigation():
            page.click("#confirm-form button[type=submit]")
        confirmed = Match.objects.get(pk=match.pk)
        assert confirmed.status == Match.Status.CONFIRMED
        assert confirmed.confirmed_by == chief
        assert "Протокол подтверждён" in page.inner_text(".messages")
        assert page.locator(".status-confirmed").count() == 1
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_sheet_fits_a_360px_phone_with_full_names(
    browser: Any, live_server: Any, language: str
) -> None:
    """The players' cards of the hands were as wide as a name made them: «Лебедев Юрий» beside
    «Алексеев Руслан» pushed the page 29 px past a 360 px screen (the demo's table 9). With
    names longer still, nothing on the sheet is wider than the phone; a name too long is cut."""
    referee = make_user("referee", roles.REFEREE)
    player_model = Match._meta.get_field("seat_n").related_model
    names = [("Алексеев-Константинопольский", "Руслан"), ("Лебедев", "Юрий Александрович"),
             ("Степанов", "Илья"), ("Морозов-Преображенский", "Дмитрий")]  # fmt: skip
    seats = {seat: player_model._default_manager.create(last_name=last, first_name=first)
             for seat, (last, first) in zip("NESW", names, strict=True)}  # fmt: skip
    match = services.create_match(user=referee, referee=referee, seats=seats,
                                  label="Кубок трёх клубов · тур 4", table="9")  # fmt: skip
    services.record_deal(match.pk, play_match(make_rules("sport"), random.Random(SEED))[0],
                         referee)  # fmt: skip
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    try:
        log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
        assert page.locator("html").get_attribute("lang") == language
        wider = page.evaluate("""() => {
            const width = document.documentElement.clientWidth + 0.5;
            return [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > width)
                .map(e => e.tagName + '.' + e.className); }""")
        assert wider == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # the hand's count agrees with its number, in each language's plural
        summary = '.seat-tab[data-seat="{}"] .seat-summary'
        page.click('.seat-tab[data-seat="E"]')
        for tile in ("6:6", "5:1"):
            page.click(f'#tile-grid .tile[data-tile="{tile}"]')
        page.click('.seat-tab[data-seat="W"]')
        page.click('#tile-grid .tile[data-tile="1:0"]')
        words = {"ru": ("2 · 18 очков", "1 · 1 очко"), "en": ("2 · 18 pips", "1 · 1 pip")}
        assert (page.inner_text(summary.format("E")),
                page.inner_text(summary.format("W"))) == words[language]  # fmt: skip
    finally:
        context.close()
