"""Results API: standings, crosstable and a player's history, their shape, errors and privacy."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments import results
from tournaments.models import Round, Tournament
from tournaments.tests.builders import add_deals, play_round, table_match
from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    """R1 (finished): Пара 1 beats Пара 2 120-80; Пара 3 and Пара 4 draw 100-100.
    R2 (published): Пара 1 beats Пара 3 90-60; Пара 4 and Пара 2 still play."""
    a, b, c, d = pairs(tournament, 4)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 100))])
    Round.objects.filter(pk=r1.pk).update(status=Round.Status.FINISHED)
    r1.refresh_from_db()
    results.take_snapshot(r1)
    r2 = play_round(tournament, 2, [(a, c, (90, 60)), (d, b, None)])
    return {"a": a, "b": b, "c": c, "d": d, "r1": r1, "r2": r2}


def test_live_standings_shape_and_values(api, event, tournament):
    response = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("tournament", "round", "scope", "source", "pending_tables")} == {
        "tournament": tournament.pk, "round": 2, "scope": "entries", "source": "live",
        "pending_tables": 1,
    }  # fmt: skip
    assert body["order"] == ["match_points", "difference", "buchholz", "head_to_head"]
    first = body["rows"][0]
    assert first["rank"] == 1
    assert first["entry"]["id"] == event["a"].pk
    assert first["entry"]["name"] == "Пара 1"
    assert first["entry"]["club"] == event["a"].club.name
    assert sorted(first["entry"]["players"]) == ["Северов1 Иван", "Южин1 Иван"]
    assert first["match_points"] == 4 and first["points_for"] == 210
    assert first["difference"] == 70 and first["pending"] == 0
    metrics = {"wins", "games_won", "draws", "losses", "points_against", "deals_won",
               "efectividad", "buchholz", "buchholz_cut1", "median_buchholz",
               "sonneborn_berger", "progressive", "head_to_head", "lot", "tiebreaks"}  # fmt: skip
    assert metrics <= set(first)
    pending = {row["entry"]["name"]: row["pending"] for row in body["rows"]}
    assert pending == {"Пара 1": 0, "Пара 2": 1, "Пара 3": 0, "Пара 4": 1}


def test_a_finished_round_answers_its_snapshot(api, event, tournament):
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"round": 1}).json()
    assert body["source"] == "snapshot" and body["round"] == 1
    assert [row["entry"]["name"] for row in body["rows"]][0] == "Пара 1"
    assert body["rows"][0]["match_points"] == 2 and body["rows"][-1]["entry"]["name"] == "Пара 2"


def test_players_scope(api, event, tournament):
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"scope": "players"}).json()
    assert body["scope"] == "players" and len(body["rows"]) == 8
    assert body["rows"][0]["entry"]["players"] == ["Пара 1"]


@pytest.mark.parametrize(
    ("params", "code", "field"),
    [({"round": 5}, "bad_round", "round"), ({"round": "x"}, "bad_round", "round"),
     ({"scope": "teams"}, "bad_scope", "scope"), ({"scope": "nope"}, "bad_scope", "scope")],
)  # fmt: skip
def test_bad_round_or_scope_is_a_400_in_the_common_format(api, event, tournament, params, code,
                                                          field):  # fmt: skip
    for what in ("standings", "crosstable"):
        response = api.get(f"/api/v1/tournaments/{tournament.pk}/{what}/", params)
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert error["code"] == code and error["field"] == field and error["message"]


def test_crosstable_shape(api, event, tournament):
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/crosstable/").json()
    assert body["rounds"] == [1, 2] and body["source"] == "live"
    rows = {row["entry"]["name"]: row for row in body["rows"]}
    rank = {name: row["rank"] for name, row in rows.items()}
    first, second = rows["Пара 1"]["cells"]
    assert first == {
        "round": 1, "kind": "played", "result": "win",
        "opponents": [{"id": event["b"].pk, "rank": rank["Пара 2"], "name": "Пара 2"}],
        "partners": [], "points_for": 120, "points_against": 80, "table": 1,
        "match": table_match(event["r1"], 1).pk, "result_only": False,
    }  # fmt: skip
    assert second["result"] == "win" and second["opponents"][0]["name"] == "Пара 3"
    assert rows["Пара 2"]["cells"][1]["kind"] == "pending"
    assert rows["Пара 2"]["cells"][1]["result"] == ""
    assert rows["Пара 1"]["match_points"] == 4


def test_player_history_shape_with_deals(api, event):
    add_deals(table_match(event["r1"], 1), ["NS", "EW"])
    player = event["a"].players.get(last_name="Северов1")
    response = api.get(f"/api/v1/players/{player.pk}/history/")
    assert response.status_code == 200
    body = response.json()
    assert body["player"]["id"] == player.pk and body["player"]["name"] == "Северов1 Иван"
    first, second = body["matches"]
    assert first["round"] == 1 and first["table"] == 1 and first["side"] == "NS"
    assert first["kind"] == "played" and first["result"] == "win"
    assert (first["points_for"], first["points_against"]) == (120, 80)
    assert [p["name"] for p in first["partners"]] == ["Южин1 Иван"]
    assert first["opponents"][0]["name"] == "Пара 2"
    assert len(first["opponents"][0]["players"]) == 2
    assert [d["winner"] for d in first["deals"]] == ["ours", "theirs"]
    assert second["round"] == 2 and second["result"] == "win"


def test_private_tournaments_are_not_found_for_anonymous_callers(api, organiser, pairs):
    private = TournamentFactory(public=False)
    private.organisers.add(organiser)
    a, b = pairs(private, 2)
    play_round(private, 1, [(a, b, (100, 50))])
    player = a.players.first()
    urls = [f"/api/v1/tournaments/{private.pk}/standings/",
            f"/api/v1/tournaments/{private.pk}/crosstable/",
            f"/api/v1/players/{player.pk}/history/"]  # fmt: skip
    for url in urls:
        response = api.get(url)
        assert response.status_code == 404, url
        assert response.json()["errors"][0]["code"] == "not_found"
    api.force_authenticate(organiser)
    for url in urls:
        assert api.get(url).status_code == 200, url


def test_the_endpoints_are_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for path in ("/api/v1/tournaments/{id}/standings/", "/api/v1/tournaments/{id}/crosstable/",
                 "/api/v1/players/{id}/history/"):  # fmt: skip
        assert "get" in paths[path]
    params = {p["name"] for p in paths["/api/v1/tournaments/{id}/standings/"]["get"]["parameters"]}
    assert {"round", "scope"} <= params
    assert "400" in paths["/api/v1/tournaments/{id}/standings/"]["get"]["responses"]


def test_standings_api_queries_stay_bounded(api, event, tournament, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        api.get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    with django_assert_max_num_queries(7):
        api.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"round": 1})
