"""No unlimited guessing of passwords, whatever door is used: the login page, the admin's login
and the API token endpoint count failed sign-ins per username (normalised as authentication
normalises it: NFKC, any case) and per client address. The failure that reaches a limit is
answered 429 (Retry-After, a translated message), and so is every attempt after it, the right
password too, until the window is over.

The suite turns the lockout off (root ``conftest.py``); the ``lockout`` fixture turns it on
with low limits. The counts live in the database (django-axes' handler), so they roll back with
each test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from rest_framework.settings import api_settings

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
RIGHT = "right-pass-123"


@pytest.fixture
def lockout(settings: Any) -> Any:
    cache.clear()
    settings.AXES_ENABLED = True
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    settings.LOGIN_FAILURE_WINDOW = 120
    yield settings
    cache.clear()


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def login(client: Client, username: str, password: str) -> Any:
    return client.post("/login/", {"username": username, "password": password})


def token(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post("/api/v1/auth/token/", {"username": username, "password": password},
                       **extra)  # fmt: skip


def test_a_look_alike_username_counts_as_the_same_account(lockout: Any) -> None:
    """Full-width ｒ (U+FF52) is NFKC-normalised to r by the login form: ｒeferee4 signs in as
    referee4, so its failures must count against referee4, in any case and either spelling."""
    User.objects.create_user("referee4", password=RIGHT)
    client = Client()
    codes = [login(client, name, "wrong").status_code
             for name in ("ｒeferee4", "REFEREE4", "ｒｅｆｅｒｅｅ４")]  # fmt: skip
    assert codes == [200, 200, 429]  # the third reaches the limit
    for name in ("referee4", "ｒeferee4"):
        refused = login(client, name, RIGHT)
        assert refused.status_code == 429, name
        assert not signed_in(client)
    assert "Слишком много неудачных попыток входа" in refused.content.decode()


def test_the_lock_is_per_username_from_any_address(lockout: Any) -> None:
    User.objects.create_user("ref", password=RIGHT)
    User.objects.create_user("other", password=RIGHT)
    # an attacker moving between addresses
    codes = [login(Client(REMOTE_ADDR=f"10.0.0.{n}"), "ref", "wrong").status_code
             for n in range(3)]  # fmt: skip
    assert codes == [200, 200, 429]
    elsewhere = Client(REMOTE_ADDR="10.0.1.1")
    refused = login(elsewhere, "ref", RIGHT)
    assert refused.status_code == 429 and int(refused["Retry-After"]) == 120
    assert not signed_in(elsewhere)
    # another account at the same address is not locked by it
    assert login(Client(REMOTE_ADDR="10.0.0.1"), "other", RIGHT).status_code == 302


def test_one_address_trying_many_usernames_is_locked(lockout: Any) -> None:
    """Password spraying: one wrong password on many accounts from one address."""
    User.objects.create_user("victim", password=RIGHT)
    client = Client(REMOTE_ADDR="203.0.113.5")
    codes = [login(client, f"user{n}", "Password1").status_code for n in range(6)]
    assert codes == [200] * 5 + [429]
    refused = login(client, "victim", RIGHT)
    assert refused.status_code == 429 and not signed_in(client)
    # the lock is on that address; the account itself is fine from elsewhere
    assert login(Client(REMOTE_ADDR="203.0.113.6"), "victim", RIGHT).status_code == 302


def test_the_hall_sharing_one_address_is_not_locked_by_a_few_typos(lockout: Any) -> None:
    """Referees sign in from the hall's one address: fewer failures than the address limit,
    spread over accounts, lock nobody out."""
    for n in range(4):
        User.objects.create_user(f"ref{n}", password=RIGHT)
    hall = "198.51.100.1"
    for n in range(4):
        assert login(Client(REMOTE_ADDR=hall), f"ref{n}", "typo").status_code == 200
    for n in range(4):
        assert login(Client(REMOTE_ADDR=hall), f"ref{n}", RIGHT).status_code == 302


def test_the_admin_login_is_locked_too(lockout: Any) -> None:
    User.objects.create_superuser("root", password=RIGHT)
    client = Client()
    codes = [client.post("/admin/login/?next=/admin/", {"username": "root", "password":
                                                         "wrong"}).status_code
             for _ in range(3)]  # fmt: skip
    assert codes == [200, 200, 429]
    refused = client.post("/admin/login/?next=/admin/", {"username": "root", "password": RIGHT})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert not signed_in(client)
    assert client.get("/admin/").status_code == 302  # still sent to the login page


def test_the_token_endpoint_shares_the_lock_and_answers_429_in_the_api_shape(
    lockout: Any,
) -> None:
    User.objects.create_user("ref", password=RIGHT)
    for _ in range(2):
        assert login(Client(), "ref", "wrong").status_code == 200
    assert token(Client(), "ｒef", "wrong").status_code == 429  # the third failure
    refused = token(Client(), "ref", RIGHT)
    assert refused.status_code == 429 and int(refused["Retry-After"]) == 120
    error = refused.json()["errors"][0]
    assert error["code"] == "too_many_attempts" and error["field"] is None
    assert "Слишком много неудачных попыток входа" in error["message"]
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies["django_language"] = "en"
    assert "Too many failed attempts" in token(english, "ref", RIGHT).json()["errors"][0][
        "message"]  # fmt: skip


def test_a_valid_token_or_session_does_not_exempt_the_token_endpoint_from_its_limit(
    lockout: Any,
) -> None:
    """The anonymous rate of the token endpoint is per address: credentials of the caller's
    own (a token header, a session) do not lift it."""
    lockout.LOGIN_FAILURE_LIMIT = lockout.LOGIN_ADDRESS_FAILURE_LIMIT = 10**6
    lockout.REST_FRAMEWORK = {**lockout.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "write_user": None, "write_anon": "3/min"}}  # fmt: skip
    api_settings.reload()
    try:
        mine = User.objects.create_user("mine", password=RIGHT)
        key = token(Client(), "mine", RIGHT).json()["token"]
        with_token = Client(HTTP_AUTHORIZATION=f"Token {key}")
        codes = [token(with_token, f"u{n}", "x").status_code for n in range(4)]
        assert codes == [400, 400, 429, 429]  # the first call above counted too
        session = Client(REMOTE_ADDR="10.0.0.77")
        session.force_login(mine)
        codes = [token(session, f"u{n}", "x").status_code for n in range(4)]
        assert codes == [400, 400, 400, 429]
    finally:
        cache.clear()
        api_settings.reload()


def test_a_successful_sign_in_clears_the_username_count_only(lockout: Any) -> None:
    """A referee who mistyped twice and then got in starts again from zero; the address count
    stays, or an attacker could clear it by signing in to an account of their own."""
    User.objects.create_user("ref", password=RIGHT)
    User.objects.create_user("attacker", password=RIGHT)
    client = Client(REMOTE_ADDR="192.0.2.9")
    for _ in range(2):
        login(client, "ref", "wrong")
    assert login(client, "ref", RIGHT).status_code == 302
    client.logout()
    for _ in range(2):
        assert login(client, "ref", "wrong").status_code == 200
    assert login(client, "ref", RIGHT).status_code == 302  # 2 + 2 failures, not 4 in a row
    client.logout()
    for n in range(5):
        assert login(client, f"someone{n}", "wrong").status_code == 200
    assert login(client, "attacker", RIGHT).status_code == 302
    client.logout()
    # the sixth failure from this address: the attacker's sign-in did not reset the other five
    assert login(client, "someone5", "wrong").status_code == 429
    assert login(client, "ref", RIGHT).status_code == 429


def test_the_limits_come_from_the_environment() -> None:
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.LOGIN_FAILURE_LIMIT, s.LOGIN_ADDRESS_FAILURE_LIMIT, s.LOGIN_FAILURE_WINDOW)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings",
                               "LOGIN_FAILURE_LIMIT": "7", "LOGIN_ADDRESS_FAILURE_LIMIT": "70",
                               "LOGIN_FAILURE_WINDOW": "900"},
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["7", "70", "900"]


def test_an_overlong_or_binary_username_is_a_clear_400(lockout: Any) -> None:
    for name in ("x" * 10_000, "ref\x00"):
        answer = token(Client(), name, "x")
        assert answer.status_code == 400, name
        assert answer.json()["errors"][0]["field"] == "username"
        page = login(Client(), name, "x")
        assert page.status_code == 200 and "_auth_user_id" not in Client().session


def test_attempts_refused_for_a_locked_address_do_not_lock_the_usernames_tried(lockout) -> None:
    """Issue 25: one locked address locked 8 accounts in 40 requests, because every attempt
    it sent, already refused, still counted against the username it named."""
    names = [f"ref{n}" for n in range(8)]
    for name in names:
        User.objects.create_user(name, password=RIGHT)
    attacker = Client(REMOTE_ADDR="10.9.9.9")
    for n in range(6):  # the address reaches its limit on made-up names
        login(attacker, f"nobody{n}", "wrong")
    for name in names:  # then it names real accounts, again and again: all refused
        for _ in range(5):
            assert login(attacker, name, "wrong").status_code == 429
    for name in names:  # the real users, from the hall, are not locked out
        hall = Client(REMOTE_ADDR="10.0.0.1")
        answer = login(hall, name, RIGHT)
        assert answer.status_code == 302 and signed_in(hall), name
