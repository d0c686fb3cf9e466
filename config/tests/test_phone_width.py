"""No page is wider than a 360 px phone: on the demo data, in Russian and English, as a
spectator, a referee and the organiser. A wide table scrolls inside its own box; the page
itself never scrolls sideways (it did on the tournament page, 383 px, the dashboard, 411 px,
the entries, 820 px, the organiser's round page, 715 px, and the referee's sheet, 389 px).
Tie-breaks are shown by name, not by id (the dashboard showed «match_points, buchholz»)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.core.management import call_command

from scoring.models import Match
from tournaments.management.commands import seed_demo
from tournaments.models import PlayerRating, Season, Tournament

PHONE = {"width": 360, "height": 740}
PAGES = {
    None: ["/", "/tournaments/{t}/", "/tournaments/{t}/standings/",
           "/tournaments/{t}/crosstable/", "/tournaments/{t}/rounds/4/",
           # the «Пятёрка» evening: each for himself, tables of four and three
           "/tournaments/{f}/standings/", "/tournaments/{f}/crosstable/",
           "/tournaments/{f}/rounds/3/",
           # ratings and the season across the demo's evenings
           "/ratings/", "/ratings/players/{p}/", "/players/{p}/", "/seasons/", "/seasons/{s}/"],
    "referee": ["/matches/", "/matches/{m}/", "/matches/{m}/history/", "/matches/{fm}/"],
    "organiser": ["/manage/", "/manage/{t}/", "/manage/{t}/entries/", "/manage/{t}/rounds/4/",
                  "/manage/{t}/discipline/", "/manage/{t}/setup/", "/manage/{f}/rounds/3/"],
}  # fmt: skip
WIDER = """() => {
    const width = document.documentElement.clientWidth + 0.5;
    return [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > width && !e.closest('.scroll'))
        .map(e => e.tagName + '.' + e.className).slice(0, 5); }"""


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_no_page_is_wider_than_a_phone(browser: Any, live_server: Any, language: str) -> None:
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    m = Match.objects.filter(pairing__round__tournament=t, pairing__round__number=4,
                             referee__username="referee", status="in_play").first()  # fmt: skip
    assert m is not None
    f = Tournament.objects.get(name=seed_demo.FIVES_NAME)
    fm = Match.objects.filter(pairing__round__tournament=f, referee__username="referee").first()
    assert fm is not None
    rated = PlayerRating.objects.order_by("-matches", "pk").values_list("player_id", flat=True)[0]
    season = Season.objects.get(name=seed_demo.SEASON_NAME).pk
    problems = []
    for user, paths in PAGES.items():
        context = browser.new_context(viewport=PHONE)
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])  # fmt: skip
        page = context.new_page()
        try:
            if user:
                page.goto(f"{live_server.url}/login/")
                page.fill("input[name=username]", user)
                page.fill("input[name=password]", seed_demo.DEMO_PASSWORD)
                with page.expect_navigation():
                    page.press("input[name=password]", "Enter")
            for path in paths:
                url = path.format(t=t.pk, m=m.pk, f=f.pk, fm=fm.pk, p=rated, s=season)
                assert page.goto(live_server.url + url).status == 200, url
                assert page.locator("html").get_attribute("lang") == language
                # (the setup form's legend lists the ids the organiser types, with their names)
                if "head_to_head" in page.locator("main").inner_text() and "/setup/" not in url:
                    problems.append(f"{user} {url}: a tie-break shown by its id")
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > PHONE["width"] or page.evaluate(WIDER):
                    problems.append(f"{user} {url}: {width} px {page.evaluate(WIDER)}")
        finally:
            context.close()
    assert problems == []
