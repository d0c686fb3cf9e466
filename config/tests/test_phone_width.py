"""No page is wider than a 360 px phone: on the demo data, in Russian and English, as a
spectator, a referee and the organiser. A wide table scrolls inside its own box; the page
itself never scrolls sideways (it did on the tournament page, 383 px, the dashboard, 411 px,
the entries, 820 px, the organiser's round page, 715 px, and the referee's sheet, 389 px). The
list of matches is at most three screens tall (the chief's was 7,856 px). No select cuts the
words of its options (the setup's rules choices and the substitutes' players were cut).
Tie-breaks are shown by name, not by id (the dashboard showed «match_points, buchholz»).

Every page of the scoring side, as each role opens it on a 360×740 phone, also shows its main
action without scrolling (the referee's Save was 1,100 px down the sheet, the submit, confirm
and correction buttons below the protocol): it is on screen and nothing covers it."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from django.core.management import call_command

from scoring.models import Match
from tournaments.management.commands import seed_demo
from tournaments.models import PlayerRating, Season, Tournament

PHONE = {"width": 360, "height": 740}
#: every page of every role (a player is a spectator: the public pages, signed out), with the
#: demo's four events: {t} the Swiss pairs cup, {i} the individual, {k} the «Козёл» evening,
#: {f} the «Пятёрка» each for himself
PAGES = {
    None: ["/", "/login/", "/tournaments/{t}/", "/tournaments/{t}/standings/",
           "/tournaments/{t}/standings/?scope=players", "/tournaments/{t}/crosstable/",
           "/tournaments/{t}/rounds/4/", "/tournaments/{t}/hall/",
           "/tournaments/{i}/", "/tournaments/{i}/standings/", "/tournaments/{i}/crosstable/",
           "/tournaments/{k}/", "/tournaments/{k}/crosstable/",
           # the «Пятёрка» evening: each for himself, tables of four and three
           "/tournaments/{f}/", "/tournaments/{f}/standings/", "/tournaments/{f}/crosstable/",
           "/tournaments/{f}/rounds/3/", "/tournaments/{f}/hall/",
           # ratings and the season across the demo's evenings
           "/ratings/", "/ratings/players/{p}/", "/players/{p}/", "/seasons/", "/seasons/{s}/"],
    "referee": ["/matches/", "/matches/new/", "/matches/{m}/", "/matches/{m}/history/",
                "/matches/{fm}/", "/account/", "/account/password/", "/manage/{t}/"],
    "chief": ["/manage/", "/matches/", "/matches/{w}/confirm/", "/matches/{w}/history/",
              "/manage/{t}/discipline/", "/manage/{f}/discipline/", "/account/"],
    "organiser": ["/manage/", "/manage/new/", "/manage/import/", "/manage/{t}/",
                  "/manage/{t}/entries/", "/manage/{t}/rounds/4/",
                  "/manage/{t}/rounds/4/print/", "/manage/{t}/discipline/",
                  "/manage/{t}/setup/", "/manage/{t}/audit/", "/manage/{i}/setup/",
                  "/manage/{k}/rounds/1/", "/manage/{f}/", "/manage/{f}/setup/",
                  "/manage/{f}/entries/", "/manage/{f}/rounds/3/", "/manage/{t}/substitutes/",
                  "/manage/{t}/roll-call/"],
}  # fmt: skip
#: pages the role may not open: the refusal page must fit too
REFUSED = {("referee", "/manage/{t}/")}
#: pages no taller than this on the phone: the list of matches was one flat list of every match
#: (7,856 px for the chief on the demo; grouped by event and round, 1,563)
TALLEST = {"/matches/": 3 * PHONE["height"]}
#: the main action of a page, which must be on the page and reachable within the phone's width
MAIN = {
    "/login/": "main form button[type=submit]", "/manage/new/": "#save-setup",
    "/manage/{t}/setup/": "#save-setup", "/manage/{f}/setup/": "#save-setup",
    "/manage/{t}/rounds/4/": "#finish-form button", "/manage/{t}/entries/": "#entry-form button",
    "/matches/{w}/confirm/": "#confirm-form button", "/manage/": "#desk, .cards",
    "/manage/{t}/": "#pair-form button, .button, a",
}  # fmt: skip
REACHABLE = """(selector) => {
    const e = document.querySelector(selector);
    if (!e) return "missing";
    e.scrollIntoView({block: "center"});
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return "hidden";
    if (r.left < 0 || r.right > innerWidth) return `outside: ${r.left}–${r.right}`;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !top || e.contains(top) || top.contains(e) ? "" : `covered by ${top.tagName}`;
}"""
#: options whose words a closed select cuts off on the phone («выигравшие пишут очки проигр»):
#: each option's text measured in the select's own font against the room beside its arrow
CUT = """() => {
    const pen = document.createElement('canvas').getContext('2d');
    const cut = [];
    for (const select of document.querySelectorAll('select')) {
        if (!select.offsetParent) continue;
        const style = getComputedStyle(select);
        pen.font = style.font;
        const room = select.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight) - 20;
        for (const option of select.options)
            if (pen.measureText(option.text).width > room)
                cut.push(select.name + ': ' + option.text);
    }
    return cut.slice(0, 5); }"""
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
    w = Match.objects.get(pairing__round__tournament=t, status="submitted")
    i = Tournament.objects.get(name=seed_demo.INDIVIDUAL_NAME)
    k = Tournament.objects.get(name=seed_demo.KOZEL_NAME)
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
                url = path.format(t=t.pk, m=m.pk, f=f.pk, fm=fm.pk, p=rated, s=season, w=w.pk,
                                  i=i.pk, k=k.pk)  # fmt: skip
                status = 403 if (user, path) in REFUSED else 200
                assert page.goto(live_server.url + url).status == status, (user, url)
                assert page.locator("html").get_attribute("lang") == language
                if "head_to_head" in page.locator("body").inner_text():
                    problems.append(f"{user} {url}: a tie-break shown by its id")
                if path in MAIN:
                    reach = page.evaluate(REACHABLE, MAIN[path])
                    if reach:
                        problems.append(f"{user} {url}: {MAIN[path]} {reach}")
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > PHONE["width"] or page.evaluate(WIDER):
                    problems.append(f"{user} {url}: {width} px {page.evaluate(WIDER)}")
                cut = page.evaluate(CUT)
                if cut:
                    problems.append(f"{user} {url}: options cut off {cut}")
                height = page.evaluate("document.documentElement.scrollHeight")
                if path in TALLEST and height > TALLEST[path]:
                    problems.append(f"{user} {url}: {height} px tall")
        finally:
            context.close()
    assert problems == []


#: (user, page, its main action) of the scoring side; {m} the referee's table in play, {d} his
#: table not started, {f} a table he finished, {fives} a fives match of his in play, {s} the
#: table waiting for confirmation (referee3's, with the captain's PIN), {c} a confirmed table
SCORING = [
    ("referee", "/matches/", 'a[href="/matches/new/"]'),
    ("referee", "/matches/new/", 'button[form="match-form"]'),
    ("referee", "/matches/{d}/", "#save-deal"),
    ("referee", "/matches/{m}/", "#save-deal"),
    ("referee", "/matches/{f}/", "#submit-link"),
    ("referee", "/matches/{f}/submit/", "#submit-form button"),
    ("referee", "/matches/{m}/history/", ".history li"),
    ("referee", "/matches/{fives}/", "#fives-totals"),
    ("referee3", "/matches/{s}/confirm/", "#pin-form button"),
    ("chief", "/matches/", 'a[href="/matches/new/"]'),
    ("chief", "/matches/new/", 'button[form="match-form"]'),
    ("chief", "/matches/{s}/", "#confirm-link"),
    ("chief", "/matches/{s}/confirm/", "#confirm-form button"),
    ("chief", "/matches/{c}/", "#correct-link"),
    ("chief", "/matches/{c}/correct/", "#save-correction"),
    ("chief", "/matches/{c}/history/", ".history li"),
    ("chief", "/matches/{d}/transcribe/", "#save-paper"),
    ("chief", "/matches/{m}/", "#save-deal"),
]
IN_SIGHT = """(selector) => {
    const e = document.querySelector(selector);
    if (!e) return "missing";
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return "hidden";
    if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight)
        return `off screen: ${Math.round(r.left)},${Math.round(r.top)}`
            + `–${Math.round(r.right)},${Math.round(r.bottom)}`;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return e.contains(top) ? "" : `covered by ${top && top.tagName}.${top && top.className}`;
}"""


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_every_scoring_page_fits_a_phone_with_its_main_action_in_sight(
    browser: Any, live_server: Any, language: str
) -> None:
    from django.contrib.auth import get_user_model

    from config.tests.test_guide_screenshots import finish_match
    from scoring import services

    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    round4 = Match.objects.filter(pairing__round__tournament=t, pairing__round__number=4)
    mine = round4.filter(referee__username="referee")
    referee = get_user_model().objects.get(username="referee")
    finished = services.create_match(user=referee, referee=referee, label="Товарищеская")
    finish_match(finished, referee, random.Random(3))
    ids = {
        "d": mine.get(status="draft").pk, "m": mine.get(status="in_play").pk,
        "f": finished.pk, "s": round4.get(status="submitted").pk,
        "c": round4.filter(status="confirmed").first().pk,
        "fives": services.create_match(user=referee, referee=referee, rules_preset="muggins",
                                       label="Пятёрка").pk,
    }  # fmt: skip
    problems = []
    for user in dict.fromkeys(u for u, _p, _a in SCORING):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])  # fmt: skip
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/login/")
            page.fill("input[name=username]", user)
            page.fill("input[name=password]", seed_demo.DEMO_PASSWORD)
            with page.expect_navigation():
                page.press("input[name=password]", "Enter")
            for who, path, action in SCORING:
                if who != user:
                    continue
                url = path.format(**ids)
                assert page.goto(live_server.url + url).status == 200, (user, url)
                page.wait_for_load_state("networkidle")
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > PHONE["width"] or page.evaluate(WIDER):
                    problems.append(f"{user} {url}: {width} px {page.evaluate(WIDER)}")
                sight = page.evaluate(IN_SIGHT, action)
                if sight:
                    problems.append(f"{user} {url}: {action} {sight}")
        finally:
            context.close()
    assert problems == []
