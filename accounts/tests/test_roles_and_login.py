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
