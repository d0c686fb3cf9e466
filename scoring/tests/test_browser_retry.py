"""In a real browser at 360 px: the referee's phone never stores a deal twice.

The server stores the deal but its answer is lost (route interception lets the request reach the
server, then aborts the response): tapping Save again, or reloading the page and tapping Save,
sends the deal with the key it was first sent with, and the protocol holds it once. The network
drops and comes back: the kept deal is sent once. Each time the message saying what happened is
on the screen of a 360 px phone. A «Козёл» match, where the expected leader does not refuse a
second copy by chance.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts import roles
from rules import make_rules
from rules.simulate import play_match
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in, tap_deal

#: the answer of the page's form post (not the preview)
RECORD_URL = "**/matches/*/deals/"
NO_ANSWER = "#network-banner.warn:has-text('Нет ответа сервера')"
TAPS = 3


@pytest.fixture
def kozel(db: Any) -> tuple[Match, list[dict[str, Any]]]:
    referee = make_user("referee", roles.REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=referee, referee=referee, seats=seats,
                                  rules_preset="kozel", label="Клубный вечер")  # fmt: skip
    # The tile picker enters the result, who went out and the hands (not the lead).
    deals = [{k: d[k] for k in ("result", "by", "hands") if k in d}
             for d in play_match(make_rules("kozel"), random.Random(1), style="tiles")[:2]]
    return match, deals


@pytest.fixture
def phone(browser: Any, live_server: Any, kozel: Any) -> Any:
    match, _deals = kozel
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
    yield page
    context.close()
    assert not errors


def lose_answers(page: Any) -> list[int]:
    """Every save reaches the server, which stores it; the phone never sees the answer."""
    lost: list[int] = []

    def handler(route: Any) -> None:
        response = route.fetch()
        lost.append(response.status)
        route.abort("connectionreset")

    page.route(RECORD_URL, handler)
    return lost


def banner_is_on_screen(page: Any) -> str:
    """The message's text, after checking that a 360 px phone shows all of it."""
    banner = page.locator("#network-banner")
    assert banner.is_visible()
    box = banner.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert banner.evaluate("b => b.scrollWidth <= b.clientWidth")
    return banner.inner_text()


def save_until_answered(page: Any) -> str:
    """Tap Save as a referee would until the page gives an answer (ok or error)."""
    for _ in range(TAPS):
        page.click("#save-deal")
        page.wait_for_selector("#network-banner.ok, #network-banner.error")
        if page.locator("#network-banner.ok").count():
            break
    return page.inner_text("#network-banner")


def keys_of(match: Match) -> list[Any]:
    return list(Deal.objects.filter(match=match).order_by("n").values_list("client_id", flat=True))


@pytest.mark.django_db(transaction=True)
def test_a_lost_answer_then_save_again_stores_the_deal_once(phone, kozel):
    match, deals = kozel
    lost = lose_answers(phone)
    tap_deal(phone, deals[0])
    phone.wait_for_selector("#verdict .verdict.ok")
    phone.click("#save-deal")
    phone.wait_for_selector(NO_ANSWER)
    assert lost == [201] and Deal.objects.filter(match=match).count() == 1  # stored, unseen
    text = banner_is_on_screen(phone)
    assert "Нет ответа сервера" in text and "не запишет её дважды" in text

    phone.unroute(RECORD_URL)
    answer = save_until_answered(phone)
    assert "уже была записана" in answer
    banner_is_on_screen(phone)
    assert Deal.objects.filter(match=match).count() == 1
    assert phone.locator("#protocol tbody tr.deal").count() == 1

    # The next deal gets a key of its own.
    tap_deal(phone, deals[1])
    phone.wait_for_selector("#verdict .verdict.ok")
    assert "Раздача записана" in save_until_answered(phone)
    keys = keys_of(match)
    assert len(keys) == 2 and None not in keys and keys[0] != keys[1]
    assert phone.locator("#protocol tbody tr.deal").count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_lost_answer_then_reload_and_save_stores_the_deal_once(phone, kozel):
    match, deals = kozel
    lost = lose_answers(phone)
    tap_deal(phone, deals[0])
    phone.wait_for_selector("#verdict .verdict.ok")
    phone.click("#save-deal")
    phone.wait_for_selector(NO_ANSWER)
    assert Deal.objects.filter(match=match).count() == 1

    # The referee reloads: the kept deal is back in the form and sent again with its key (that
    # answer is lost too), then the referee taps Save.
    phone.reload()
    phone.wait_for_selector(NO_ANSWER)
    assert phone.is_checked('.result-choice input[value="domino"]')
    assert phone.is_checked(f'.by-choice input[value="{deals[0]["by"]}"]')
    assert len(lost) == 2 and Deal.objects.filter(match=match).count() == 1
    phone.unroute(RECORD_URL)
    assert "уже была записана" in save_until_answered(phone)
    assert Deal.objects.filter(match=match).count() == 1
    phone.reload()
    assert phone.locator("#protocol tbody tr.deal").count() == 1
    assert phone.locator("#network-banner.warn").count() == 0  # nothing is kept any more


@pytest.mark.django_db(transaction=True)
def test_offline_then_back_sends_the_kept_deal_once(phone, kozel):
    match, deals = kozel
    phone.context.set_offline(True)
    tap_deal(phone, deals[0])
    phone.click("#save-deal")
    phone.wait_for_selector("#network-banner.warn")
    text = banner_is_on_screen(phone)
    assert "Нет связи" in text and "не запишет её дважды" in text
    phone.click("#save-deal")  # tapping again while offline keeps the one deal
    phone.wait_for_timeout(300)
    assert Deal.objects.filter(match=match).count() == 0

    phone.context.set_offline(False)
    phone.wait_for_selector("#network-banner.ok")
    assert "Раздача записана" in banner_is_on_screen(phone)
    assert Deal.objects.filter(match=match).count() == 1
    assert phone.locator("#protocol tbody tr.deal").count() == 1
    tap_deal(phone, deals[1])
    phone.wait_for_selector("#verdict .verdict.ok")
    save_until_answered(phone)
    keys = keys_of(match)
    assert len(keys) == 2 and None not in keys and keys[0] != keys[1]
