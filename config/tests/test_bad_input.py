"""Bad input never costs more than a 4xx: each hole found in the running app, over raw HTTP as
the attacker sent it (Django's test client; on PostgreSQL when ``DATABASE_URL`` says so, where
NUL and integer ranges are refused by the database itself).

Each test sends what used to cost a 500, hours of CPU or megabytes of storage, and checks the
answer a client sees (status, the common error body, the code) and that nothing was written.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from django.test import Client, override_settings

from accounts.tokens import issue
from scoring import services as scoring
from scoring.models import Deal, Match
from scoring.tests.helpers import sport_deals
from tournaments.models import Pairing, Sanction, Tournament
from tournaments.registration import rules_form
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db

REDEAL = {"result": "redeal", "hands": {"N": "0:0 1:1 2:2 3:3 4:4 1:0 2:0",
                                        "E": "5:5 6:6 2:1 3:0 3:1 3:2 4:0",
                                        "S": "4:1 4:2 4:3 5:0 5:1 5:2 5:3",
                                        "W": "5:4 6:0 6:1 6:2 6:3 6:4 6:5"}}  # fmt: skip


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    boss = make_user("boss", "Organiser", "Chief referee")
    tournament = Tournament.objects.create(name="Кубок", rounds=3, public=True)
    tournament.organisers.add(boss)
    tournament.chief_referees.add(boss)  # he corrects this event's protocols
    a, b, c, d = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, None), (c, d, (120, 80))])
    match = Pairing.objects.get(round=round_, table=1).match
    for deal in sport_deals()[:2]:
        scoring.record_deal(match.pk, deal, boss)
    token = issue(boss)[1]
    return {"boss": boss, "tournament": tournament, "round": round_, "match": match,
            "entry": a, "api": Client(HTTP_AUTHORIZATION=f"Token {token}")}  # fmt: skip


def post(client: Client, url: str, body: Any, method: str = "POST") -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.generic(method, url, data, content_type="application/json")


def codes(response: Any) -> list[str]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return [item["code"] for item in response.json()["errors"]]


# --- rules: every knob bounded ---------------------------------------------------------------


def test_a_match_of_400000_deals_is_refused_on_every_path(world) -> None:
    api = world["api"]
    before = Match.objects.count()
    answer = post(api, "/api/v1/matches/", {"rules_options": {"deals": 400000}})
    assert answer.status_code == 400 and codes(answer) == ["bad_option"]
    assert answer.json()["errors"][0]["field"] == "rules_options"
    answer = post(api, f"/api/v1/tournaments/{world['tournament'].pk}/",
                  {"rules_options": {"target": 10**6}}, "PATCH")  # fmt: skip
    assert answer.status_code == 400 and "bad_option" in codes(answer)
    world["tournament"].refresh_from_db()
    assert world["tournament"].rules_options == {}
    page = Client()
    page.force_login(world["boss"])
    answer = page.post("/manage/new/", {
        "name": "Длинный", "rules_preset": "sport",
        **rules_form.posted("sport", {"deals": 400000}),
        "format": "pairs", "system": "swiss", "rounds": 5, "points_win": 2, "points_draw": 1,
        "points_loss": 0, "bye_result": "win", "club_avoidance": "among_equals",
        "club_strict_until": 0, "first_round": "seed",
    })  # fmt: skip
    assert answer.status_code == 400 and "400000" in answer.content.decode()
    assert not Tournament.objects.filter(name="Длинный").exists()
    assert Match.objects.count() == before


def test_the_largest_protocol_the_rules_allow_prints_quickly(world) -> None:
    """deals: 400000 made /print/ take 14 s and the PDF run until the worker was killed; the
    bound (100) prints its blank rows in well under a second each."""
    match = scoring.create_match(user=world["boss"], rules_options={"deals": 100})
    page = Client()
    page.force_login(world["boss"])
    for url, most in ((f"/matches/{match.pk}/print/?blank=1", 2.0),
                      (f"/matches/{match.pk}/protocol.pdf", 10.0)):  # fmt: skip
        started = time.monotonic()
        answer = page.get(url)
        assert answer.status_code == 200
        assert time.monotonic() - started < most, url
    html = page.get(f"/matches/{match.pk}/print/?blank=1").content.decode()
    assert html.count("<tr") < 120  # 100 deals, spare rows, heads; not 400,000


def test_the_deal_after_the_limit_is_refused_before_the_database(world) -> None:
    """A smallint deal number ended the 32,768th deal in a 500; now the rules bound a match
    (16 entries for eight deals: as many redeals as deals) and the next is a 400."""
    api, boss = world["api"], world["boss"]
    match = scoring.create_match(user=boss)
    for _ in range(16):
        assert post(api, f"/api/v1/matches/{match.pk}/deals/", REDEAL).status_code == 201
    answer = post(api, f"/api/v1/matches/{match.pk}/deals/", REDEAL)
    assert answer.status_code == 400 and codes(answer) == ["too_many_deals"]
    assert Deal.objects.filter(match=match).count() == 16


def test_a_correction_longer_than_the_rules_allow_is_refused_unjudged(world) -> None:
    match = world["match"]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    answer = post(world["api"], f"/api/v1/matches/{match.pk}/corrections/",
                  {"deals": [REDEAL] * 5000, "reason": "flood"})  # fmt: skip
    assert answer.status_code == 400 and codes(answer) == ["too_many_deals"]
    assert Deal.objects.filter(match=match).count() == 2


# --- deals store the contract's keys only ----------------------------------------------------


def test_extra_keys_of_a_deal_are_refused_not_stored(world) -> None:
    match, api = world["match"], world["api"]
    deal = sport_deals()[2] | {"padding": "x" * 10_000}
    answer = post(api, f"/api/v1/matches/{match.pk}/deals/", deal)
    assert answer.status_code == 400 and codes(answer) == ["unknown_field"]
    assert answer.json()["errors"][0]["field"] == "padding"
    assert Deal.objects.filter(match=match).count() == 2
    stored = post(api, f"/api/v1/matches/{match.pk}/deals/", sport_deals()[2])
    assert stored.status_code == 201
    assert set(Deal.objects.get(match=match, n=3).record) <= scoring.DEAL_KEYS


# --- request bodies are capped ---------------------------------------------------------------


def test_a_deal_body_past_its_limit_is_a_413_in_the_error_format(world) -> None:
    match = world["match"]
    body = json.dumps(sport_deals()[2] | {"declared": {"NS": 0}, "x": "y" * 2_400_000})
    for tail in ("deals/", "deals/preview/", "deals/2/"):
        answer = world["api"].generic("PATCH" if tail == "deals/2/" else "POST",
                                      f"/api/v1/matches/{match.pk}/{tail}", body,
                                      content_type="application/json")  # fmt: skip
        assert answer.status_code == 413 and codes(answer) == ["too_large"], tail
    assert Deal.objects.filter(match=match).count() == 2


@override_settings(ARCHIVE_MAX_BYTES=50_000)
def test_an_archive_past_its_limit_is_a_413_as_json_and_as_a_file(world) -> None:
    api = world["api"]
    big = json.dumps({"format": "x", "padding": "y" * 60_000})
    answer = post(api, "/api/v1/tournaments/import/", big)
    assert answer.status_code == 413 and codes(answer) == ["too_large"]
    upload = io.BytesIO(big.encode() * 3)
    upload.name = "archive.json"
    answer = api.post("/api/v1/tournaments/import/", {"file": upload})
    assert answer.status_code == 413 and codes(answer) == ["too_large"]
    page = Client()
    page.force_login(world["boss"])
    upload.seek(0)
    assert page.post("/manage/import/", {"file": upload}).status_code == 413
    assert Tournament.objects.count() == 1


@override_settings(REQUEST_MAX_BYTES=10_000)
def test_every_other_body_has_the_default_limit(world) -> None:
    answer = post(world["api"], "/api/v1/clubs/", {"name": "x" * 20_000})
    assert answer.status_code == 413 and codes(answer) == ["too_large"]
    anonymous = post(Client(), "/api/v1/auth/token/", {"username": "u" * 20_000})
    assert anonymous.status_code == 413
    page = Client()
    page.force_login(world["boss"])
    assert page.post("/matches/new/", {"label": "x" * 100_000}).status_code == 413


# --- deep JSON -------------------------------------------------------------------------------

DEEP = "[" * 50_000 + "]" * 50_000


@pytest.mark.parametrize("depth", [33, 5_000, 50_000])
def test_deeply_nested_json_is_a_400_even_for_anonymous_clients(depth) -> None:
    body = "[" * depth + "]" * depth
    answer = post(Client(), "/api/v1/auth/token/", body)
    assert answer.status_code == 400 and codes(answer) == ["too_deep"]


def test_json_32_deep_is_still_read(world) -> None:
    nested: Any = "6:6"
    for _ in range(30):
        nested = [nested]
    answer = post(world["api"], f"/api/v1/matches/{world['match'].pk}/deals/preview/",
                  {"result": "domino", "by": "N", "hands": {"E": nested}})  # fmt: skip
    assert answer.status_code == 200 and b"too_deep" not in answer.content


def test_deep_json_in_the_pages_textareas_is_a_form_error(world) -> None:
    match = world["match"]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    page = Client()
    page.force_login(world["boss"])
    answer = page.post(f"/matches/{match.pk}/correct/", {"deals": DEEP, "reason": "deep"})
    assert answer.status_code == 400
    assert Deal.objects.filter(match=match).count() == 2
    # (the setup page has no JSON field any more: its rules are typed fields)
    upload = io.BytesIO(DEEP.encode())
    upload.name = "deep.json"
    assert page.post("/manage/import/", {"file": upload}).status_code == 400


def test_every_api_view_reads_json_with_the_checked_parser() -> None:
    """The class of the hole: a view naming DRF's stock JSON parser (as ObtainAuthToken does)
    would let deep JSON through as a 500 again."""
    from django.urls import get_resolver
    from rest_framework.parsers import JSONParser as StockParser

    from config.parsers import JSONParser

    seen = 0
    for pattern in _patterns(get_resolver()):
        view = pattern.callback
        cls = getattr(view, "cls", None)
        if cls is None:
            continue
        seen += 1
        parsers = list(getattr(view, "initkwargs", {}).get("parser_classes", cls.parser_classes))
        for name in (getattr(view, "actions", None) or {}).values():
            parsers += getattr(getattr(cls, name), "kwargs", {}).get("parser_classes", [])
        stock = [p for p in parsers if issubclass(p, StockParser) and not
                 issubclass(p, JSONParser)]  # fmt: skip
        assert not stock, (pattern.pattern, stock)
    assert seen > 20


def _patterns(resolver: Any) -> Any:
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            yield from _patterns(pattern)
        else:
            yield pattern


# --- the 500s --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/tournaments/abc/sanctions/",
                                  "/api/v1/tournaments/abc/", "/api/v1/rounds/x1/",
                                  "/api/v1/sanctions/abc/revoke/", "/api/v1/entries/1e3/"])
def test_an_id_that_is_not_a_number_is_a_404(world, path) -> None:
    answer = world["api"].post(path) if "revoke" in path else world["api"].get(path)
    assert answer.status_code == 404 and codes(answer) == ["not_found"]


def test_nul_in_a_deal_or_any_text_is_a_400_and_stores_nothing(world) -> None:
    match, api, tournament = world["match"], world["api"], world["tournament"]
    deal = sport_deals()[2]
    seat = next(iter(deal["hands"]))
    bad_value = deal | {"hands": deal["hands"] | {seat: deal["hands"][seat] + "\x00"}}
    for body in (bad_value, deal | {"junk\x00": 1}, deal | {"declared": {"NS\x00": 1}}):
        for tail in ("deals/", "deals/preview/"):
            answer = post(api, f"/api/v1/matches/{match.pk}/{tail}", body)
            assert answer.status_code == 400, (tail, answer.content)
    assert Deal.objects.filter(match=match).count() == 2
    for url, body in ((f"/api/v1/tournaments/{tournament.pk}/sanctions/",
                       {"entry": world["entry"].pk, "round_number": 1, "kind": "yellow",
                        "reason": "bad\x00"}),
                      ("/api/v1/clubs/", {"name": "Клуб\x00"}),
                      ("/api/v1/matches/", {"label": "a\x00"}),
                      ("/api/v1/tournaments/import/", {"format": "domino\x00"})):  # fmt: skip
        answer = post(api, url, body)
        assert answer.status_code == 400, (url, answer.content)
    assert not Sanction.objects.exists()


@pytest.mark.parametrize("points", [{"game_points": 2**40}, {"match_points": 2**20},
                                    {"game_points": 100_001}, {"match_points": 1001}])
def test_sanction_points_beyond_the_bound_are_a_400(world, points) -> None:
    tournament = world["tournament"]
    body = {"entry": world["entry"].pk, "round_number": 1, "kind": "deduction",
            "reason": "много"} | points  # fmt: skip
    answer = post(world["api"], f"/api/v1/tournaments/{tournament.pk}/sanctions/", body)
    assert answer.status_code == 400 and codes(answer) == ["max_value"]
    page = Client()
    page.force_login(world["boss"])
    form = {"entry": world["entry"].pk, "round_number": 1, "kind": "deduction",
            "reason": "много"} | {k: str(v) for k, v in points.items()}  # fmt: skip
    assert page.post(f"/manage/{tournament.pk}/discipline/", form).status_code == 400
    assert not Sanction.objects.exists()


def test_a_referee_that_does_not_exist_is_refused_on_the_round_page(world) -> None:
    tournament, round_ = world["tournament"], world["round"]
    pairing = Pairing.objects.get(round=round_, table=1)
    page = Client()
    page.force_login(world["boss"])
    answer = page.post(f"/manage/{tournament.pk}/rounds/1/referee/",
                       {"pairing": pairing.pk, "referee": 999_999}, follow=True)  # fmt: skip
    assert answer.status_code == 200
    assert "Нет такого судьи" in answer.content.decode()
    pairing.refresh_from_db()
    assert pairing.referee_id is None
    answer = post(world["api"], f"/api/v1/rounds/{round_.pk}/referee/",
                  {"table": 1, "referee": 999_999})  # fmt: skip
    assert answer.status_code == 400 and codes(answer) == ["does_not_exist"]


def test_rules_options_null_from_a_form_is_a_400(world) -> None:
    tournament = world["tournament"]
    for body in ("rules_options=null", "rules_options=%5B1%5D", "rules_options=" + "%5B" * 9000):
        answer = world["api"].patch(f"/api/v1/tournaments/{tournament.pk}/", body,
                                    content_type="application/x-www-form-urlencoded")
        assert answer.status_code == 400, answer.content
    tournament.refresh_from_db()
    assert tournament.rules_options == {}


@pytest.mark.parametrize("value", [{}, [None], None, False, 5])
def test_a_csv_import_that_is_not_text_is_a_400(world, value) -> None:
    """Found by Schemathesis once the schema named the body: a 500 (``_decode`` of a dict)."""
    tournament = world["tournament"]
    answer = post(world["api"], f"/api/v1/tournaments/{tournament.pk}/entries/import/",
                  {"csv": value})  # fmt: skip
    assert answer.status_code == 400 and codes(answer) == ["not_text"]
    if value is not None and value != {}:  # the body itself not an object (null: no body)
        answer = post(world["api"], f"/api/v1/tournaments/{tournament.pk}/entries/import/",
                      value)  # fmt: skip
        assert answer.status_code == 400 and codes(answer) == ["not_text"], value


def test_a_match_stored_with_rules_past_the_bounds_is_readable_after_the_migration(world):
    """Rules stored before the bounds (an attacker's ``deals: 400000``) are lowered to them by
    ``scoring 0005``, so the match's pages answer again instead of refusing its own rules."""
    import importlib

    from django.apps import apps

    stored = dict(scoring.create_match(user=world["boss"]).rules) | {"deals": 400_000}
    match = Match.objects.create(rules=stored, rules_options={"deals": 400_000})
    migration = importlib.import_module("scoring.migrations.0005_rules_within_bounds")
    migration.lower_to_bounds(apps, None)
    match.refresh_from_db()
    assert match.rules["deals"] == 100 and match.rules_options == {"deals": 100}
    page = Client()
    page.force_login(world["boss"])
    started = time.monotonic()
    assert page.get(f"/matches/{match.pk}/print/?blank=1").status_code == 200
    assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("text", ["0\r0", "entry,last_name\r\"Пара,Иванов", "a\rb\r\nc"])
def test_a_csv_the_csv_module_cannot_read_is_a_400(world, text) -> None:
    """Found by Schemathesis: a lone carriage return ended the import in ``csv.Error`` (500)."""
    tournament = world["tournament"]
    answer = post(world["api"], f"/api/v1/tournaments/{tournament.pk}/entries/import/",
                  {"csv": text})  # fmt: skip
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"]
