import datetime
import re

import pytest
from django.contrib.auth.models import Group, User

from accounts import roles
from tournaments.models import Entry, Tournament
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


def test_home_lists_running_then_coming_then_finished_tournaments_by_date(client) -> None:
    # created in an order unlike the dates: the page came in the database's order
    finished, running, coming = Tournament.Status.FINISHED, Tournament.Status.RUNNING, None
    day = datetime.date
    for name, start, status in [
        ("Осень", day(2026, 10, 3), finished), ("Весна", day(2027, 4, 1), coming),
        ("Зима", day(2026, 12, 5), finished), ("Без даты", None, coming),
        ("Сейчас", day(2027, 1, 10), running), ("Январь", day(2027, 1, 20), coming),
    ]:  # fmt: skip
        TournamentFactory(name=name, start_date=start,
                          status=status or Tournament.Status.REGISTRATION)  # fmt: skip
    html = client.get("/").content.decode()
    shown = re.findall(r'class="card-title">([^<]+)</a>', html)
    assert shown == ["Сейчас", "Январь", "Весна", "Без даты", "Зима", "Осень"]


def test_the_new_tournament_form_says_who_sees_a_tournament_not_public(client) -> None:
    organiser = User.objects.create_user("org", password="x")
    organiser.groups.add(Group.objects.get(name=roles.ORGANISER))
    client.force_login(organiser)
    html = client.get("/manage/new/").content.decode()
    field = html.split('id="id_public"', 1)[1].split("</p>", 1)[0]
    assert "Только открытый турнир виден на главной странице" in field
