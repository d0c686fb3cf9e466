"""No critical or serious accessibility violation on any page, by axe-core (config/tests/axe.py).

Every page of every role on the demo data (a spectator signed out, the referee, the chief
referee, the organiser and the site's administrator), in Russian and English, on a 360×740 phone
and a 1366×768 laptop, and the pages' working states: the referee's sheet with a tile chosen and
a refused deal, the fives board with a tile laid, the chief's correction editor with a deal open
and a tile moved, the paper-protocol transcription with a row typed. The failure lists each rule
with its impact, how many elements and pages, and the first selectors.

Keyboard alone records a deal on the referee's sheet (Tab, Enter, Space, arrows): nothing on the
sheet needs a pointer."""

from __future__ import annotations

import os
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from config.tests.axe import violations
from config.tests.test_guide_screenshots import finish_match
from scoring import services
from scoring.models import Match
from tournaments.management.commands import seed_demo
from tournaments.models import PlayerRating, Season, Tournament

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1366, "height": 768}}
#: every page of every role; {t} the Swiss pairs cup, {i} the individual, {k} «Козёл», {f} the
#: «Пятёрка» evening, {m} the referee's table in play, {d} his table not started, {fin} a table
#: he finished, {fives} a fives match of his, {tel} a «Телефон» match of his, {s} a table waiting
#: for confirmation, {c} a confirmed table, {fc} a confirmed table of the «Пятёрка» evening, {p} a
#: rated player, {season} the demo season
PAGES = {
    None: ["/", "/login/", "/tournaments/{t}/", "/tournaments/{t}/standings/",
           "/tournaments/{t}/standings/?scope=players", "/tournaments/{t}/crosstable/",
           "/tournaments/{t}/rounds/4/", "/tournaments/{t}/hall/",
           "/tournaments/{i}/", "/tournaments/{i}/standings/", "/tournaments/{i}/crosstable/",
           "/tournaments/{k}/", "/tournaments/{k}/crosstable/",
           "/tournaments/{f}/", "/tournaments/{f}/standings/", "/tournaments/{f}/crosstable/",
           "/tournaments/{f}/rounds/3/", "/tournaments/{f}/hall/",
           "/ratings/", "/ratings/players/{p}/", "/players/{p}/", "/seasons/",
           "/seasons/{season}/", "/p/{token}/", "/tournaments/{t}/categories/",
           "/tournaments/{t}/clubs/", "/tournaments/{t}/prizes/"],
    "referee": ["/matches/", "/matches/new/", "/matches/{d}/", "/matches/{m}/",
                "/matches/{fin}/", "/matches/{fin}/submit/", "/matches/{m}/history/",
                "/matches/{fives}/", "/matches/{tel}/", "/account/", "/account/password/",
                "/manage/{t}/"],
    "referee3": ["/matches/{s}/confirm/"],
    "chief": ["/manage/", "/matches/", "/matches/new/", "/matches/{s}/", "/matches/{s}/confirm/",
              "/matches/{c}/", "/matches/{c}/correct/", "/matches/{c}/history/",
              "/matches/{fc}/correct/",
              "/matches/{d}/transcribe/", "/manage/{t}/discipline/", "/manage/{f}/discipline/",
              "/account/"],
    "organiser": ["/manage/", "/manage/new/", "/manage/import/", "/manage/{t}/",
                  "/manage/{t}/entries/", "/manage/{t}/rounds/4/",
                  "/manage/{t}/rounds/4/print/", "/manage/{t}/discipline/",
                  "/manage/{t}/setup/", "/manage/{t}/audit/", "/manage/{i}/setup/",
                  "/manage/{k}/rounds/1/", "/manage/{f}/", "/manage/{f}/setup/",
                  "/manage/{f}/entries/", "/manage/{f}/rounds/3/", "/manage/{t}/roll-call/",
                  "/manage/{t}/entries/{e}/", "/manage/{t}/prizes/", "/manage/{t}/stages/",
                  "/registry/players/{p}/", "/registry/players/{p}/merge/"],
    "admin": ["/admin/", "/admin/tournaments/tournament/", "/registry/ratings/import/"],
}  # fmt: skip
#: pages a role may not open: the refusal page is checked too
REFUSED = {("referee", "/manage/{t}/")}


def refused_deal(page: Any) -> None:
    """A tile chosen and a refused deal: a domino by N with one tile in E's hand only."""
    page.click('.result-choice input[value="domino"]')
    page.click('.by-choice input[value="N"]')
    page.click('.seat-tab[data-seat="E"]')
    page.click('#tile-grid .tile[data-tile="6:6"]')
    page.wait_for_selector("#verdict .verdict:not(.ok)")


def fives_tile(page: Any) -> None:
    page.locator("#tile-grid .tile:not([disabled])").first.click()
    page.wait_for_selector("#fives-line li")


def correction(page: Any) -> None:
    page.click('.pick[data-index="0"]')
    page.locator("#deal-editor .seat-tab:not([disabled])").first.click()
    page.locator("#deal-editor #tile-grid .tile:not([disabled])").first.click()
    page.wait_for_selector("#review tr.deal")


def telefon_doubles(page: Any) -> None:
    """«Телефон»: a lead, then the several-doubles button pressed."""
    page.locator("#tile-grid .tile:not([disabled])").first.click()
    page.wait_for_selector("#fives-multi:not([hidden])")
    page.click("#fives-multi")


def fives_moves(page: Any) -> None:
    """The move-list editor: a deal's moves opened, a move's tile field focused (the grid)."""
    page.click('.moves-pick[data-index="0"]')
    page.wait_for_selector("#move-editor")
    page.click('[name="e1-tile"]')
    page.wait_for_selector("#move-tiles:not([hidden])")


def paper_row(page: Any) -> None:
    page.focus('select[name="row-0-result"]')
    for key in ("d", "Tab", "n", "Tab", "1", "2", "0", "Tab", "Tab", "6", "-", "6"):
        page.keyboard.press(key)
    page.keyboard.press("Tab")
    page.wait_for_selector("tr.paper-row td.check :is(.check-ok, .check-bad, span, p)")


#: what is done on a page before axe looks again (its working state)
STATES: dict[str, Callable[[Any], None]] = {
    "/matches/{d}/": refused_deal,
    "/matches/{fives}/": fives_tile,
    "/matches/{c}/correct/": correction,
    "/matches/{tel}/": telefon_doubles,
    "/matches/{fc}/correct/": fives_moves,
    "/matches/{d}/transcribe/": paper_row,
}


def demo_ids() -> dict[str, Any]:
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    round4 = Match.objects.filter(pairing__round__tournament=t, pairing__round__number=4)
    mine = round4.filter(referee__username="referee")
    users = get_user_model().objects
    referee = users.get(username="referee")
    finished = services.create_match(user=referee, referee=referee, label="Товарищеская")
    finish_match(finished, referee, random.Random(3))
    users.create_superuser("admin", "admin@example.org", seed_demo.DEMO_PASSWORD)
    return {
        "t": t.pk, "i": Tournament.objects.get(name=seed_demo.INDIVIDUAL_NAME).pk,
        "k": Tournament.objects.get(name=seed_demo.KOZEL_NAME).pk,
        "f": Tournament.objects.get(name=seed_demo.FIVES_NAME).pk,
        "d": mine.get(status="draft").pk, "m": mine.get(status="in_play").pk,
        "fin": finished.pk, "s": round4.get(status="submitted").pk,
        "c": round4.filter(status="confirmed").first().pk,  # type: ignore[union-attr]
        "fives": services.create_match(user=referee, referee=referee, rules_preset="muggins",
                                       label="Пятёрка").pk,
        "tel": services.create_match(user=referee, referee=referee, rules_preset="telefon",
                                     label="Телефон").pk,
        "fc": Match.objects.filter(pairing__round__tournament__name=seed_demo.FIVES_NAME,
                                   status="confirmed").order_by("pk").first().pk,  # type: ignore[union-attr]
        "p": PlayerRating.objects.order_by("-matches", "pk").values_list("player_id",
                                                                         flat=True)[0],
        "season": Season.objects.get(name=seed_demo.SEASON_NAME).pk,
        # an entry at a table of round 4, in play: its personal page and its organiser's page
        "e": (place := mine.get(status="in_play").pairing.places.first()).entry_id,  # type: ignore[union-attr]
        "token": place.entry.token,  # type: ignore[union-attr]
    }  # fmt: skip


def open_as(browser: Any, base: str, user: str | None, lang: str, viewport: str) -> Any:
    # bypass_csp: axe is injected as an inline script, which the site's CSP rightly forbids
    context = browser.new_context(viewport=VIEWPORTS[viewport], bypass_csp=True,
                                  has_touch=viewport == "phone")  # fmt: skip
    context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    if user:
        page.goto(f"{base}/login/")
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", seed_demo.DEMO_PASSWORD)
        with page.expect_navigation():
            page.press("input[name=password]", "Enter")
    return page


def report(found: dict[str, dict[str, Any]]) -> str:
    lines = []
    for rule, v in sorted(found.items(), key=lambda kv: (kv[1]["impact"], -len(kv[1]["nodes"]))):
        first = "; ".join(dict.fromkeys(v["nodes"]))
        lines.append(
            f"{v['impact']} {rule}: {len(v['nodes'])} elements on {len(v['pages'])} "
            f"page states ({v['help']}), e.g. {sorted(v['pages'])[:3]}: {first[:300]}"
        )
    return "\n".join(lines)


@pytest.mark.django_db(transaction=True)
def test_no_critical_or_serious_accessibility_violation_on_any_page(
    browser: Any, live_server: Any, axe_source: str
) -> None:
    ids = demo_ids()
    found: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"impact": "", "help": "", "nodes": [], "pages": set()}
    )
    states = 0
    for lang in ("ru", "en"):
        for viewport in VIEWPORTS:
            for user, paths in PAGES.items():
                page = open_as(browser, live_server.url, user, lang, viewport)
                try:
                    for path in paths:
                        url = path.format(**ids)
                        status = 403 if (user, path) in REFUSED else 200
                        assert page.goto(live_server.url + url).status == status, (user, url)
                        actions = [None, STATES.get(path)] if path in STATES else [None]
                        for action in actions:
                            if action:
                                action(page)
                            states += 1
                            where = f"{user or 'anonymous'} {lang} {viewport} {url}" + (
                                f" ({action.__name__})" if action else ""
                            )
                            if action and os.environ.get("A11Y_SHOTS"):  # a folder: pictures
                                name = f"{action.__name__}-{lang}-{viewport}.png"
                                page.screenshot(path=os.path.join(os.environ["A11Y_SHOTS"], name))
                            for v in violations(page, axe_source):
                                entry = found[v["id"]]
                                entry.update(impact=v["impact"], help=v["help"])
                                entry["nodes"].extend(v["targets"])
                                entry["pages"].add(where)
                finally:
                    page.context.close()
    figures = f"axe-core on {states} page states:\n{report(found) or 'no violations'}\n"
    if os.environ.get("A11Y_REPORT"):  # the figures, for a note (A11Y_REPORT=/some/file)
        with open(os.environ["A11Y_REPORT"], "w", encoding="utf-8") as out:
            out.write(figures)
    assert not found, report(found)


FOCUSED = "(selector) => !!document.activeElement && document.activeElement.matches(selector)"
#: whether the element is before the focus in the page (then Shift+Tab goes back to it)
BEHIND = """(selector) => { const e = document.querySelector(selector), f = document.activeElement;
    return !!(e && f && f !== document.body
              && (f.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING)); }"""


def tab_to(page: Any, selector: str, limit: int = 250) -> None:
    """Press Tab (Shift+Tab when it is behind) until the focus is on ``selector``, as a
    keyboard user walks the page."""
    key = "Shift+Tab" if page.evaluate(BEHIND, selector) else "Tab"
    for _ in range(limit):
        if page.evaluate(FOCUSED, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reaches {selector}")


def choose_radio(page: Any, group: str, value: str) -> None:
    """Tab into a radio group, then the arrow keys until ``value`` is checked."""
    tab_to(page, f"{group} input[type=radio]")
    page.keyboard.press("Space")
    for _ in range(8):
        if page.evaluate(FOCUSED, f'{group} input[value="{value}"]:checked'):
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{value} never checked in {group}")


@pytest.mark.django_db(transaction=True)
def test_keyboard_alone_records_a_deal_on_the_referee_sheet(browser: Any, live_server: Any) -> None:
    from accounts import roles
    from rules.simulate import play_match
    from scoring.tests.helpers import make_user

    referee = make_user("referee", roles.REFEREE)
    referee.set_password(seed_demo.DEMO_PASSWORD)
    referee.save()
    match = services.create_match(user=referee, referee=referee, label="Клавиатура")
    deal = next(d for d in play_match(match.get_rules(), random.Random(5))
                if d["result"] == "domino")  # fmt: skip
    page = open_as(browser, live_server.url, "referee", "en", "phone")
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.locator("body").focus()
        choose_radio(page, ".result-choice", "domino")
        choose_radio(page, ".by-choice", deal["by"])
        for seat, hand in (deal.get("hands") or {}).items():
            tab_to(page, f'.seat-tab[data-seat="{seat}"]')
            page.keyboard.press("Enter")
            for token in hand.split():
                a, b = sorted((int(x) for x in token.split(":")), reverse=True)
                tab_to(page, f'#tile-grid .tile[data-tile="{a}:{b}"]')
                page.keyboard.press("Space")
        page.wait_for_selector("#verdict .verdict.ok")
        tab_to(page, "#save-deal")
        page.keyboard.press("Enter")
        page.wait_for_selector('#protocol tr[data-n="1"]')
        saved = Match.objects.get(pk=match.pk).deals.get()
        assert saved.record["result"] == "domino" and saved.record["by"] == deal["by"]
    finally:
        page.context.close()
