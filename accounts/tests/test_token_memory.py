"""The web process's memory of the API tokens it checked (``accounts.token_memory``): a token
checked once is answered without a query, and anything that ends its right ends it at once —
revoked by its owner, the API's logout, a password change, its user deactivated, its expiry, a
revocation made by another process."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import token_memory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not settings.REDIS_URL, reason="the memory needs the shared Redis cache"),
]

RIGHT = "right-pass-123"


@pytest.fixture
def ref(db: Any) -> User:
    return User.objects.create_user("ref", password=RIGHT)


def obtain(username: str = "ref") -> str:
    answer = Client().post("/api/v1/auth/token/", {"username": username, "password": RIGHT})
    assert answer.status_code == 200, answer.content
    return str(answer.json()["token"])


def api(key: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def me(key: str) -> int:
    return api(key).get("/api/v1/me/").status_code


def token_reads(key: str) -> int:
    """``GET /me/`` (200 expected) and how many of its queries read the token table."""
    with CaptureQueriesContext(connection) as queries:
        assert me(key) == 200
    return sum("knox_authtoken" in q["sql"] for q in queries.captured_queries)


def test_a_checked_token_is_answered_without_reading_it_again(ref: User) -> None:
    key = obtain()
    assert token_reads(key) == 1
    assert token_reads(key) == 0
    assert api(key).get("/api/v1/me/").json()["username"] == "ref"


def test_a_token_revoked_by_its_owner_is_refused_at_once(ref: User) -> None:
    phone, laptop = obtain(), obtain()
    assert me(phone) == 200 and me(phone) == 200  # remembered
    phone_id = next(r["id"] for r in api(laptop).get("/api/v1/auth/tokens/").json()
                    if phone.startswith(r["id"]))  # fmt: skip
    assert api(laptop).delete(f"/api/v1/auth/tokens/{phone_id}/").status_code == 204
    assert me(phone) == 401
    assert me(laptop) == 200


def test_the_logout_ends_a_remembered_token_at_once(ref: User) -> None:
    key = obtain()
    assert me(key) == 200 and me(key) == 200
    assert api(key).post("/api/v1/auth/logout/").status_code == 204
    assert me(key) == 401


def test_a_password_change_ends_remembered_tokens_at_once(ref: User) -> None:
    key = obtain()
    assert me(key) == 200 and me(key) == 200
    ref.set_password("another-pass-456")
    ref.save()
    assert me(key) == 401


def test_a_deactivated_user_is_refused_at_once(ref: User) -> None:
    key = obtain()
    assert me(key) == 200 and me(key) == 200
    ref.is_active = False
    ref.save()
    assert me(key) == 401


def test_a_sign_in_does_not_make_others_forget(ref: User) -> None:
    key = obtain()
    assert token_reads(key) == 1
    User.objects.create_user("other", password=RIGHT)
    obtain("other")  # writes the other user's last_login only
    assert token_reads(key) == 0


def test_a_remembered_token_expires_on_time(ref: User) -> None:
    key = obtain()
    assert me(key) == 200 and me(key) == 200
    later = timezone.now() + timedelta(hours=settings.API_TOKEN_TTL_HOURS, minutes=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert me(key) == 401
    assert me(key) == 401  # and knox deleted it


def test_the_memory_is_off_at_zero_seconds(ref: User, settings: Any) -> None:
    settings.API_TOKEN_MEMORY_SECONDS = 0
    key = obtain()
    assert token_reads(key) == 1
    assert token_reads(key) == 1


def test_without_the_generation_the_database_answers(ref: User) -> None:
    key = obtain()
    assert token_reads(key) == 1
    with mock.patch.object(token_memory, "generation", return_value=None):
        assert token_reads(key) == 1
        assert token_reads(key) == 1


@pytest.mark.django_db(transaction=True)
def test_a_revocation_in_another_process_is_seen_at_once() -> None:
    """Another web process revokes the token (committed, as a real one does): this process,
    which remembers it, refuses it on its next request."""
    User.objects.create_user("ref", password=RIGHT)
    key = obtain()
    assert token_reads(key) == 1
    assert token_reads(key) == 0
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "DATABASE_NAME_OVERRIDE": str(connection.settings_dict["NAME"])}  # fmt: skip
    code = ("import django; django.setup(); from django.contrib.auth.models import User; "
            f"from accounts.tokens import revoke; assert revoke(User.objects.get(username='ref'), "
            f"{key[:15]!r})")  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True, timeout=120)
    assert me(key) == 401
