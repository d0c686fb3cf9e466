"""A player's page found by its QR code on the printed table list, in a phone's browser against
a real ASGI server (uvicorn, two processes, Redis): the organiser pairs the next round (a draft:
the page still waits) and publishes it through the services in another process, and the page
shows the new table and seats within a few seconds, told over the WebSocket, without a reload."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from scoring.views.printing import qr_svg
from tournaments.live import flush
from tournaments.models import PairingEntry, Round
from tournaments.rounds import services
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import TournamentFactory
from tournaments.tests.live.test_browser_push import PHONE, shot


def link_from_the_printed_list(organiser: Any, tournament: Any, number: int, entry: Any) -> str:
    """The personal link printed for ``entry`` on round ``number``'s table list, checked to be
    what its QR code there encodes (the code is drawn from the link: the same link draws the
    same code)."""
    client = Client()
    client.force_login(organiser)
    html = client.get(f"/manage/{tournament.pk}/rounds/{number}/print/").content.decode()
    cards = html.split('id="personal-links"', 1)[1].split("<li>")[1:]
    card = next(c for c in cards if f"<strong>{entry.name}</strong>" in c)
    url = re.search(r'<span class="url">([^<]+)</span>', card).group(1)  # type: ignore[union-attr]
    assert qr_svg(url) in card  # the QR code printed next to the name is this link
    return url


@pytest.mark.django_db(transaction=True)
def test_a_players_page_found_by_its_qr_link_shows_the_next_round_when_it_is_published(
    browser: Any, asgi_server: Any, tmp_path: Path
) -> None:
    organiser = make_user("org_qr", "Organiser")
    tournament = TournamentFactory(name="Кубок по ссылке", rounds=3, public=True)
    tournament.organisers.add(organiser)
    e = add_pairs(tournament, 4)
    round_1 = play_round(tournament, 1, [(e[0], e[1], (120, 80)), (e[2], e[3], (90, 110))])
    services.finish_round(organiser, round_1.pk)
    url = link_from_the_printed_list(organiser, tournament, 1, e[0])
    path = url.split("://", 1)[1].split("/", 1)[1]
    assert path == f"p/{e[0].token}/"
    errors: list[str] = []
    phone = browser.new_context(viewport=PHONE, locale="ru-RU")  # no account
    try:
        page = phone.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{asgi_server.url}/{path}")
        page.wait_for_selector("#personal-box[data-live-state='push']", timeout=10_000)
        assert page.get_attribute("#personal-table", "data-round") == ""
        assert "Пара 2" in page.inner_text("#personal-rounds")  # round 1 beaten 120:80
        assert page.inner_text("#personal-rank") == "1"

        # the next round paired: a draft, announced to the staff only; the page stays as it is
        round_2 = services.start_pairing(organiser, tournament.pk)
        round_2.refresh_from_db()
        assert round_2.status == Round.Status.PAIRED
        assert flush(3)
        time.sleep(1.5)
        assert page.get_attribute("#personal-table", "data-round") == ""
        place = PairingEntry.objects.select_related("pairing").get(round=round_2, entry=e[0])

        published = time.time()
        services.publish(organiser, round_2.pk)
        assert flush(3)
        page.wait_for_selector("#personal-table[data-round='2']", timeout=5_000)
        swapped = float(page.get_attribute("#personal-box", "data-refreshed-at") or 0) / 1000
        assert 0 < swapped - published < 5.0, swapped - published
        assert page.get_attribute("#personal-table", "data-table") == str(place.pairing.table)
        opponents = page.inner_text("#personal-opponents")
        others = PairingEntry.objects.filter(pairing=place.pairing).exclude(side=place.side)
        assert all(o.entry.name in opponents for o in others)
        assert page.evaluate("location.pathname") == f"/{path}"  # no reload
        assert page.get_attribute("#personal-box", "data-live-state") == "push"
        # the round's clock started: the page shows it and counts down (clock.js starts the
        # clock that came with the swapped part)
        from tournaments.rounds.clock import start_clock

        start_clock(organiser, round_2.pk, 30)
        assert flush(3)
        page.wait_for_selector("#personal-clock", timeout=5_000)
        first = page.inner_text("#personal-clock .clock-time")
        page.wait_for_function(
            "(t) => document.querySelector('#personal-clock .clock-time').textContent !== t",
            arg=first, timeout=3_000)  # fmt: skip
        assert page.inner_text("#personal-clock .clock-time").startswith(("29:", "30:"))
        # a 360 px phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, tmp_path, "personal-page-pushed-360-ru.png")
    finally:
        phone.close()
    assert errors == [], errors
