import pytest
from django.contrib.auth.models import AnonymousUser, Group, User

from accounts import roles

pytestmark = pytest.mark.django_db


def test_role_groups_exist_after_migrations() -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= set(roles.ALL_ROLES)


def test_has_role_follows_group_membership() -> None:
    user = User.objects.create_user("chief", password="x")
    assert not roles.has_role(user, roles.CHIEF_REFEREE)
    user.groups.add(Group.objects.get(name=roles.CHIEF_REFEREE))
    assert roles.has_role(user, roles.CHIEF_REFEREE)
    assert not roles.has_role(user, roles.ORGANISER)
    assert not roles.has_role(AnonymousUser(), roles.REFEREE)


def test_role_labels_are_translated() -> None:
    from django.utils import translation

    with translation.override("ru"):
        assert roles.label(roles.CHIEF_REFEREE) == "Главный судья"
    with translation.override("en"):
        assert roles.label(roles.CHIEF_REFEREE) == "Chief referee"


def test_login_page_renders_in_russian_and_english(client) -> None:
    html = client.get("/login/").content.decode()
    assert "<h1>Войти</h1>" in html
    assert "Пароль" in html
    client.cookies["django_language"] = "en"
    html = client.get("/login/").content.decode()
    assert "<h1>Log in</h1>" in html
    assert "Password" in html


def test_login_then_logout_by_post(client) -> None:
    User.objects.create_user("referee", password="demo12345")

    response = client.post("/login/", {"username": "referee", "password": "demo12345"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    page = client.get("/").content.decode()
    assert "referee" in page
    assert 'action="/logout/"' in page

    response = client.post("/logout/")
    assert response.status_code == 302
    assert "Войти" in client.get("/").content.decode()


def test_wrong_password_shows_a_translated_error(client) -> None:
    User.objects.create_user("referee", password="demo12345")
    response = client.post("/login/", {"username": "referee", "password": "nope"})
    assert response.status_code == 200
    assert "Пожалуйста, введите правильные имя пользователя и пароль" in response.content.decode()


def test_logout_by_get_is_refused(client) -> None:
    assert client.get("/logout/").status_code == 405


@pytest.mark.parametrize(("groups", "superuser", "lands"), [
    ([roles.REFEREE], False, "/matches/?mine=1"),  # his tables
    ([roles.CHIEF_REFEREE], False, "/matches/?status=submitted"),  # what waits for him
    ([roles.ORGANISER], False, "/manage/"),  # his tournaments
    ([roles.REFEREE, roles.CHIEF_REFEREE], False, "/matches/?status=submitted"),
    ([roles.CHIEF_REFEREE, roles.ORGANISER], False, "/manage/"),
    ([], True, "/manage/"),  # a superuser holds every role
    ([], False, "/"),  # a player or spectator with an account
])  # fmt: skip
def test_after_signing_in_each_lands_where_his_work_is(client, groups, superuser, lands) -> None:
    user = User.objects.create_user("someone", password="demo12345", is_superuser=superuser)
    user.groups.set(Group.objects.filter(name__in=groups))
    response = client.post("/login/", {"username": "someone", "password": "demo12345"})
    assert (response.status_code, response.headers["Location"]) == (302, lands)
    assert client.get(lands).status_code == 200


def test_a_safe_next_still_wins_and_an_unsafe_one_is_ignored(client) -> None:
    user = User.objects.create_user("ref", password="demo12345")
    user.groups.add(Group.objects.get(name=roles.REFEREE))
    form = {"username": "ref", "password": "demo12345"}
    response = client.post("/login/?next=/ratings/", form)
    assert response.headers["Location"] == "/ratings/"
    client.logout()
    response = client.post("/login/?next=https://elsewhere.example/", form)
    assert response.headers["Location"] == "/matches/?mine=1"


def test_the_headers_sign_in_link_comes_back_to_the_page_except_from_home(client) -> None:
    # from the home page «next=/» would have sent everyone back home, past their work
    assert 'href="/login/"' in client.get("/").content.decode()
    assert 'href="/login/?next=/ratings/"' in client.get("/ratings/").content.decode()
