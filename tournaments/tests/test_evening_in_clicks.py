"""A 16-pair club evening from an empty tournament to round 2 published, in a real browser,
counting the organiser's actions (issue 29: «about 40 actions to get round 1 on the tables, 16
more to print, about 21 for each later round»). An action is a click, a field typed or a file
chosen; signing in and waiting for the pairing are not counted. Targets: ≤ 20 to round 1 on the
tables with its paper printed in one PDF, ≤ 6 from finishing a round to the next one published
with its clock running."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts import roles
from scoring.models import Match
from scoring.tests.test_browser import log_in
from tournaments.models import Pairing, PairingEntry, Round, Tournament
from tournaments.tests.conftest import make_user
from tournaments.tests.registration.test_csv_names_browser import csv_text

DESKTOP = {"width": 1280, "height": 900}


class Counter:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.actions: list[str] = []

    def click(self, selector: str, navigates: bool = True) -> None:
        self.actions.append(f"click {selector}")
        if navigates:
            with self.page.expect_navigation():
                self.page.click(selector)
        else:
            self.page.click(selector)

    def fill(self, selector: str, value: str) -> None:
        self.actions.append(f"type {selector}")
        self.page.fill(selector, value)

    def choose_file(self, selector: str, path: str) -> None:
        self.actions.append(f"file {selector}")
        self.page.set_input_files(selector, path)


def confirm_every_table(round_: Round) -> None:
    """The referees' part of the evening (not the organiser's actions): each table confirmed."""
    for index, pairing in enumerate(round_.pairings.exclude(match=None).order_by("table")):
        Match.objects.filter(pk=pairing.match_id).update(
            status=Match.Status.CONFIRMED, winner="NS" if index % 2 else "EW",
            totals={"NS": 101 + index, "EW": 60}, finished=True, end="target",
            confirmed_at=timezone.now(),
        )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_sixteen_pair_evening_to_round_two_in_few_actions(
    browser: Any, live_server: Any, organiser: Any, tmp_path: Any
) -> None:
    referees = [make_user(f"judge{i}", roles.REFEREE) for i in range(1, 9)]
    path = tmp_path / "evening.csv"
    path.write_text(csv_text(), encoding="utf-8")
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "org", "/manage/")
        do = Counter(page)
        # round 1: the tournament, its entries from a CSV, the pairing, referees, print, clock
        do.click('a[href="/manage/new/"]')
        do.fill("#id_name", "Пятничный вечер")
        do.fill("#id_round_minutes", "45")
        do.click("#save-setup")
        tournament = Tournament.objects.get(name="Пятничный вечер")
        do.click(f'nav.tabs a[href="/manage/{tournament.pk}/entries/"]')
        do.choose_file("#import-form input[type=file]", str(path))
        do.click("#import-form button[type=submit]")
        assert tournament.entries.count() == 16
        do.click(f'nav.tabs a[href="/manage/{tournament.pk}/"]')
        do.click("#pair-form button.primary")
        page.wait_for_selector("#tables tr[data-table='8']", timeout=60_000)
        do.click("#fill-all-referees")
        do.click("#publish-form button")
        paper = page.get_attribute("#paper-link", "href")
        do.actions.append("click #paper-link")  # the round's paper: one PDF
        pdf = page.request.get(live_server.url + paper)
        assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
        do.click("#clock-start-form button")
        round1 = Round.objects.get(tournament=tournament, number=1)
        assert round1.status == Round.Status.PUBLISHED and round1.clock_started_at is not None
        tables = round1.pairings.filter(table__isnull=False)
        judging = set(tables.values_list("referee_id", flat=True))
        assert judging == {r.pk for r in referees}  # eight tables, each of the eight referees
        first = list(do.actions)
        assert len(first) <= 20, first

        # round 2: finish round 1, pair round 2, rotate the referees, publish, start the clock
        confirm_every_table(round1)
        do.actions.clear()
        page.reload()
        do.click("#finish-form button")
        do.click("#pair-next-form button")
        page.wait_for_selector("#rotate-referees", timeout=60_000)
        do.click("#rotate-referees")
        do.click("#publish-form button")
        do.click("#clock-start-form button")
        round2 = Round.objects.get(tournament=tournament, number=2)
        assert round2.status == Round.Status.PUBLISHED and round2.clock_started_at is not None
        later = list(do.actions)
        assert len(later) <= 6, later
        # nobody judges a pair he judged in round 1
        for pairing in Pairing.objects.filter(round=round2, table__isnull=False):
            assert pairing.referee_id is not None
            before = set(PairingEntry.objects.filter(pairing__round=round1,
                                                     pairing__referee_id=pairing.referee_id)
                         .values_list("entry_id", flat=True))  # fmt: skip
            assert not before & set(pairing.places.values_list("entry_id", flat=True))
        print(f"\nactions to round 1 on the tables, printed: {len(first)}; "
              f"from finishing round 1 to round 2 published with its clock: {len(later)}")
    finally:
        context.close()
