"""A knock-out round's tables say which tie and game they are, on the public round page and on
the organiser's (issue 30: «round pages don't label knock-out games»)."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import rounds
from tournaments.models import Round, Stage
from tournaments.tests.stages.test_knockout_stage import decide, finish, sides

pytestmark = pytest.mark.django_db


def test_the_quarter_finals_and_their_second_games_are_named(
    swiss: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, swiss.pk)
    client.force_login(organiser)
    managed = client.get(f"/manage/{swiss.pk}/rounds/7/").content.decode()
    assert managed.count("Четвертьфиналы, партия 1") == 4
    rounds.publish(organiser, round_.pk)
    client.logout()
    client.cookies["django_language"] = "en"
    public = client.get(f"/tournaments/{swiss.pk}/rounds/7/")
    assert public.content.decode().count("Quarter-finals, game 1") == 4
    client.cookies["django_language"] = "ru"
    client.force_login(organiser)
    # the better seeds win the first games: round 8 is every tie's second game
    seed_of = {e: n for n, e in enumerate(Stage.objects.get(tournament=swiss).seeds, 1)}
    for table in round_.pairings.filter(table__isnull=False):
        a, b = sides(table)
        decide(table, "NS" if seed_of[a] < seed_of[b] else "EW")
    second = finish(organiser, round_, capture)
    assert second is not None and second.status == Round.Status.PAIRED
    page = client.get(f"/manage/{swiss.pk}/rounds/8/").content.decode()
    assert page.count("Четвертьфиналы, партия 2") == 4
    # a Swiss round says nothing of the kind
    assert "партия" not in client.get(f"/manage/{swiss.pk}/rounds/1/").content.decode()
