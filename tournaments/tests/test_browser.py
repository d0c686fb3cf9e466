"""In a real browser: an organiser sets up a tournament of 8 pairs, pairs round 1 (watching the
progress without a reload), swaps two entries between tables and publishes the round; the
public page then shows it.

The pairing task runs eagerly in the live server's thread here; the live-worker path is covered
by test_pairing_task.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.tests.test_browser import log_in
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.tests.conftest import add_pairs

DESKTOP = {"width": 1280, "height": 900}


def table_entries(round_: Round) -> dict[int, set[int]]:
    return {p.table: {pl.entry_id for pl in p.places.all()}
            for p in Pairing.objects.filter(round=round_, table__isnull=False)}


@pytest.mark.django_db(transaction=True)
def test_organiser_sets_up_pairs_round_one_swaps_two_tables_and_publishes(
    browser: Any, live_server: Any, organiser: Any
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "org", "/manage/new/")

        page.fill("#id_name", "Кубок клуба")
        page.select_option("#id_rules_preset", "sport")
        page.fill("#id_rounds", "5")
        # the tie-breaks are ticked from their names (the preset's are ticked already)
        for name in ("difference", "head_to_head"):
            page.uncheck(f"#tie-list li[data-name={name}] input[type=checkbox]")
        with page.expect_navigation():
            page.click("#save-setup")
        tournament = Tournament.objects.get(name="Кубок клуба")
        assert tournament.tie_breaks == ["match_points", "buchholz"]
        entries = add_pairs(tournament, 8)

        page.goto(f"{live_server.url}/manage/{tournament.pk}/")
        assert page.inner_text("#active-count") == "8"
        with page.expect_navigation():
            page.click("#pair-form button[type=submit]")
        page.wait_for_selector("#tables tr[data-table='4']")
        round_ = Round.objects.get(tournament=tournament, number=1)
        assert round_.status == Round.Status.PAIRED
        assert page.inner_text("#status-label") == "Пары составлены (черновик)"
        before = table_entries(round_)
        assert len(before) == 4 and set().union(*before.values()) == {e.pk for e in entries}

        a = next(iter(before[1]))
        b = next(iter(before[2]))
        page.select_option("#swap-a", str(a))
        page.select_option("#swap-b", str(b))
        with page.expect_navigation():
            page.click("#swap-form button[type=submit]")
        assert "Участники поменялись местами." in page.inner_text(".messages")
        after = table_entries(round_)
        assert after[1] == (before[1] - {a}) | {b}
        assert after[2] == (before[2] - {b}) | {a}
        assert page.locator(f"#tables [data-table='1'] [data-entry='{b}']").count() == 1

        with page.expect_navigation():
            page.click("#publish-form button[type=submit]")
        assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
        assert "Тур 1 опубликован." in page.inner_text(".messages")

        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/")
        assert page.locator("#pairings tbody tr").count() == 4
        name_b = Entry.objects.get(pk=b).name
        assert name_b in page.inner_text("#pairings tr[data-table='1']")
        assert not errors
    finally:
        context.close()
