"""A knock-out round's tables say which tie and game they are, and the round which levels it
plays, on the public round page, the organiser's, the printed table list and the entries' own
pages (issue 30: «round pages don't label knock-out games»)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tournaments import rounds
from tournaments.models import Entry, Round, Stage
from tournaments.tests.stages.test_knockout_stage import SCRIPT, decide, finish, sides

pytestmark = pytest.mark.django_db

#: each tie of the 24-pair fixture's top-8 bracket (by seeds) and its name on a table
TIE_NAMES = {(1, 8): "1/4 финала", (4, 5): "1/4 финала", (2, 7): "1/4 финала",
             (3, 6): "1/4 финала", (1, 5): "Полуфинал", (2, 6): "Полуфинал", (2, 5): "Финал",
             (1, 6): "Матч за 3-е место"}  # fmt: skip
#: a round's heading names its levels as the bracket page does
LEVELS = {"1/4 финала": "Четвертьфиналы", "Полуфинал": "Полуфиналы", "Финал": "Финал",
          "Матч за 3-е место": "Матч за 3-е место"}  # fmt: skip
ROW = re.compile(r'<tr data-table="(\d+)"[^>]*>.*?</tr>', re.S)
LABEL = re.compile(r'class="meta knockout-label">([^<]*)<')


def labels_on(html: str) -> dict[int, str]:
    """Table number -> its knock-out label, as the page shows it."""
    found = {}
    for row in ROW.finditer(html):
        label = LABEL.search(row.group(0))
        found[int(row.group(1))] = label.group(1) if label else ""
    return found


def test_every_table_of_the_knockout_names_its_tie_and_game(
    swiss: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, swiss.pk)
    seed_of = {e: n for n, e in enumerate(Stage.objects.get(tournament=swiss).seeds, 1)}
    played: dict[tuple[int, int], int] = {}
    seen: set[str] = set()
    while round_ is not None:
        round_.refresh_from_db()
        expected, levels = {}, []
        tables = list(round_.pairings.filter(table__isnull=False).order_by("table"))
        for table in tables:
            tie = tuple(seed_of[e] for e in sides(table))
            played[tie] = played.get(tie, 0) + 1  # type: ignore[index]
            name = TIE_NAMES[tie]  # type: ignore[index]
            expected[table.table] = f"{name}, партия {played[tie]}"  # type: ignore[index]
            if LEVELS[name] not in levels:
                levels.append(LEVELS[name])
        heading = "Плей-офф: " + ", ".join(sorted(levels, key=list(LEVELS.values()).index))

        client.force_login(organiser)  # the organiser's page of the paired draft
        managed = client.get(f"/manage/{swiss.pk}/rounds/{round_.number}/").content.decode()
        assert labels_on(managed) == expected, round_.number
        assert f'id="knockout-round"><strong>{heading}<' in managed
        printed = client.get(f"/manage/{swiss.pk}/rounds/{round_.number}/print/")
        assert printed.content.decode().count('class="knockout-label"') == len(tables)
        rounds.publish(organiser, round_.pk)
        client.logout()
        public = client.get(f"/tournaments/{swiss.pk}/rounds/{round_.number}/").content.decode()
        assert labels_on(public) == expected and heading in public
        # an entry's own page names its table's tie and game
        first = tables[0]
        token = Entry.objects.get(pk=sides(first)[0]).token
        own = client.get(f"/p/{token}/").content.decode()
        assert f'id="personal-knockout">{expected[first.table]}<' in own
        seen.update(expected.values())

        for table in tables:
            tie = tuple(seed_of[e] for e in sides(table))
            outcome = SCRIPT[tie][played[tie] - 1]  # type: ignore[index]
            decide(table, {"a": "NS", "b": "EW", "draw": "draw"}[outcome])
        round_ = finish(organiser, round_, capture)

    # the quarter-final played again after a draw is its fourth game; a final of three games
    assert {"1/4 финала, партия 4", "Полуфинал, партия 2", "Финал, партия 3",
            "Матч за 3-е место, партия 2"} <= seen  # fmt: skip
    # a Swiss round says nothing of the kind
    client.force_login(organiser)
    swiss_round = client.get(f"/manage/{swiss.pk}/rounds/1/").content.decode()
    assert "knockout-label" not in swiss_round and 'id="knockout-round"' not in swiss_round


def test_the_round_names_are_english_on_the_english_page(
    swiss: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        round_ = rounds.start_final_stage(organiser, swiss.pk)
    rounds.publish(organiser, round_.pk)
    client.cookies["django_language"] = "en"
    page = client.get(f"/tournaments/{swiss.pk}/rounds/{round_.number}/").content.decode()
    assert page.count("Quarter-final, game 1") == 4 and "Knock-out: Quarter-finals" in page
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
