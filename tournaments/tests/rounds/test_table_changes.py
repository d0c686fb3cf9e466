"""Changing a table whose protocol has started, over HTTP (the API and the organiser's page):
what was recorded stays, in the same match.

The referee of a table changes in place while the protocol is in play (the deals stay, the new
referee goes on); swapping an entry of a started table and pairing a started unlocked table
again are refused with a 409 that names the table, and change nothing. The races of the same
changes are in ``test_round_races.py`` (PostgreSQL).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services as scoring
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import sport_deals
from tournaments import rounds
from tournaments.models import Pairing, PairingEntry, Round
from tournaments.tests.conftest import make_user
from tournaments.tests.rounds.test_rounds import (
    pair,
    trivial_swiss,  # noqa: F401 - autouse fixture
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(tournament, organiser, referee, pairs, django_capture_on_commit_callbacks
            ) -> dict[str, Any]:  # fmt: skip
    """Round 1 paired (two tables); table 1 refereed by ``referee``, its first deal recorded."""
    e = pairs(tournament, 4)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    table = Pairing.objects.get(round=round_, table=1)
    rounds.assign_referee(organiser, table.pk, referee)
    table.refresh_from_db()
    scoring.record_deal(table.match_id, sport_deals()[0], referee)
    return {"e": e, "round": round_, "table": table, "match": table.match_id}


def rows() -> list[Any]:
    """Everything a change of a table could touch."""
    return [list(model.objects.order_by("pk").values())
            for model in (Round, Pairing, PairingEntry, Match, Deal, MatchVersion)]  # fmt: skip


def api_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def page_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_referee_of_a_table_in_play_changes_and_the_deals_stay(started, organiser,
                                                                   referee) -> None:  # fmt: skip
    other = make_user("ref2", "Referee")
    answer = api_of(organiser).post(f"/api/v1/rounds/{started['round'].pk}/referee/",
                                    {"table": 1, "referee": other.pk}, format="json")  # fmt: skip
    assert answer.status_code == 200, answer.json()
    table = Pairing.objects.get(pk=started["table"].pk)
    assert table.match_id == started["match"] and table.referee == other
    match = Match.objects.get(pk=started["match"])
    assert match.referee == other and match.deals.count() == 1
    assert list(match.history.values_list("action", flat=True))[-1] == "reassign"
    # the new referee goes on; the old one may not write any more
    next_deal = sport_deals()[1]
    old = api_of(referee).post(f"/api/v1/matches/{match.pk}/deals/", next_deal, format="json")
    # the round is not published: the table's match is now hidden from him (tournaments.access)
    assert old.status_code == 404
    assert Match.objects.get(pk=match.pk).deals.count() == 1
    new = api_of(other).post(f"/api/v1/matches/{match.pk}/deals/", next_deal, format="json")
    assert new.status_code == 201
    # and on the page, back to the first referee
    url = f"/manage/{started['round'].tournament_id}/rounds/1/referee/"
    page = page_of(organiser).post(url, {"pairing": table.pk, "referee": referee.pk}, follow=True)
    assert "Судья назначен на стол 1." in page.content.decode()
    assert Match.objects.get(pk=match.pk).referee == referee
    assert Match.objects.get(pk=match.pk).deals.count() == 2


def test_the_referee_of_a_submitted_protocol_stays(started, organiser, referee) -> None:
    for deal in sport_deals()[1:]:
        scoring.record_deal(started["match"], deal, referee)
    scoring.submit(started["match"], referee)
    before = rows()
    answer = api_of(organiser).post(
        f"/api/v1/rounds/{started['round'].pk}/referee/",
        {"table": 1, "referee": make_user("ref2", "Referee").pk}, format="json",
    )  # fmt: skip
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["code"] == "not_editable"
    assert "стола 1" in answer.json()["errors"][0]["message"]
    assert rows() == before


def test_an_entry_of_a_started_table_cannot_be_swapped(started, organiser) -> None:
    e, round_ = started["e"], started["round"]
    before = rows()
    answer = api_of(organiser).post(f"/api/v1/rounds/{round_.pk}/swap/",
                                    {"entries": [e[1].pk, e[3].pk]}, format="json")  # fmt: skip
    assert answer.status_code == 409
    error = answer.json()["errors"][0]
    assert (error["code"], error["message"]) == (
        "match_started", "За столом 1 уже записаны раздачи; его нельзя изменить.")
    assert rows() == before
    page = page_of(organiser).post(f"/manage/{round_.tournament_id}/rounds/1/swap/",
                                   {"entry_a": e[1].pk, "entry_b": e[3].pk}, follow=True)
    assert "За столом 1 уже записаны раздачи; его нельзя изменить." in page.content.decode()
    assert rows() == before


def test_a_started_unlocked_table_is_not_paired_again(started, organiser, tournament,
                                                      django_capture_on_commit_callbacks) -> None:
    round_ = started["round"]
    before = rows()
    answer = api_of(organiser).post(f"/api/v1/rounds/{round_.pk}/regenerate/")
    assert answer.status_code == 409
    error = answer.json()["errors"][0]
    assert error["code"] == "match_started"
    assert error["message"].startswith("Уже записаны раздачи за столами: 1.")
    assert rows() == before
    page = page_of(organiser).post(f"/manage/{tournament.pk}/rounds/1/regenerate/", follow=True)
    assert "Уже записаны раздачи за столами: 1." in page.content.decode()
    assert rows() == before
    # locked, the started table is kept with its deal and the other one is paired again
    rounds.set_locked(organiser, started["table"].pk, True)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_of(organiser).post(f"/api/v1/rounds/{round_.pk}/regenerate/")
    assert answer.status_code == 202
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED
    assert Pairing.objects.get(round=round_, table=1).match_id == started["match"]
    assert Deal.objects.filter(match_id=started["match"]).count() == 1
