"""A fives match (``muggins``, RULES.md sections 15–23) through the services and the API: created
with its knobs checked, recorded move by move or as points, judged by ``rules.fives``."""

from __future__ import annotations

import copy
import random
import uuid
from typing import Any

import pytest

from rules.fives import FivesJudge, make_fives_rules
from rules.fives.simulate import play_fives_match
from scoring import services
from scoring.models import Deal, Match
from scoring.services.idempotency import same_deal
from scoring.tests.test_api import client_for, codes, url

pytestmark = pytest.mark.django_db

SEED = 1


def muggins_deals() -> list[dict[str, Any]]:
    return play_fives_match(make_fives_rules("muggins"), random.Random(SEED))


def engine(deals: list[dict[str, Any]]) -> dict[str, Any]:
    return FivesJudge(make_fives_rules("muggins")).fold(deals).to_dict()


def illegal_move(deal: dict[str, Any]) -> dict[str, Any]:
    """``deal`` with its first move on an end laid on the end its tile does not fit."""
    bad = copy.deepcopy(deal)
    # the fourth move of seed 1 (1:5 on R): on L the open end is a 1 … its other half must match
    bad["play"][3]["end"] = "L"
    bad["play"][3]["tile"] = "6:6"
    return bad


@pytest.fixture
def fives_match(referee: Any) -> Match:
    return services.create_match(user=referee, rules_preset="muggins")


def test_a_muggins_match_is_created_with_its_rules(referee):
    match = services.create_match(user=referee, rules_preset="muggins",
                                  rules_options={"target": 150})  # fmt: skip
    assert match.rules["preset"] == "muggins" and match.rules["target"] == 150
    assert match.rules["spinner"] == "first_double"
    assert match.get_rules() == make_fives_rules("muggins", {"target": 150})
    assert (match.totals, match.finished, match.status) == ({"N": 0, "E": 0}, False, "draft")


def test_a_simulated_muggins_match_totals_as_the_fives_judge(fives_match, referee):
    deals = muggins_deals()
    for deal in deals:
        services.record_deal(fives_match.pk, deal, referee, client_id=uuid.uuid4())
    match = Match.objects.get(pk=fives_match.pk)
    expected = engine(deals)
    assert match.totals == expected["totals"] and match.finished is expected["finished"] is True
    assert match.winner == expected["winner"]
    assert [d.record for d in match.deals.all()] == deals
    assert [d.verdict for d in match.deals.all()] == expected["deals"]
    assert match.deals.first().verdict["moves"][0]["count"] == 8


def test_the_api_creates_records_and_reads_back_a_muggins_match(chief, referee, players):
    api = client_for(referee)
    created = api.post("/api/v1/matches/", {
        "rules_preset": "muggins", "seats": {"N": players["N"].pk, "E": players["E"].pk},
    }, format="json")  # fmt: skip
    assert created.status_code == 201, created.json()
    match = Match.objects.get(pk=created.json()["id"])
    assert created.json()["sides"] == {"N": ["N"], "E": ["E"]}
    deals = muggins_deals()
    for deal in deals:
        response = api.post(url(match, "deals/"), deal, format="json",
                            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))  # fmt: skip
        assert response.status_code == 201, response.json()
    data = client_for(None).get(url(match)).json()
    expected = engine(deals)
    assert data["totals"] == expected["totals"] and data["finished"] is True
    assert data["winner"] == expected["winner"]
    assert data["deals"][0]["verdict"]["moves"] == expected["deals"][0]["moves"]
    assert data["deals"][0]["verdict"]["play_points"] == {"N": 15, "E": 15}
    submitted = api.post(url(match, "submit/"), {}, format="json")
    assert submitted.status_code == 200, submitted.json()
    confirmed = client_for(chief).post(url(match, "confirm/"), {}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    corrected = client_for(chief).post(url(match, "corrections/"), {
        "deals": deals, "reason": "проверка",
    }, format="json")  # fmt: skip
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["totals"] == expected["totals"]
    refused = client_for(chief).post(url(match, "corrections/"), {
        "deals": [illegal_move(deals[0])], "reason": "проверка",
    }, format="json")  # fmt: skip
    assert refused.status_code == 400 and codes(refused) == ["tile_does_not_match_end"]


@pytest.mark.parametrize("options, field", [
    ({"spinner": "cross"}, "rules_options"), ({"target": 0}, "rules_options"),
    ({"deals": 4}, "rules_options"),
])  # fmt: skip
def test_a_bad_fives_knob_is_400_as_for_other_presets(chief, options, field):
    response = client_for(chief).post(
        "/api/v1/matches/", {"rules_preset": "muggins", "rules_options": options}, format="json"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["code"], error["field"]) == ("bad_option", field)
    assert error["message"]
    assert not Match.objects.exists()


def test_an_illegal_move_is_400_with_its_code_and_nothing_is_stored(fives_match, referee):
    bad = illegal_move(muggins_deals()[0])
    response = client_for(referee).post(url(fives_match, "deals/"), bad, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["code"] == "tile_does_not_match_end" and error["message"]
    assert not Deal.objects.exists()
    assert Match.objects.get(pk=fives_match.pk).version == 1


def test_a_retry_of_a_fives_deal_stores_once_and_another_deal_under_its_key_is_409(
    fives_match, referee
):
    deals = muggins_deals()
    key = str(uuid.uuid4())
    api = client_for(referee)
    first = api.post(url(fives_match, "deals/"), {**deals[0], "client_id": key}, format="json")
    again = api.post(url(fives_match, "deals/"), {**deals[0], "client_id": key}, format="json")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert Deal.objects.filter(match=fives_match).count() == 1
    other = api.post(url(fives_match, "deals/"), {**deals[1], "client_id": key}, format="json")
    assert other.status_code == 409 and codes(other) == ["idempotency_conflict"]
    assert Deal.objects.filter(match=fives_match).count() == 1


def test_two_fives_deals_differing_only_in_the_play_are_different_deals():
    deal = muggins_deals()[0]
    other = copy.deepcopy(deal)
    other["play"][0]["tile"] = "2:6"  # the same tile, another spelling: the same deal
    assert same_deal(deal, other)
    other["play"][1], other["play"][2] = other["play"][2], other["play"][1]
    assert not same_deal(deal, other)
    assert not same_deal({"result": "domino", "scores": [{"seat": "N", "points": 10}]},
                         {"result": "domino", "scores": [{"seat": "N", "points": 15}]})


def test_a_points_only_record_is_stored_with_its_key(fives_match, referee):
    deal = {"result": "domino", "by": "N", "leader": "N",
            "scores": [{"seat": "N", "points": 10}, {"seat": "E", "points": 5}],
            "hands": {"N": "", "E": "6:6 5:4"}}  # fmt: skip
    verdict = FivesJudge(make_fives_rules("muggins")).fold([deal]).to_dict()["deals"][0]
    recorded = services.record_deal(fives_match.pk, deal, referee, client_id=uuid.uuid4())
    assert recorded.deal.record == deal and recorded.deal.verdict == verdict
    assert verdict["ok"], verdict


def test_the_other_games_still_refuse_the_fives_keys(referee):
    match = services.create_match(user=referee, rules_preset="sport")
    response = client_for(referee).post(url(match, "deals/"), {
        "result": "domino", "by": "N", "play": [],
    }, format="json")  # fmt: skip
    assert response.status_code == 400 and codes(response) == ["unknown_field"]
