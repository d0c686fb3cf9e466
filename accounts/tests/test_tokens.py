"""API tokens: stored hashed, expire, listed and revoked one by one by their owner (the API and
the account page), revoked all at once by a password change, the request's own one by the
API's logout; ``POST /api/v1/auth/token/`` still answers ``{"token": …}`` and clients still
send ``Authorization: Token …``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

RIGHT = "right-pass-123"


@pytest.fixture
def ref(db: Any) -> User:
    return User.objects.create_user("ref", password=RIGHT)


def obtain(username: str = "ref", password: str = RIGHT) -> str:
    answer = Client().post("/api/v1/auth/token/", {"username": username, "password": password})
    assert answer.status_code == 200, answer.content
    return str(answer.json()["token"])


def api(key: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def me(key: str) -> int:
    return api(key).get("/api/v1/me/").status_code


def test_a_token_is_obtained_and_used_with_the_token_keyword(ref: User) -> None:
    key = obtain()
    assert me(key) == 200
    assert api(key).get("/api/v1/me/").json()["username"] == "ref"
    assert Client(HTTP_AUTHORIZATION="Token nope").get("/api/v1/me/").status_code == 401


def test_tokens_are_stored_hashed(ref: User) -> None:
    """A copy of the database does not hand out working tokens."""
    key = obtain()
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        for table in tables:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                assert not any(isinstance(v, str) and key in v for v in row), table


def test_a_token_expires(ref: User, settings: Any) -> None:
    key = obtain()
    assert me(key) == 200
    later = timezone.now() + timedelta(hours=settings.API_TOKEN_TTL_HOURS, minutes=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert me(key) == 401


def test_the_owner_lists_and_revokes_tokens_through_the_api(ref: User) -> None:
    phone, laptop = obtain(), obtain()
    User.objects.create_user("other", password=RIGHT)
    theirs = obtain("other")
    listed = api(phone).get("/api/v1/auth/tokens/")
    assert listed.status_code == 200
    rows = listed.json()
    assert len(rows) == 2 and [r["current"] for r in rows].count(True) == 1
    assert all(set(r) >= {"id", "created", "expiry", "current"} for r in rows)
    assert all(not phone.startswith(r["id"]) or r["current"] for r in rows)
    laptop_id = next(r["id"] for r in rows if laptop.startswith(r["id"]))
    # nobody else can revoke it
    assert api(theirs).delete(f"/api/v1/auth/tokens/{laptop_id}/").status_code == 404
    assert me(laptop) == 200
    assert api(phone).delete(f"/api/v1/auth/tokens/{laptop_id}/").status_code == 204
    assert me(laptop) == 401 and me(phone) == 200 and me(theirs) == 200
    assert api(phone).delete(f"/api/v1/auth/tokens/{laptop_id}/").status_code == 404


def test_the_api_logout_revokes_the_requests_own_token(ref: User) -> None:
    this, other = obtain(), obtain()
    assert api(this).post("/api/v1/auth/logout/").status_code == 204
    assert me(this) == 401 and me(other) == 200


def test_a_password_change_on_the_account_page_revokes_every_token(ref: User) -> None:
    tokens = [obtain(), obtain()]
    client = Client()
    client.force_login(ref)
    page = client.get("/account/password/")
    assert page.status_code == 200 and "Смена пароля" in page.content.decode()
    done = client.post("/account/password/", {
        "old_password": RIGHT, "new_password1": "n3w-Secret-pass", "new_password2":
        "n3w-Secret-pass"})  # fmt: skip
    assert done.status_code == 302
    assert [me(key) for key in tokens] == [401, 401]
    assert client.get("/account/").status_code == 200  # the page's own session stays signed in
    assert me(obtain(password="n3w-Secret-pass")) == 200


def test_a_password_set_anywhere_else_revokes_every_token_too(ref: User) -> None:
    """The admin's password form, ``manage.py changepassword`` and a reset all end in
    ``set_password`` and ``save``."""
    key = obtain()
    ref.set_password("another-pass-456")
    ref.save()
    assert me(key) == 401


def test_signing_in_again_does_not_revoke_tokens(ref: User, settings: Any) -> None:
    """A sign-in may re-hash the stored password (a stronger hasher): not a password change."""
    key = obtain()
    stored = User.objects.get(pk=ref.pk).password
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.ScryptPasswordHasher",
                                 *settings.PASSWORD_HASHERS]  # fmt: skip
    assert Client().post("/login/", {"username": "ref", "password": RIGHT}).status_code == 302
    assert User.objects.get(pk=ref.pk).password != stored  # it was re-hashed
    assert me(key) == 200


def test_the_account_page_lists_and_revokes_tokens(ref: User) -> None:
    phone, laptop = obtain(), obtain()
    client = Client()
    client.force_login(ref)
    page = client.get("/account/")
    html = page.content.decode()
    assert page.status_code == 200 and "Ключи API" in html
    assert phone[:8] in html and laptop[:8] in html
    assert phone not in html  # only the start of each key is shown
    listed = api(phone).get("/api/v1/auth/tokens/").json()
    laptop_id = next(r["id"] for r in listed if laptop.startswith(r["id"]))
    done = client.post("/account/tokens/revoke/", {"token": laptop_id})
    assert done.status_code == 302
    assert me(laptop) == 401 and me(phone) == 200
    assert client.post("/account/tokens/revoke/", {"token": "all"}).status_code == 302
    assert me(phone) == 401
    other = User.objects.create_user("other", password=RIGHT)
    theirs = obtain("other")
    client.post("/account/tokens/revoke/", {"token": "all"})
    assert me(theirs) == 200 and other.is_active


def test_the_account_pages_need_a_sign_in() -> None:
    for url in ("/account/", "/account/password/"):
        answer = Client().get(url)
        assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    assert Client().post("/account/tokens/revoke/", {"token": "all"}).status_code == 302
