"""In a real browser with the Content-Security-Policy on: the referee's sheet (the tile picker
shows its verdict), the live standings, the organiser's round page, the account page and the API
docs (Swagger UI and Redoc) load and work, and the browser reports no violation of the policy.

Redoc's sidebar asked Redocly's CDN for their logo (``cdn.redoc.ly``, no option turns it off),
which the policy refused on every visit; the page now drops the logo before it is asked for. No
page asks for anything that is not there (every page asked for /favicon.ico and got a 404)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts import roles
from scoring import services
from scoring.tests.helpers import make_player
from tournaments.models import Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

DESKTOP = {"width": 1280, "height": 900}
#: every violation the page reports, from the moment it starts
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " +
                    (e.sourceFile || "") + ":" + (e.lineNumber || ""));
});
"""


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "s3cret-pass")
    with page.expect_navigation():
        page.click("main button[type=submit]")


@pytest.mark.django_db(transaction=True)
def test_the_main_pages_work_and_break_no_rule_of_the_policy(
    browser: Any, live_server: Any
) -> None:
    boss = make_user("boss", roles.ORGANISER, roles.CHIEF_REFEREE, roles.REFEREE)
    User.objects.filter(pk=boss.pk).update(is_staff=True, is_superuser=True)
    tournament = Tournament.objects.create(name="Кубок", rounds=3, public=True)
    tournament.organisers.add(boss)
    a, b, c, d = add_pairs(tournament, 4)
    play_round(tournament, 1, [(a, b, (101, 40)), (c, d, None)], status=Round.Status.PUBLISHED)
    seats = {s: make_player(n) for s, n in zip("NESW", ("Иванов", "Петров", "Сидоров",
                                                       "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=boss, referee=boss, seats=seats, label="Вечер", table="2")

    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    context.add_init_script(LISTEN)
    try:
        page = context.new_page()
        console: list[str] = []
        errors: list[str] = []
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        failed: list[str] = []
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
                else None)  # fmt: skip
        outside: list[str] = []
        page.on("request", lambda r: outside.append(r.url)
                if not r.url.startswith((live_server.url, "data:", "blob:")) else None)
        violations: dict[str, list[str]] = {}

        def visit(path: str, ready: str) -> None:
            page.goto(f"{live_server.url}{path}")
            page.wait_for_selector(ready, timeout=20_000)
            page.wait_for_timeout(300)  # reports are queued as tasks
            found = page.evaluate("window.__csp")
            if found:
                violations[path] = found

        log_in(page, live_server.url, "boss")

        visit(f"/matches/{match.pk}/", "#tile-grid .tile")
        page.click('.result-choice input[value="fish"]')
        for seat, hand in (("N", "6:6 5:1"), ("E", "4:0"), ("S", "3:3"), ("W", "2:1 0:0")):
            page.click(f'.seat-tab[data-seat="{seat}"]')
            for tile in hand.split():
                page.click(f'#tile-grid .tile[data-tile="{tile}"]')
        page.wait_for_selector("#verdict .verdict", timeout=20_000)
        assert page.inner_text("#verdict").strip()
        assert not page.evaluate("window.__csp")

        visit(f"/tournaments/{tournament.pk}/standings/", "#results-box table")
        visit(f"/manage/{tournament.pk}/rounds/1/", "#tables")
        visit(f"/manage/{tournament.pk}/", "#pair-form")
        visit(f"/matches/{match.pk}/print/", ".sheet")
        assert page.is_visible("button[data-print]")  # shown by site.js, no inline onclick
        visit(f"/tournaments/{tournament.pk}/hall/", "body")
        visit("/account/", "#tokens")
        visit("/api/docs/", ".swagger-ui .opblock")
        assert "Domino" in page.inner_text(".swagger-ui .info")
        visit("/api/redoc/", ".api-content h1")
        assert "Domino" in page.inner_text(".api-content h1")
        assert "Redocly" in page.inner_text(".menu-content")  # the sidebar, without the logo
        visit("/admin/", "#content-main")

        assert violations == {}
        assert [m for m in console if "Content Security Policy" in m] == []
        assert (outside, failed) == ([], [])
        assert not errors
    finally:
        context.close()
