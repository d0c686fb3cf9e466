import pytest
from django.contrib.auth.models import User

from tournaments.models import Entry
from tournaments.tests.factories import EntryFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments_only(client) -> None:
    TournamentFactory(name="Открытый кубок", public=True)
    TournamentFactory(name="Тайный турнир", public=False)

    html = client.get("/").content.decode()

    assert "Открытый кубок" in html
    assert "Тайный турнир" not in html


def test_home_without_tournaments_says_so(client) -> None:
    assert "Открытых турниров пока нет." in client.get("/").content.decode()


def test_home_counts_active_entries_with_russian_plurals(client) -> None:
    tournament = TournamentFactory(rounds=5)
    EntryFactory.create_batch(2, tournament=tournament)
    EntryFactory(tournament=tournament, status=Entry.Status.WITHDRAWN)
    html = client.get("/").content.decode()
    assert "5 туров" in html
    assert "2 участника" in html


def test_detail_lists_entries_with_players(client, django_assert_max_num_queries) -> None:
    tournament = TournamentFactory(name="Кубок клуба", venue="ДК")
    for n in range(4):
        entry = EntryFactory(tournament=tournament, name=f"Пара {n}", seed=n + 1)
        entry.players.set([PlayerFactory(last_name=f"Первый{n}"), PlayerFactory()])

    with django_assert_max_num_queries(8):
        response = client.get(f"/tournaments/{tournament.pk}/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Кубок клуба</h1>" in html
    for n in range(4):
        assert f"Пара {n}" in html
        assert f"Первый{n}" in html


def test_private_tournament_is_hidden_from_the_public_but_not_its_organiser(client) -> None:
    tournament = TournamentFactory(public=False)
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404

    organiser = User.objects.create_user("org", password="x")
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 200


def test_tournament_api_lists_public_tournaments(client) -> None:
    TournamentFactory(name="Открытый", public=True)
    TournamentFactory(name="Закрытый", public=False)
    data = client.get("/api/v1/tournaments/").json()
    assert [t["name"] for t in data["results"]] == ["Открытый"]
