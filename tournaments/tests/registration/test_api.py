"""The tournaments API: setup, entries and CSV import, rounds (202), review and publication,
with the common error format and permissions."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.tests.conftest import make_user
from tournaments.tests.factories import PlayerFactory
from tournaments.tests.rounds.test_rounds import trivial_swiss  # noqa: F401 - autouse fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def test_an_organiser_creates_and_changes_a_tournament(api, organiser) -> None:
    answer = api.post("/api/v1/tournaments/", {"name": "Кубок", "rounds": 4,
                                               "rules_preset": "international"}, format="json")
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert data["tie_break_order"] == ["wins", "efectividad", "points"]
    changed = api.patch(f"/api/v1/tournaments/{data['id']}/",
                        {"points_win": 3, "tie_breaks": ["buchholz"]}, format="json")
    assert changed.status_code == 200
    assert changed.json()["points_win"] == 3
    assert changed.json()["tie_break_order"] == ["buchholz"]


def test_bad_setup_answers_400_in_the_common_format(api, tournament) -> None:
    answer = api.patch(f"/api/v1/tournaments/{tournament.pk}/",
                       {"tie_breaks": ["luck"]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "tie_breaks"


def test_others_cannot_change_the_tournament(tournament, other_organiser) -> None:
    client = APIClient()
    assert client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/").status_code in (401, 403)
    client.force_authenticate(other_organiser)
    answer = client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"rounds": 2}, format="json")
    assert answer.status_code == 403
    assert answer.json()["errors"][0]["code"] == "not_organiser"
    client.force_authenticate(make_user("plain"))
    assert client.post("/api/v1/tournaments/", {"name": "x"}, format="json").status_code == 403
    assert client.post("/api/v1/clubs/", {"name": "x"}, format="json").status_code == 403


def test_entries_registration_withdrawal_and_absence(api, tournament) -> None:
    a, b = PlayerFactory(), PlayerFactory()
    answer = api.post(f"/api/v1/tournaments/{tournament.pk}/entries/",
                      {"name": "Дубль", "players": [a.pk, b.pk], "seed": 1}, format="json")
    assert answer.status_code == 201, answer.json()
    entry_id = answer.json()["id"]
    assert api.post(f"/api/v1/entries/{entry_id}/absences/", {"round": 2},
                    format="json").json()["absent_rounds"] == [2]
    assert api.post(f"/api/v1/entries/{entry_id}/withdraw/").json()["status"] == "withdrawn"
    assert api.patch(f"/api/v1/entries/{entry_id}/", {"seed": 5},
                     format="json").json()["seed"] == 5
    refused = api.post(f"/api/v1/tournaments/{tournament.pk}/entries/",
                       {"name": "Соло", "players": [PlayerFactory().pk]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"code": "players_count", "field": "players",
                                         "message": "В этом формате у участника игроков: 2."}]


def test_csv_import_through_the_api(api, tournament) -> None:
    good = "entry,last_name\nДубль,Иванов\nДубль,Петров\n"
    answer = api.post(f"/api/v1/tournaments/{tournament.pk}/entries/import/", {"csv": good},
                      format="json")
    assert answer.status_code == 201
    assert answer.json()["entries"] == 1
    bad = "entry,last_name,rating\nРыба,Сидоров,сто\nРыба,Попов,1\n"
    refused = api.post(f"/api/v1/tournaments/{tournament.pk}/entries/import/", {"csv": bad},
                       format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["line"] == 2
    assert tournament.entries.count() == 1


def test_pair_a_round_202_then_read_swap_lock_and_publish(
    api, tournament, pairs, django_capture_on_commit_callbacks
) -> None:
    e = pairs(tournament, 4)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    assert answer.status_code == 202
    assert answer.json()["status"] == "pairing"
    round_id = answer.json()["id"]
    data = api.get(f"/api/v1/rounds/{round_id}/").json()
    assert data["status"] == "paired"
    assert [t["table"] for t in data["tables"]] == [1, 2]
    first = data["tables"][0]
    assert first["sides"]["NS"][0]["id"] == e[0].pk and first["match"] is not None
    assert set(first["seats"]) == {"N", "E", "S", "W"} and first["flags"] == ["by_seed"]

    public = APIClient()
    assert public.get(f"/api/v1/rounds/{round_id}/").status_code == 404  # a draft
    swapped = api.post(f"/api/v1/rounds/{round_id}/swap/",
                       {"entries": [e[1].pk, e[3].pk]}, format="json")
    assert swapped.status_code == 200
    assert swapped.json()["tables"][0]["sides"]["EW"][0]["id"] == e[3].pk
    locked = api.post(f"/api/v1/rounds/{round_id}/lock/", {"table": 1}, format="json")
    assert locked.json()["tables"][0]["locked"] is True
    assert api.post(f"/api/v1/rounds/{round_id}/publish/").json()["status"] == "published"
    assert public.get(f"/api/v1/rounds/{round_id}/").json()["status"] == "published"
    again = api.post(f"/api/v1/rounds/{round_id}/publish/")
    assert again.status_code == 409
    assert again.json()["errors"][0]["code"] == "round_state"


def test_a_second_round_while_one_is_a_draft_is_409(
    api, tournament, pairs, django_capture_on_commit_callbacks
) -> None:
    pairs(tournament, 2)
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    answer = api.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["code"] == "round_open"
    assert Round.objects.count() == 1


def test_clubs_and_players_are_listed_and_created_by_organisers(api) -> None:
    club = api.post("/api/v1/clubs/", {"name": "Дубль", "city": "Тверь"}, format="json").json()
    player = api.post("/api/v1/players/", {"last_name": "Иванов", "club": club["id"]},
                      format="json")
    assert player.status_code == 201
    assert APIClient().get("/api/v1/players/").json()["results"][0]["last_name"] == "Иванов"


def test_referee_assignment_through_the_api(
    api, tournament, referee, pairs, django_capture_on_commit_callbacks
) -> None:
    pairs(tournament, 2)
    with django_capture_on_commit_callbacks(execute=True):
        round_id = api.post(f"/api/v1/tournaments/{tournament.pk}/rounds/").json()["id"]
    answer = api.post(f"/api/v1/rounds/{round_id}/referee/",
                      {"table": 1, "referee": referee.pk}, format="json")
    assert answer.status_code == 200
    assert answer.json()["tables"][0]["referee"] == referee.pk
    assert Pairing.objects.get(table=1).match.referee == referee


def test_tournament_list_still_hides_private_ones(db) -> None:
    Tournament.objects.create(name="Тайный")
    assert APIClient().get("/api/v1/tournaments/").json()["results"] == []
    assert not Entry.objects.exists()


# --- an entry's team must be a team of the same tournament ------------------------------------


@pytest.fixture
def team_event(organiser) -> dict:
    """A team event with a club team and one of its pairs, and another tournament's team."""
    event = Tournament.objects.create(name="Командный", format=Tournament.Format.TEAMS, rounds=3)
    event.organisers.add(organiser)
    team = Entry.objects.create(tournament=event, name="Дубль")
    pair = Entry.objects.create(tournament=event, name="Дубль-1", team=team)
    other = Tournament.objects.create(name="Чужой", format=Tournament.Format.TEAMS, rounds=3)
    return {"event": event, "team": team, "pair": pair,
            "foreign": Entry.objects.create(tournament=other, name="Чужая команда")}


def test_patch_refuses_a_team_of_another_tournament_or_the_entry_itself(api, team_event) -> None:
    """Was accepted: PATCH set any entry of any tournament (or the entry itself) as the team."""
    pair, team = team_event["pair"], team_event["team"]
    for entry, value in ((pair, team_event["foreign"].pk),  # another tournament's team
                         (pair, pair.pk),                   # the entry itself
                         (team, pair.pk)):                  # a team playing for its own pair
        answer = api.patch(f"/api/v1/entries/{entry.pk}/", {"team": value}, format="json")
        assert answer.status_code == 400, (entry, value, answer.content)
        item = answer.json()["errors"][0]
        assert item["field"] == "team" and item["code"] == "bad_team", item
    pair.refresh_from_db()
    team.refresh_from_db()
    assert pair.team_id == team.pk and team.team_id is None


def test_post_and_patch_refuse_a_pair_as_the_team(api, team_event) -> None:
    event, pair = team_event["event"], team_event["pair"]
    answer = api.post(f"/api/v1/tournaments/{event.pk}/entries/",
                      {"name": "Новая", "team": pair.pk}, format="json")  # fmt: skip
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "team"
    foreign = api.post(f"/api/v1/tournaments/{event.pk}/entries/",
                       {"name": "Новая", "team": team_event["foreign"].pk}, format="json")
    assert foreign.status_code == 400 and foreign.json()["errors"][0]["field"] == "team"
    lone = Entry.objects.create(tournament=event, name="Одиночки")
    nested = api.patch(f"/api/v1/entries/{lone.pk}/", {"team": pair.pk}, format="json")
    assert nested.status_code == 400 and nested.json()["errors"][0]["field"] == "team"
    assert not Entry.objects.filter(name="Новая").exists()
    lone.refresh_from_db()
    assert lone.team_id is None
    # a team of the same tournament is accepted
    ok = api.patch(f"/api/v1/entries/{lone.pk}/", {"team": team_event["team"].pk}, format="json")
    assert ok.status_code == 200 and ok.json()["team"] == team_event["team"].pk
