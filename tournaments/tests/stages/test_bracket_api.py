"""The bracket as data (``GET /api/v1/tournaments/{id}/bracket/``): what the bracket page
shows, for apps and federations' sites; a hidden tournament's is a 404."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments import rounds
from tournaments.models import Stage, Tournament
from tournaments.tests.stages.test_knockout_stage import play_knockout

pytestmark = pytest.mark.django_db


def test_the_bracket_api_gives_the_levels_the_champion_and_the_ranking(
    swiss: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = APIClient()
    before = api.get(f"/api/v1/tournaments/{swiss.pk}/bracket/").json()
    assert before["stage"]["started"] is False and before["levels"] == []
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, swiss.pk)
    round_.refresh_from_db()
    stage = Stage.objects.get(tournament=swiss)
    play_knockout(organiser, round_, {e: n for n, e in enumerate(stage.seeds, 1)}, capture)
    data = api.get(f"/api/v1/tournaments/{swiss.pk}/bracket/",
                   HTTP_ACCEPT_LANGUAGE="en").json()  # fmt: skip
    assert data["stage"] == {"kind": "knockout", "qualifiers": 8, "best_of": 3,
                             "third_place": True, "started": True, "seeds": stage.seeds}
    assert [level["name"] for level in data["levels"]] == ["Quarter-finals", "Semi-finals",
                                                           "Final"]  # fmt: skip
    final = data["levels"][2]["ties"]
    winner = next(s for s in final[0]["sides"] if s["winner"])
    assert data["finished"] and data["champion"] == winner["name"]
    assert [t["third_place"] for t in final] == [False, True]
    assert len(final[0]["games"]) == 3  # the final went to a third game
    assert [line["place"] for line in data["ranking"]] == list(range(1, 25))
    assert data["ranking"][0]["name"] == data["champion"]
    Tournament.objects.filter(pk=swiss.pk).update(public=False)
    assert api.get(f"/api/v1/tournaments/{swiss.pk}/bracket/").status_code == 404
