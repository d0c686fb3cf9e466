"""The API of discipline and of the end of rounds: sanctions (list, record, revoke), finishing a
round, closing the event; codes in the common error format; the OpenAPI schema lists them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments.models import Entry, Round, Sanction, Standing, Tournament
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import make_user
from tournaments.tests.rounds.test_finish_round import confirm

pytestmark = pytest.mark.django_db


@pytest.fixture
def chief(tournament: Tournament):
    """The tournament's chief referee (chief referees are appointed per tournament)."""
    user = make_user("chief", "Chief referee")
    tournament.chief_referees.add(user)
    return user


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    a, b, c, d = pairs(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING, rounds=1)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)])
    return {"a": a, "b": b, "c": c, "d": d, "r1": r1}


def codes(answer: Any) -> list[str]:
    return [item["code"] for item in answer.json()["errors"]]


def test_a_chief_referee_records_lists_and_revokes(tournament, chief, event) -> None:
    api = client_for(chief)
    path = f"/api/v1/tournaments/{tournament.pk}/sanctions/"
    assert api.get(path).json() == []
    answer = api.post(path, {"entry": event["b"].pk, "round_number": 1, "kind": "yellow",
                             "reason": "спор с соперником"}, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert data["entry"] == event["b"].pk and data["entry_name"] == "Пара 2"
    assert data["kind"] == "yellow" and data["round_number"] == 1
    assert data["game_points"] == tournament.yellow_card_points
    assert data["created_by"] == "chief" and data["active"] is True and data["table"] is None
    forfeit = api.post(path, {"entry": event["d"].pk, "round_number": 1, "kind": "forfeit",
                              "table": 2, "reason": "неявка"}, format="json")  # fmt: skip
    assert forfeit.status_code == 201 and forfeit.json()["table"] == 2
    listed = api.get(path).json()
    assert [s["id"] for s in listed] == [data["id"], forfeit.json()["id"]]

    revoke = f"/api/v1/sanctions/{data['id']}/revoke/"
    empty = api.post(revoke, {"reason": ""}, format="json")
    assert empty.status_code == 400 and codes(empty) == ["reason_required"]
    assert empty.json()["errors"][0]["field"] == "reason"
    done = api.post(revoke, {"reason": "ошибка судьи"}, format="json")
    assert done.status_code == 200
    assert done.json()["active"] is False and done.json()["revoked_by"] == "chief"
    assert done.json()["revoke_reason"] == "ошибка судьи"
    again = api.post(revoke, {"reason": "ещё раз"}, format="json")
    assert again.status_code == 409 and codes(again) == ["already_revoked"]
    assert api.get(f"/api/v1/sanctions/{data['id']}/").json()["active"] is False


def test_bad_sanctions_answer_400_with_codes_and_write_nothing(tournament, organiser,
                                                               event) -> None:  # fmt: skip
    api = client_for(organiser)
    path = f"/api/v1/tournaments/{tournament.pk}/sanctions/"
    answer = api.post(path, {"entry": event["a"].pk, "round_number": 1, "kind": "deduction",
                             "reason": " "}, format="json")  # fmt: skip
    assert answer.status_code == 400
    assert sorted(codes(answer)) == ["bad_points", "reason_required"]
    fields = {item["code"]: item["field"] for item in answer.json()["errors"]}
    assert fields == {"bad_points": "game_points", "reason_required": "reason"}
    answer = api.post(path, {"entry": event["a"].pk, "round_number": 9, "kind": "yellow",
                             "reason": "x"}, format="json")  # fmt: skip
    assert codes(answer) == ["bad_round"]
    answer = api.post(path, {"entry": event["a"].pk, "round_number": 1, "kind": "purple",
                             "reason": "x"}, format="json")  # fmt: skip
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "kind"
    assert not Sanction.objects.exists()


def test_a_black_card_withdraws_through_the_api(tournament, chief, event) -> None:
    answer = client_for(chief).post(
        f"/api/v1/tournaments/{tournament.pk}/sanctions/",
        {"entry": event["c"].pk, "round_number": 1, "kind": "black", "reason": "драка"},
        format="json",
    )
    assert answer.status_code == 201
    event["c"].refresh_from_db()
    assert event["c"].status == Entry.Status.WITHDRAWN


def test_who_may_see_and_record_sanctions(tournament, referee, other_organiser, event) -> None:
    path = f"/api/v1/tournaments/{tournament.pk}/sanctions/"
    body = {"entry": event["a"].pk, "round_number": 1, "kind": "yellow", "reason": "x"}
    assert client_for().get(path).status_code in (401, 403)
    for user in (referee, other_organiser):
        api = client_for(user)
        answer = api.get(path)
        assert answer.status_code == 403 and codes(answer) == ["not_allowed"]
        answer = api.post(path, body, format="json")
        assert answer.status_code == 403 and codes(answer) == ["not_allowed"]
    # a private tournament: not even found by those who may not judge it
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    assert client_for(referee).get(path).status_code == 404
    chief = make_user("chief2", "Chief referee")
    assert client_for(chief).get(path).status_code == 404  # the role alone judges nothing
    tournament.chief_referees.add(chief)
    assert client_for(chief).get(path).status_code == 200
    assert not Sanction.objects.exists()


def test_revoking_is_for_judges_only(tournament, organiser, referee, event) -> None:
    sanction = (
        client_for(organiser)
        .post(
            f"/api/v1/tournaments/{tournament.pk}/sanctions/",
            {"entry": event["a"].pk, "round_number": 1, "kind": "yellow", "reason": "x"},
            format="json",
        )
        .json()
    )
    answer = client_for(referee).post(f"/api/v1/sanctions/{sanction['id']}/revoke/",
                                      {"reason": "y"}, format="json")  # fmt: skip
    assert answer.status_code == 404
    assert Sanction.objects.get().revoked_at is None


def test_finish_a_round_refused_while_a_table_is_open(tournament, organiser, other_organiser,
                                                      event) -> None:  # fmt: skip
    api = client_for(organiser)
    path = f"/api/v1/rounds/{event['r1'].pk}/finish/"
    answer = api.post(path)
    assert answer.status_code == 409 and codes(answer) == ["tables_open"]
    assert "2" in answer.json()["errors"][0]["message"]
    other = client_for(other_organiser).post(path)
    assert other.status_code == 403 and codes(other) == ["not_allowed"]
    confirm(table_match(event["r1"], 2), 90, 100)
    answer = api.post(path)
    assert answer.status_code == 200
    assert answer.json()["status"] == Round.Status.FINISHED
    assert Standing.objects.filter(round=event["r1"]).count() == 4


def test_close_the_event(tournament, organiser, other_organiser, event) -> None:
    api = client_for(organiser)
    path = f"/api/v1/tournaments/{tournament.pk}/close/"
    answer = api.post(path)
    assert answer.status_code == 409 and codes(answer) == ["rounds_open"]
    answer = client_for(other_organiser).post(path)
    assert answer.status_code == 403 and codes(answer) == ["not_organiser"]
    confirm(table_match(event["r1"], 2), 90, 100)
    assert api.post(f"/api/v1/rounds/{event['r1'].pk}/finish/").status_code == 200
    answer = api.post(path)
    assert answer.status_code == 200 and answer.json()["status"] == "finished"
    # nothing more to pair
    pair = api.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    assert pair.status_code == 409 and codes(pair) == ["finished"]


def test_the_schema_documents_the_new_endpoints() -> None:
    api = APIClient()
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    sanctions = paths["/api/v1/tournaments/{id}/sanctions/"]
    assert set(sanctions) >= {"get", "post"}
    body = sanctions["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/SanctionIn")
    assert "409" in paths["/api/v1/rounds/{id}/finish/"]["post"]["responses"]
    assert "post" in paths["/api/v1/tournaments/{id}/close/"]
    revoke = paths["/api/v1/sanctions/{id}/revoke/"]["post"]
    assert revoke["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/Revoke"
    )
