"""The bracket page in a browser: a finished top-8 knock-out read by axe-core (no critical or
serious violation) in Russian and English on a phone and a laptop; its structure is headings and
lists a screen reader walks; printed, only the bracket and the ranking are left."""

from __future__ import annotations

from typing import Any

import pytest

from config.tests.axe import violations
from tournaments import rounds
from tournaments.models import Stage
from tournaments.tests.stages.test_knockout_stage import play_knockout

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1366, "height": 768}}


@pytest.mark.django_db(transaction=True)
def test_the_bracket_page_is_accessible_and_prints_the_bracket(
    swiss: Any, organiser: Any, browser: Any, live_server: Any, axe_source: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, swiss.pk)
    round_.refresh_from_db()
    stage = Stage.objects.get(tournament=swiss)
    play_knockout(organiser, round_, {e: n for n, e in enumerate(stage.seeds, 1)}, capture)
    url = f"{live_server.url}/tournaments/{swiss.pk}/bracket/"
    for lang, final in (("ru", "Финал"), ("en", "Final")):
        for viewport in VIEWPORTS.values():
            context = browser.new_context(viewport=viewport, bypass_csp=True)
            context.add_cookies([{"name": "django_language", "value": lang,
                                  "url": live_server.url}])  # fmt: skip
            page = context.new_page()
            try:
                assert page.goto(url).status == 200
                found = violations(page, axe_source)
                assert not found, [(v["id"], v["targets"][:3]) for v in found]
                # three levels, each a heading over a list of ties; each tie a list of sides
                assert page.get_by_role("heading", name=final, exact=True).count() == 1
                assert page.locator("section.bracket-level").count() == 3
                assert page.locator("ol.ties > li").count() == 4 + 2 + 2
                assert page.get_by_role("table").count() == 1  # the final ranking
                assert page.locator("#print-bracket").is_visible()  # site.js shows it
                page.emulate_media(media="print")
                assert not page.locator(".site-header").is_visible()
                assert page.locator("#bracket").is_visible()
                assert page.locator("#final-ranking").is_visible()
            finally:
                context.close()
