"""Security properties other than who may write what (that is test_permissions.py):

* CSRF: every page that accepts POST refuses one without the token (403), and so does the API
  for a session-authenticated write (token-authenticated clients carry no cookie to abuse);
* names with HTML/JS in them (players, clubs, tournaments, entries, referees, match labels)
  render inert on every page they appear on;
* throttling: failed logins (page, admin and API token) per username and per address, API
  writes per user and per anonymous address; reads are never throttled;
* production errors show no debug detail; the API's 404/500 are its JSON error body;
* secrets come only from the environment.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, path, reverse
from rest_framework.settings import api_settings

from accounts.tokens import issue
from scoring.models import Match
from tournaments.models import Club, Entry, Pairing, Player, Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

# --- every page that takes a POST, from the URL resolver ----------------------------------------


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[tuple[str, Any]]:
    """(qualified url name, view class) of every named route."""
    out = []
    for item in patterns:
        if isinstance(item, URLResolver):
            ns = item.namespace or namespace
            qualified = f"{ns}:" if item.namespace else ""
            out += [(qualified + name if qualified and ":" not in name else name, view)
                    for name, view in walk(item.url_patterns, prefix, ns)]  # fmt: skip
        elif isinstance(item, URLPattern) and item.name:
            view = getattr(item.callback, "view_class", None) or getattr(item.callback, "cls", None)
            out.append((item.name, view))
    return out


def post_pages() -> dict[str, Any]:
    """Site pages (not the API, not Django's admin) whose view handles POST."""
    pages = {}
    for name, view in walk(get_resolver().url_patterns):
        module = getattr(view, "__module__", "") or ""
        if view is None or module.startswith(("rest_framework", "drf_spectacular")):
            continue
        if name.startswith("api") or ".api" in module or module.endswith("archive_api"):
            continue
        if hasattr(view, "post") and "post" in getattr(view, "http_method_names", ["post"]):
            pages[name] = view
    return pages


def test_the_post_pages_are_found() -> None:
    pages = post_pages()
    assert {
        "login",
        "logout",
        "scoring:record",
        "tournaments:manage_setup",
        "tournaments:manage_round_action",
        "tournaments:manage_revoke_sanction",
    } <= set(pages)
    assert not any(name.startswith("api") for name in pages)


@pytest.fixture
def world(db: Any, organiser, pairs) -> dict[str, Any]:
    """A tournament with round 1 published (a match in play) and a sanction to revoke."""
    from tournaments import discipline

    tournament = Tournament.objects.create(name="CSRF", rounds=3, public=True)
    tournament.organisers.add(organiser)
    a, b = pairs(tournament, 2)
    round_ = play_round(tournament, 1, [(a, b, None)])
    match = Pairing.objects.get(round=round_, table=1).match
    sanction = discipline.record_sanction(organiser, tournament.pk, entry_id=a.pk, round_number=1,
                                       kind="yellow", reason="x")  # fmt: skip
    from tournaments.substitutes import set_substitute

    spare = Player.objects.create(last_name="Запасов")
    substitute = set_substitute(organiser, tournament.pk, replaced=a.players.first().pk,
                                player=spare.pk, from_round=3, to_round=3)  # fmt: skip
    return {"t": tournament, "entry": a, "round": round_, "match": match, "sanction": sanction,
            "substitute": substitute}


def url_of(name: str, world: dict[str, Any]) -> str:
    """A concrete URL of a named page, pointing at the world's objects."""
    t, match = world["t"], world["match"]
    if name == "scoring:photo":  # no such photograph: refused or not found, never shown
        return reverse(name, args=[match.pk, 10**6])
    if name.startswith("scoring:") and name != "scoring:create":
        return reverse(name, args=[match.pk])
    candidates = {"pk": t.pk, "entry_id": world["entry"].pk, "number": 1,
                  "sanction_id": world["sanction"].pk,
                  "substitute_id": world["substitute"].pk,
                  "token": "0" * 32, "merge_id": "0" * 32}  # fmt: skip
    for action in (None, "withdraw", "publish"):
        for size in range(len(candidates), -1, -1):
            for keys in itertools.combinations(candidates, size):
                kwargs: dict[str, Any] = {k: candidates[k] for k in keys}
                if action:
                    kwargs["action"] = action
                try:
                    return reverse(name, kwargs=kwargs)
                except NoReverseMatch:
                    continue
    raise AssertionError(f"no URL for {name}")


@pytest.mark.parametrize("name", sorted(post_pages()))
def test_every_post_page_refuses_a_post_without_the_csrf_token(name: str, world) -> None:
    admin = User.objects.create_superuser("root", password="root-pass-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    url = url_of(name, world)
    before = Match.objects.get(pk=world["match"].pk).version, Round.objects.count()
    response = client.post(url, {"name": "x", "result": "redeal", "reason": "x"})
    assert response.status_code == 403, (name, url, response.status_code)
    assert b'data-why="csrf"' in response.content  # the refusal page, in words
    assert (Match.objects.get(pk=world["match"].pk).version, Round.objects.count()) == before


def test_with_the_token_the_same_post_goes_through(world, organiser) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:manage_setup", args=[world["t"].pk]))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content)[1].decode()
    response = client.post(reverse("tournaments:manage_close", args=[world["t"].pk]),
                           {"csrfmiddlewaretoken": token})  # fmt: skip
    assert response.status_code == 302  # refused by the rules (rounds open), not by CSRF


def test_login_form_needs_the_token_too(db) -> None:
    User.objects.create_user("ref", password="ref-pass-123")
    response = Client(enforce_csrf_checks=True).post(
        "/login/", {"username": "ref", "password": "ref-pass-123"}
    )
    assert response.status_code == 403


def test_a_session_authenticated_api_write_needs_the_csrf_token(world, organiser) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    url = f"/api/v1/tournaments/{world['t'].pk}/"
    response = client.patch(url, '{"venue": "x"}', content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"][0]["message"]
    _, token = issue(organiser)
    with_token = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Token {token}")
    assert with_token.patch(url, '{"venue": "x"}',
                            content_type="application/json").status_code == 200  # fmt: skip


# --- names with HTML and JavaScript -------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
RAW = ("<script>alert(1)", "<img src=x onerror")


@pytest.fixture
def evil(db: Any, organiser) -> dict[str, Any]:
    from tournaments import discipline

    club = Club.objects.create(name=SCRIPT + " club", city=IMG)
    tournament = Tournament.objects.create(name=IMG + " cup", venue=SCRIPT, rounds=2, public=True)
    tournament.organisers.add(organiser)
    players = [Player.objects.create(last_name=SCRIPT + str(i), first_name=IMG, club=club)
               for i in range(4)]  # fmt: skip
    a = Entry.objects.create(tournament=tournament, name=SCRIPT + " A", club=club, seed=1)
    b = Entry.objects.create(tournament=tournament, name=IMG + " B", club=club, seed=2)
    a.players.set(players[:2])
    b.players.set(players[2:])
    referee = make_user("ref_evil", "Referee")
    referee.first_name, referee.last_name = SCRIPT, IMG
    referee.save()
    round_ = play_round(tournament, 1, [(a, b, None)])
    pairing = Pairing.objects.get(round=round_, table=1)
    Pairing.objects.filter(pk=pairing.pk).update(referee=referee)
    Match.objects.filter(pk=pairing.match_id).update(
        label=SCRIPT + " match", table=IMG, referee=referee, seat_n=players[0],
        seat_e=players[2], seat_s=players[1], seat_w=players[3],
    )  # fmt: skip
    discipline.record_sanction(organiser, tournament.pk, entry_id=b.pk, round_number=1,
                            kind="yellow", reason=SCRIPT)  # fmt: skip
    return {"t": tournament, "round": round_, "match": Match.objects.get(pk=pairing.match_id),
            "entry": a, "player": players[0], "referee": referee}  # fmt: skip


def evil_pages(evil: dict[str, Any]) -> list[str]:
    t, match = evil["t"].pk, evil["match"].pk
    return [
        "/", f"/tournaments/{t}/", f"/tournaments/{t}/rounds/1/",
        f"/tournaments/{t}/standings/", f"/tournaments/{t}/standings/?scope=players",
        f"/tournaments/{t}/crosstable/", f"/tournaments/{t}/hall/",
        f"/players/{evil['player'].pk}/",
        "/manage/", f"/manage/{t}/", f"/manage/{t}/setup/", f"/manage/{t}/entries/",
        f"/manage/{t}/entries/{evil['entry'].pk}/", f"/manage/{t}/rounds/1/",
        f"/manage/{t}/rounds/1/print/", f"/manage/{t}/discipline/", f"/manage/{t}/audit/",
        "/matches/", f"/matches/{match}/", f"/matches/{match}/history/",
        f"/matches/{match}/submit/", f"/matches/{match}/confirm/", f"/matches/{match}/print/",
        f"/matches/{match}/correct/", f"/matches/{match}/transcribe/",
    ]  # fmt: skip


@pytest.mark.parametrize("language", ["ru", "en"])
def test_names_with_html_and_javascript_render_inert_everywhere(evil, language) -> None:
    admin = User.objects.create_superuser("root", password="root-pass-123")
    admin.groups.add(*make_user("tmp", "Chief referee", "Organiser").groups.all())
    client = Client()
    client.force_login(admin)
    client.cookies["django_language"] = language
    shown = 0
    for url in evil_pages(evil):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        html = response.content.decode()
        for raw in RAW:
            assert raw not in html, (url, raw)
        shown += "&lt;script&gt;alert(1)" in html or "&lt;img src=x onerror" in html
    assert shown >= len(evil_pages(evil)) - 2  # the names really are on the pages


def test_names_in_the_api_are_data_not_markup(evil) -> None:
    response = Client().get(f"/api/v1/tournaments/{evil['t'].pk}/")
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["name"] == IMG + " cup"  # JSON carries the text as it is


# --- throttling -------------------------------------------------------------------------------


@pytest.fixture
def throttles(settings) -> Any:
    cache.clear()
    settings.AXES_ENABLED = True  # off for the rest of the suite (root conftest.py)
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_FAILURE_WINDOW = 60
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "write_user": "5/min", "write_anon": "3/min"}}  # fmt: skip
    api_settings.reload()
    yield settings
    cache.clear()
    api_settings.reload()


def test_failed_logins_are_throttled_per_address_and_username(throttles, client) -> None:
    """The failure that reaches the limit already answers 429 (accounts/tests/test_lockout.py
    has the per-address limit and the look-alike usernames)."""
    from datetime import timedelta
    from unittest import mock

    from django.utils import timezone

    User.objects.create_user("ref", password="right-pass-123")
    codes = [client.post("/login/", {"username": "ref", "password": "wrong"}).status_code
             for _ in range(3)]  # fmt: skip
    assert codes == [200, 200, 429]  # the form again with its error, then the refusal
    blocked = client.post("/login/", {"username": "ref", "password": "right-pass-123"})
    assert blocked.status_code == 429 and blocked["Retry-After"] == "60"
    assert "Слишком много неудачных попыток" in blocked.content.decode()
    assert "_auth_user_id" not in client.session  # even the right password waits
    # another username from the same address may try; the same one from another address not
    assert client.post("/login/", {"username": "other", "password": "x"}).status_code == 200
    elsewhere = Client(REMOTE_ADDR="10.0.0.9")
    assert (
        elsewhere.post("/login/", {"username": "ref", "password": "right-pass-123"}).status_code
        == 429
    )
    later = timezone.now() + timedelta(seconds=61)  # the window is over
    with mock.patch("axes.handlers.proxy.now", return_value=later):
        assert (
            client.post("/login/", {"username": "ref", "password": "right-pass-123"}).status_code
            == 302
        )


def test_a_successful_login_clears_the_count(throttles, client) -> None:
    User.objects.create_user("ref", password="right-pass-123")
    for _ in range(2):
        client.post("/login/", {"username": "ref", "password": "wrong"})
    assert (
        client.post("/login/", {"username": "ref", "password": "right-pass-123"}).status_code == 302
    )
    client.logout()
    for _ in range(2):
        assert client.post("/login/", {"username": "ref", "password": "wrong"}).status_code == 200
    assert (
        client.post("/login/", {"username": "ref", "password": "right-pass-123"}).status_code == 302
    )


def test_the_api_token_endpoint_shares_the_login_limit(throttles, client) -> None:
    throttles.REST_FRAMEWORK = {**throttles.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "write_user": None, "write_anon": "100/min"}}  # fmt: skip
    api_settings.reload()
    User.objects.create_user("ref", password="right-pass-123")
    codes = [client.post("/api/v1/auth/token/", {"username": "ref", "password": "bad"})
             .status_code for _ in range(3)]  # fmt: skip
    assert codes == [400, 400, 429]
    blocked = client.post("/api/v1/auth/token/", {"username": "ref",
                                                  "password": "right-pass-123"})  # fmt: skip
    assert blocked.status_code == 429
    assert blocked.json()["errors"][0]["code"] == "too_many_attempts"


def test_behind_the_proxy_the_forwarded_address_counts(throttles, settings) -> None:
    from accounts.lockout import client_address

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}

    class Req:
        META = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.7"}

    assert client_address(Req()) == "203.0.113.7"  # the entry nginx added, not the forged one
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    assert client_address(Req()) == "127.0.0.1"


def test_api_writes_are_throttled_per_user_and_reads_are_not(throttles, organiser) -> None:
    _, token = issue(organiser)
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    codes = [api.post("/api/v1/clubs/", {"name": f"Клуб {i}"}).status_code for i in range(7)]
    assert codes == [201] * 5 + [429] * 2
    refused = api.post("/api/v1/clubs/", {"name": "Клуб 9"})
    assert refused.json()["errors"][0]["code"] == "throttled" and "Retry-After" in refused
    assert Club.objects.count() == 5
    assert all(api.get("/api/v1/clubs/").status_code == 200 for _ in range(20))
    other = Client(
        HTTP_AUTHORIZATION=f"Token {issue(make_user('o2', 'Organiser'))[1]}"
    )
    assert other.post("/api/v1/clubs/", {"name": "Клуб другого"}).status_code == 201


def test_anonymous_api_writes_are_throttled_per_address(throttles) -> None:
    """The token endpoint is the API's one anonymous write: one address trying many usernames
    is stopped by the anonymous rate (the failure limit counts per username). Other anonymous
    writes are refused (401) before any work, throttled or not; reads are never throttled."""
    anonymous = Client()
    codes = [anonymous.post("/api/v1/auth/token/", {"username": f"u{i}", "password": "x"})
             .status_code for i in range(5)]  # fmt: skip
    assert codes == [400, 400, 400, 429, 429]
    assert Client(REMOTE_ADDR="10.0.0.8").post("/api/v1/auth/token/", {
        "username": "u9", "password": "x"}).status_code == 400  # fmt: skip
    assert all(anonymous.post("/api/v1/clubs/", {"name": "x"}).status_code in (401, 429)
               for _ in range(3))  # fmt: skip
    assert not Club.objects.exists()
    assert all(anonymous.get("/api/v1/tournaments/").status_code == 200 for _ in range(10))


def test_the_production_rates_come_from_the_environment() -> None:
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], s.LOGIN_FAILURE_LIMIT)")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings",
                               "API_WRITE_RATE": "1000/min", "LOGIN_FAILURE_LIMIT": "7"},
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "'write_user': '1000/min'" in done.stdout and "'write_anon': '60/min'" in done.stdout
    assert done.stdout.strip().endswith(" 7")


# --- production errors ----------------------------------------------------------------------


def boom(request: Any) -> Any:
    raise RuntimeError("secret detail: DATABASE password=hunter2")


def _boom_api_view() -> Any:
    from rest_framework.views import APIView

    class Boom(APIView):
        permission_classes: list[Any] = []

        def get(self, request: Any) -> Any:
            raise RuntimeError("secret detail: DATABASE password=hunter2")

    return Boom.as_view()


urlpatterns = [
    path("boom/", boom),
    path("api/v1/boom/", _boom_api_view()),
    *get_resolver("config.urls").url_patterns,
]
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"

LEAKS = ("Traceback", "hunter2", "secret detail", "SECRET_KEY", "settings.py", "DATABASES",
         "Request Method", "Django Version", "URLconf")  # fmt: skip


@pytest.fixture
def production(settings) -> Any:
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__
    settings.ALLOWED_HOSTS = ["testserver"]
    return settings


def test_a_500_page_shows_no_debug_detail(production) -> None:
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert all(leak not in html for leak in LEAKS), html


def test_an_api_500_is_a_generic_json_error(production) -> None:
    response = Client(raise_request_exception=False).get("/api/v1/boom/")
    assert response.status_code == 500
    assert response.json() == {"errors": [{"code": "server_error", "message": response.json()[
        "errors"][0]["message"], "field": None}]}  # fmt: skip
    assert all(leak not in response.content.decode() for leak in LEAKS)


def test_404_pages_show_no_debug_detail(production) -> None:
    page = Client().get("/no/such/page/")
    assert page.status_code == 404
    assert all(leak not in page.content.decode() for leak in LEAKS)
    api = Client().get("/api/v1/no-such-thing/")
    assert api.status_code == 404 and api.json()["errors"][0]["code"] == "not_found"
    assert Client().get("/api/v1/tournaments/999999/").json()["errors"][0]["code"] == "not_found"


# --- secrets --------------------------------------------------------------------------------


def test_settings_hold_no_production_secret() -> None:
    """Every secret is read from the environment; the one literal key is the development
    fallback, refused when DEBUG is off (test_settings.py checks that refusal)."""
    text = (ROOT / "config" / "settings.py").read_text()
    literals = re.findall(r"""(?i)(secret|password|token|key)\w*\s*=\s*["']([^"']{8,})["']""",
                          text)  # fmt: skip
    assert [value for _name, value in literals] == [
        "django-insecure-development-only-key-never-use-in-production"
    ]
    assert re.search(r'SECRET_KEY = env\.str\("SECRET_KEY"', text)
    for url_setting in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        assert "env." in text and f'"{url_setting}"' in text
    assert not re.search(r"postgres://\w+:\w+@", text)  # no password in a default URL


def test_no_secret_is_committed_in_the_repository() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    pattern = re.compile(r"(?i)(aws_secret|BEGIN (RSA|EC|OPENSSH) PRIVATE KEY|"
                         r"SECRET_KEY=(?!change-me)[A-Za-z0-9_\-]{20,})")  # fmt: skip
    found = []
    for name in tracked.stdout.split():
        file = ROOT / name
        if file == Path(__file__):  # the patterns themselves
            continue
        if file.suffix in (".py", ".md", ".example", ".sh", ".service", ".conf", ".txt", ".toml",
                           ".yml", ".yaml", ".json", ".env") and file.is_file():  # fmt: skip
            if pattern.search(file.read_text(errors="replace")):
                found.append(name)
    assert found == []
