"""The fault answers without the services (the real faults are in tests_faults/, run alone):
the broker refusing the pairing job, and the database failing under an API request."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

from accounts import roles
from accounts.tokens import issue
from tournaments.models import Pairing, Round, Tournament
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def refusing_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.rounds.tasks import pair_round

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(pair_round, "apply_async", refuse)


@pytest.mark.django_db(transaction=True)  # the job is sent when the round's transaction commits
def test_pairing_with_the_broker_down_answers_503_and_leaves_the_round_new(
    refusing_broker: None,
) -> None:
    organiser = make_user("org", roles.ORGANISER)
    tournament = Tournament.objects.create(name="Кубок", rounds=3)
    tournament.organisers.add(organiser)
    add_pairs(tournament, 4)
    client = APIClient()
    client.force_authenticate(organiser)

    answer = client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")

    assert answer.status_code == 503
    assert [e["code"] for e in answer.json()["errors"]] == ["queue_unavailable"]
    assert answer["Retry-After"] == "30"
    round_ = Round.objects.get(tournament=tournament)
    assert (round_.status, round_.step) == (Round.Status.NEW, "failed")
    assert "очередь" in round_.error.lower() or "queue" in round_.error.lower()
    assert not Pairing.objects.filter(round=round_).exists()


def test_database_failure_answers_503_database_unavailable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scoring import services

    referee = make_user("ref", roles.REFEREE)
    match = services.create_match(user=referee)
    _, token = issue(referee)

    def gone(*args: Any, **kwargs: Any) -> None:
        import psycopg

        raise OperationalError("server closed the connection") from psycopg.OperationalError()

    monkeypatch.setattr(services, "record_deal", gone)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    answer = client.post(f"/api/v1/matches/{match.pk}/deals/", {"result": "fish"}, format="json")

    assert answer.status_code == 503
    assert [e["code"] for e in answer.json()["errors"]] == ["database_unavailable"]
    assert int(answer["Retry-After"]) > 0


def test_a_query_bug_is_still_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only an unreachable database is 503; a broken query stays the bug it is."""
    from scoring import services

    referee = make_user("ref", roles.REFEREE)
    match = services.create_match(user=referee)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("no such column: nonsense")

    monkeypatch.setattr(services, "record_deal", broken)
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(referee)
    answer = client.post(f"/api/v1/matches/{match.pk}/deals/", {"result": "fish"}, format="json")
    assert answer.status_code == 500


def test_a_page_whose_database_went_away_answers_503_and_asks_to_retry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.test import Client

    from tournaments.results import display
    from tournaments.tests.factories import TournamentFactory

    tournament = TournamentFactory(public=True)

    def gone(*args: Any, **kwargs: Any) -> None:
        import psycopg

        raise OperationalError("server closed the connection") from psycopg.OperationalError()

    monkeypatch.setattr(display, "cached_results_table", gone)
    answer = Client(raise_request_exception=False).get(f"/tournaments/{tournament.pk}/standings/")
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    html = answer.content.decode()
    assert "База данных временно недоступна" in html
    assert "Traceback" not in html


def test_a_page_with_a_query_bug_is_still_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.test import Client

    from tournaments.results import display
    from tournaments.tests.factories import TournamentFactory

    tournament = TournamentFactory(public=True)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("no such column: nonsense")

    monkeypatch.setattr(display, "cached_results_table", broken)
    answer = Client(raise_request_exception=False).get(f"/tournaments/{tournament.pk}/standings/")
    assert answer.status_code == 500
