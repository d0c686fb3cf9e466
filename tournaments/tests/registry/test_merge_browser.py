"""In a real browser: the organiser finds the typo record from his player's record, checks both
side by side, merges them, and the player's public page then shows both tournaments' results
under one name (issue 29's «a merge of two players whose results then show under one name»)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.tests.test_browser import log_in
from tournaments.models import Player, Tournament
from tournaments.tests.registry.test_merge import spring, twins  # noqa: F401  (fixtures)


@pytest.mark.django_db(transaction=True)
def test_a_merge_in_the_browser_puts_both_results_under_one_name(
    browser: Any, live_server: Any, organiser: User, tournament: Tournament,
    twins: tuple[Player, Player],  # noqa: F811
) -> None:  # fmt: skip
    kept, dropped = twins
    Tournament.objects.update(public=True)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = context.new_page()
    base = live_server.url
    before = page.goto(f"{base}/players/{kept.pk}/")
    assert before is not None and "Весенний кубок" not in page.inner_text("main")
    log_in(page, base, organiser.username, f"/registry/players/{kept.pk}/")
    with page.expect_navigation():
        page.click("#merge-link")
    with page.expect_navigation():
        page.click(f'#candidates a[href*="other={dropped.pk}"]')
    compare = page.inner_text("#compare")
    assert "Сидоров Ивн" in compare and "Весенний кубок" in compare
    with page.expect_navigation():
        page.click("#merge-form button")
    assert "влит в эту карточку" in page.inner_text(".messages")
    page.goto(f"{base}/players/{kept.pk}/")
    results = page.inner_text("main")
    assert "Весенний кубок" in results and "Кубок «Дубль»" in results
    assert page.goto(f"{base}/players/{dropped.pk}/").status == 404
    context.close()
