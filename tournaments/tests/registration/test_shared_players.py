"""Players and clubs are shared by every tournament: an organiser's CSV import links to them but
never changes them, and every change to them (the admin) is in the audit log of each tournament
that uses them."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import AuditEntry
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db

#: what another organiser's file says about a player who plays in the first tournament
FORGED = (
    "entry;last_name;first_name;club;city;rating;federation_id\n"
    "Захват;Подменов;Злой;Чужой клуб;Нигде;9999;RU-777\n"
    "Захват;Новиков;Олег;Чужой клуб;Нигде;1400;\n"
)


@pytest.fixture
def star(tournament: Tournament) -> Player:
    """A player of the first tournament, with a public federation ID."""
    club = Club.objects.create(name="Клуб А", city="Москва")
    star = Player.objects.create(last_name="Иванов", first_name="Пётр", club=club, rating=1700,
                                 federation_id="RU-777")  # fmt: skip
    partner = Player.objects.create(last_name="Петров", first_name="Иван", club=club)
    entry = Entry.objects.create(tournament=tournament, name="Дубль", club=club)
    entry.players.set([star, partner])
    return star


@pytest.fixture
def their_tournament(other_organiser: User) -> Tournament:
    other = Tournament.objects.create(name="Чужой турнир", public=True)
    other.organisers.add(other_organiser)
    return other


def stored(player: Player) -> tuple[Any, ...]:
    player.refresh_from_db()
    return (player.last_name, player.first_name, player.club.name, player.club.city,
            player.rating, player.federation_id)  # fmt: skip


UNCHANGED = ("Иванов", "Пётр", "Клуб А", "Москва", 1700, "RU-777")


def test_another_organisers_csv_import_links_the_player_but_changes_nothing(
    star: Player, their_tournament: Tournament, other_organiser: User
) -> None:
    api = APIClient()
    api.force_authenticate(other_organiser)
    assert api.get(f"/api/v1/players/{star.pk}/").json()["federation_id"] == "RU-777"
    answer = api.post(f"/api/v1/tournaments/{their_tournament.pk}/entries/import/",
                      {"csv": FORGED}, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    assert stored(star) == UNCHANGED
    shown = api.get(f"/api/v1/players/{star.pk}/").json()
    assert (shown["last_name"], shown["first_name"], shown["rating"]) == ("Иванов", "Пётр", 1700)
    # linked: the same person plays in both, as the federation ID says
    # and the pair is named after the stored player, not after the file's forged name
    assert set(Entry.objects.get(name="Иванов – Новиков").players.all()) >= {star}
    assert answer.json()["players"] == 1  # only the partner without an ID is new
    # every difference is reported on its line, with the stored and the file's value
    notes = answer.json()["notes"]
    assert [n["line"] for n in notes] == [2]
    assert notes[0]["code"] == "player_differs" and notes[0]["field"] == "line.2.federation_id"
    assert notes[0]["differences"] == {
        "last_name": {"stored": "Иванов", "file": "Подменов"},
        "first_name": {"stored": "Пётр", "file": "Злой"},
        "club": {"stored": "Клуб А", "file": "Чужой клуб"},
        "rating": {"stored": 1700, "file": 9999},
    }
    assert notes[0]["message"].startswith("Строка 2: игрок RU-777 уже есть")
    # the import's own audit entry says what was linked and what differed
    logged = AuditEntry.objects.get(action="entry.import", tournament_id=their_tournament.pk)
    assert logged.after["linked"] == [star.pk] and logged.after["differences"] == 1


def test_on_the_page_the_differences_are_shown_and_the_player_is_kept(
    client, star: Player, their_tournament: Tournament, other_organiser: User
) -> None:
    client.force_login(other_organiser)
    upload = io.BytesIO(FORGED.encode())
    upload.name = "players.csv"
    answer = client.post(f"/manage/{their_tournament.pk}/entries/import/", {"file": upload},
                         follow=True)  # fmt: skip
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Строка 2: игрок RU-777 уже есть" in page and "Подменов" in page
    assert stored(star) == UNCHANGED
    assert client.get(f"/tournaments/{their_tournament.pk}/").status_code == 200


def test_a_known_club_keeps_its_city(
    star: Player, their_tournament: Tournament, other_organiser: User
) -> None:
    api = APIClient()
    api.force_authenticate(other_organiser)
    body = "entry,last_name,club,city\nЗахват,Сидоров,Клуб А,Тверь\nЗахват,Попов,Клуб А,Тверь\n"
    answer = api.post(f"/api/v1/tournaments/{their_tournament.pk}/entries/import/",
                      {"csv": body}, format="json")  # fmt: skip
    assert answer.status_code == 201
    assert Club.objects.get(name="Клуб А").city == "Москва"
    assert [(n["line"], n["code"]) for n in answer.json()["notes"]] == [(2, "club_differs")]


def test_an_admin_change_of_a_shared_player_is_in_every_tournaments_audit_log(
    client, star: Player, tournament: Tournament, their_tournament: Tournament,
    organiser: User, other_organiser: User,
) -> None:  # fmt: skip
    Entry.objects.create(tournament=their_tournament, name="Тоже Иванов").players.add(star)
    admin = User.objects.create_superuser("boss", password="s3cret-pass")
    client.force_login(admin)
    answer = client.post(f"/admin/tournaments/player/{star.pk}/change/", {
        "last_name": "Иванов-Бей", "first_name": "Пётр", "club": star.club_id, "rating": 1800,
        "federation_id": "RU-777",
    })  # fmt: skip
    assert answer.status_code == 302
    for user, event in ((organiser, tournament), (other_organiser, their_tournament)):
        entry = AuditEntry.objects.get(action="player.update", tournament_id=event.pk)
        assert entry.username == "boss" and entry.object_id == str(star.pk)
        assert entry.before == {"last_name": "Иванов", "rating": 1700}
        assert entry.after == {"last_name": "Иванов-Бей", "rating": 1800}
        client.force_login(user)
        page = client.get(f"/manage/{event.pk}/audit/").content.decode()
        assert "Игрок изменён" in page and "Иванов-Бей" in page
        client.force_login(admin)


def test_an_admin_change_of_a_shared_club_is_audited_too(
    client, star: Player, tournament: Tournament
) -> None:
    admin = User.objects.create_superuser("boss", password="s3cret-pass")
    client.force_login(admin)
    answer = client.post(f"/admin/tournaments/club/{star.club_id}/change/",
                         {"name": "Клуб Б", "city": "Москва"})  # fmt: skip
    assert answer.status_code == 302
    entry = AuditEntry.objects.get(action="club.update", tournament_id=tournament.pk)
    assert (entry.username, entry.before, entry.after) == (
        "boss", {"name": "Клуб А"}, {"name": "Клуб Б"}
    )
    # deleting a player used by a tournament is logged there as well
    partner = Player.objects.get(last_name="Петров")
    client.post(f"/admin/tournaments/player/{partner.pk}/delete/", {"post": "yes"})
    assert not Player.objects.filter(pk=partner.pk).exists()
    gone = AuditEntry.objects.get(action="player.delete", tournament_id=tournament.pk)
    assert gone.username == "boss" and gone.before["last_name"] == "Петров"


def test_a_change_outside_the_admin_is_audited_without_a_user(star: Player,
                                                              tournament: Tournament) -> None:
    make_user("nobody")
    star.rating = 1
    star.save()
    entry = AuditEntry.objects.get(action="player.update", tournament_id=tournament.pk)
    assert entry.user is None and entry.after == {"rating": 1}
