"""Bad input never breaks the server: random and malformed deals against the API (record and
preview), the referee's HTML form (record and preview), and the protocol's other writes. Every
answer is below 500, and every 4xx of the API carries ``{"errors": [{"code", "message",
"field"}]}`` with a non-empty code (the page's JSON answers too).

Hypothesis drives it; ``max_examples`` is kept small enough for CI (a few seconds per test).
"""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.tokens import issue
from scoring import services
from scoring.models import Match
from scoring.tests.helpers import make_player, sport_deals
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)

SEATS = ["N", "E", "S", "W"]
TILES = [f"{a}:{b}" for a in range(7) for b in range(a + 1)]

# --- strategies ---------------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
seat_or_junk = st.one_of(st.sampled_from(SEATS), st.text(max_size=3), st.integers(), st.none())
hand_text = st.one_of(
    st.lists(st.sampled_from(TILES), max_size=8).map(" ".join),
    st.text(alphabet=string.digits + ": ,-x", max_size=20),
    json_values,
)
seat_maps = st.dictionaries(seat_or_junk.map(str), st.one_of(hand_text, json_values), max_size=5)

#: deal-shaped objects: the contract's keys with right, wrong and missing values
deals = st.fixed_dictionaries(
    {},
    optional={
        "result": st.one_of(st.sampled_from(["domino", "fish", "redeal"]), json_values),
        "by": seat_or_junk,
        "leader": seat_or_junk,
        "hands": st.one_of(seat_maps, json_values),
        "pips": st.one_of(
            st.dictionaries(st.sampled_from(SEATS), st.integers(-5, 10**6), max_size=4),
            json_values,
        ),
        "lead_tile": st.one_of(st.sampled_from(TILES), json_values),
        "last_tiles": st.one_of(st.lists(st.sampled_from(TILES), max_size=3), json_values),
        "boneyard": st.one_of(st.lists(st.sampled_from(TILES), max_size=3), json_values),
        "declared": st.one_of(
            st.dictionaries(st.sampled_from(["NS", "EW"]), st.integers(-5, 500)), json_values
        ),
        "time_up": json_values,
        "client_id": st.one_of(st.uuids().map(str), json_values),
        "expected_version": json_values,
    },
)
bodies = st.one_of(deals, json_values)
headers = st.fixed_dictionaries(
    {},
    optional={
        "HTTP_IDEMPOTENCY_KEY": st.one_of(st.uuids().map(str), st.text(max_size=40)),
        "HTTP_IF_MATCH": st.one_of(st.integers(-3, 99).map(str), st.text(max_size=10)),
    },
)


def header_safe(value: str) -> str:
    return "".join(ch for ch in value if 32 <= ord(ch) < 127)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def chief(db: Any) -> User:
    return make_user("chief", "Chief referee")


@pytest.fixture
def match(chief: User) -> Match:
    seats = {seat: make_player(f"Игрок{seat}").pk for seat in SEATS}
    created = services.create_match(user=chief, seats=seats, label="fuzz")
    for deal in sport_deals()[:2]:
        services.record_deal(created.pk, deal, chief)
    return created


@pytest.fixture
def api(chief: User) -> Client:
    _, token = issue(chief)
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def check_api_answer(response: Any) -> None:
    assert response.status_code < 500, response.content[:500]
    if 400 <= response.status_code < 500:
        body = response.json()
        assert isinstance(body.get("errors"), list) and body["errors"], body
        for item in body["errors"]:
            assert {"code", "message", "field"} <= set(item), item
            assert isinstance(item["code"], str) and item["code"], item


# --- the API ------------------------------------------------------------------------------------


@FUZZ
@given(body=bodies, extra=headers)
def test_random_deals_to_the_api_never_break_it(api, match, body, extra) -> None:
    extra = {k: header_safe(v) for k, v in extra.items()}
    for tail in ("deals/", "deals/preview/"):
        response = api.post(f"/api/v1/matches/{match.pk}/{tail}", json.dumps(body),
                            content_type="application/json", **extra)  # fmt: skip
        check_api_answer(response)


@FUZZ
@given(raw=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)),
       content_type=st.sampled_from(["application/json", "text/plain", "application/xml",
                                     "multipart/form-data; boundary=x",
                                     "application/x-www-form-urlencoded"]))  # fmt: skip
def test_malformed_bodies_are_refused_with_a_code(api, match, raw, content_type) -> None:
    for tail in ("deals/", "deals/preview/", "submit/", "corrections/", "pin/", "confirm/"):
        response = api.generic("POST", f"/api/v1/matches/{match.pk}/{tail}", raw,
                               content_type=content_type)  # fmt: skip
        check_api_answer(response)


@FUZZ
@given(body=bodies, n=st.integers(min_value=0, max_value=40), extra=headers)
def test_random_amendments_and_deletions_never_break_it(api, match, body, n, extra) -> None:
    extra = {k: header_safe(v) for k, v in extra.items()}
    path = f"/api/v1/matches/{match.pk}/deals/{n}/"
    check_api_answer(api.patch(path, json.dumps(body), content_type="application/json",
                               **extra))  # fmt: skip
    check_api_answer(api.delete(path, json.dumps(body), content_type="application/json",
                                **extra))  # fmt: skip


@FUZZ
@given(
    deals_=st.one_of(st.lists(bodies, max_size=4), json_values),
    reason=json_values,
    version=json_values,
)
def test_random_corrections_never_break_it(api, match, deals_, reason, version) -> None:
    body = {"deals": deals_, "reason": reason, "expected_version": version}
    check_api_answer(api.post(f"/api/v1/matches/{match.pk}/corrections/", json.dumps(body),
                              content_type="application/json"))  # fmt: skip


@FUZZ
@given(body=st.dictionaries(st.sampled_from(["rules_preset", "rules_options", "players",
                                             "seats", "referee", "label", "table",
                                             "confirm_pin"]), json_values))  # fmt: skip
def test_random_new_matches_never_break_it(api, body) -> None:
    check_api_answer(api.post("/api/v1/matches/", json.dumps(body),
                              content_type="application/json"))  # fmt: skip


# --- the referee's page -------------------------------------------------------------------------

form_text = st.one_of(st.text(max_size=40), st.sampled_from(["", "0", "-1", "1e9", "N", "x"]))
form_fields = st.fixed_dictionaries(
    {},
    optional={
        "result": st.one_of(st.sampled_from(["domino", "fish", "redeal"]), form_text),
        "by": st.one_of(st.sampled_from(SEATS), form_text),
        "leader": st.one_of(st.sampled_from(SEATS), form_text),
        "mode": st.one_of(st.sampled_from(["tiles", "pips"]), form_text),
        "time_up": st.one_of(st.sampled_from(["on", ""]), form_text),
        "client_id": st.one_of(st.uuids().map(str), form_text),
        "expected_version": st.one_of(st.integers(-5, 50).map(str), form_text),
        **{f"hand_{s}": st.one_of(hand_text.filter(lambda v: isinstance(v, str)), form_text)
           for s in SEATS},
        **{f"pips_{s}": st.one_of(st.integers(-10, 2000).map(str), form_text) for s in SEATS},
    },
)  # fmt: skip


def form_safe(fields: dict[str, str]) -> dict[str, str]:
    # a browser cannot send NUL in a form field; everything else goes as typed
    return {k: v.replace("\x00", "") for k, v in fields.items()}


@FUZZ
@given(fields=form_fields, as_json=st.booleans())
def test_random_referee_forms_never_break_the_page(client, chief, match, fields,
                                                   as_json) -> None:  # fmt: skip
    client.force_login(chief)
    extra = {"HTTP_ACCEPT": "application/json"} if as_json else {}
    for tail in ("deals/", "preview/", "deals/last/", "deals/last/delete/", "submit/"):
        response = client.post(f"/matches/{match.pk}/{tail}", form_safe(fields), **extra)
        assert response.status_code < 500, (tail, fields)
        if as_json and 400 <= response.status_code < 500 and tail in ("deals/", "deals/last/"):
            errors = response.json()["errors"]
            assert errors and all(item["code"] for item in errors), errors


@FUZZ
@given(deals_=st.text(max_size=300), reason=st.text(max_size=40),
       version=form_text, pin=form_text)  # fmt: skip
def test_random_desk_forms_never_break_the_pages(client, chief, match, deals_, reason,
                                                 version, pin) -> None:  # fmt: skip
    client.force_login(chief)
    fields = form_safe({"deals": deals_, "reason": reason, "expected_version": version,
                        "pin": pin})  # fmt: skip
    for tail in ("correct/", "confirm/", "pin/", "submit/"):
        response = client.post(f"/matches/{match.pk}/{tail}", fields)
        assert response.status_code < 500, (tail, fields)


# --- regressions found by the fuzzing ------------------------------------------------------------


@pytest.mark.parametrize("value", [[1], {"v": 1}, "x", "", 1.5, True, "-1"])
def test_an_expected_version_that_is_not_a_number_is_a_400(api, match, value) -> None:
    """Was a 500 (``int()`` of a list)."""
    deal = sport_deals()[2] | {"expected_version": value}
    for tail in ("deals/",):
        response = api.post(f"/api/v1/matches/{match.pk}/{tail}", json.dumps(deal),
                            content_type="application/json")  # fmt: skip
        assert response.status_code == 400, response.content
        assert [e["code"] for e in response.json()["errors"]] == ["bad_version"]
    assert Match.objects.get(pk=match.pk).deals.count() == 2


def test_a_body_django_refuses_to_read_is_a_coded_400(api, match) -> None:
    """Was Django's HTML 400 page (and its debug page with DEBUG on): too many multipart parts
    or fields raise SuspiciousOperation, which DRF does not handle."""
    fields = {f"f{i}": "x" for i in range(1100)}
    for tail in ("corrections/", "deals/"):
        response = api.post(f"/api/v1/matches/{match.pk}/{tail}", fields)
        assert response.status_code == 400
        assert response["Content-Type"].startswith("application/json")
        assert [e["code"] for e in response.json()["errors"]] == ["malformed_request"]


# --- every knob's bounds, every JSON endpoint's depth and size ----------------------------------

from rules import KNOBS  # noqa: E402

NUMBER_KNOBS = sorted(name for name, knob in KNOBS.items() if knob.kind is int)


@FUZZ
@given(name=st.sampled_from(NUMBER_KNOBS), above=st.integers(min_value=1, max_value=2**70))
def test_every_knob_beyond_its_bound_is_refused_by_the_api(api, name, above) -> None:
    """No number knob takes a value past its bound, however it is sent: a 400 ``bad_option``
    naming ``rules_options``, and no match is made."""
    high = KNOBS[name].high
    assert high is not None
    before = Match.objects.count()
    for preset in ("sport", "kozel"):
        body = {"rules_preset": preset, "rules_options": {name: high + above}}
        response = api.post("/api/v1/matches/", json.dumps(body), content_type="application/json")
        check_api_answer(response)
        assert response.status_code == 400, (name, response.content)
        assert [e["code"] for e in response.json()["errors"]] == ["bad_option"]
    assert Match.objects.count() == before


def _json_endpoints(match: Match) -> list[str]:
    """Every API route that reads a JSON body, from the schema served (none is left out)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = (operation.get("requestBody") or {}).get("content") or {}
            if method in ("post", "put", "patch") and "application/json" in content:
                found.append((method.upper(), path.replace("{id}", str(match.pk))
                              .replace("{n}", "2")))  # fmt: skip
    assert len(found) > 20
    return found


@settings(FUZZ, max_examples=15)  # × every JSON endpoint: about 350 requests
@given(depth=st.integers(min_value=33, max_value=20_000),
       opener=st.sampled_from(["[", '{"a":']), anonymous=st.booleans())  # fmt: skip
def test_deep_json_is_a_400_on_every_json_endpoint(api, match, depth, opener, anonymous) -> None:
    closer = "]" if opener == "[" else "}"
    body = opener * depth + "1" + closer * depth
    client = Client() if anonymous else api
    for method, path in _json_endpoints(match):
        response = client.generic(method, path, body, content_type="application/json")
        check_api_answer(response)
        # refused before anything is read: too large for a deal endpoint (413), or by the
        # parser (400 too_deep); an anonymous write may be a 401 first
        assert response.status_code in (400, 401, 403, 404, 405, 413), (path, response.status_code)
        expected = {400: ["too_deep"], 413: ["too_large"]}.get(response.status_code)
        if expected:
            assert [e["code"] for e in response.json()["errors"]] == expected, path


@settings(FUZZ, max_examples=5)
@given(extra=st.integers(min_value=1, max_value=2**16))
def test_a_body_past_the_limit_is_a_413_on_every_json_endpoint(api, match, extra) -> None:
    from django.conf import settings

    for method, path in _json_endpoints(match):
        limit = (settings.DEAL_MAX_BYTES if "/deals" in path else
                 settings.ARCHIVE_MAX_BYTES if path.endswith("/import/") else
                 settings.REQUEST_MAX_BYTES)  # fmt: skip
        if limit > 4 * 2**20:
            continue  # the archive's 64 MB: its own test, with a smaller setting
        body = json.dumps({"pad": "x" * (limit + extra)})
        response = api.generic(method, path, body, content_type="application/json")
        assert response.status_code == 413, (path, response.status_code)
        assert [e["code"] for e in response.json()["errors"]] == ["too_large"], path
    assert Match.objects.get(pk=match.pk).deals.count() == 2


@FUZZ
@given(text=st.text(min_size=1, max_size=20), where=st.integers(min_value=0, max_value=20))
def test_nul_anywhere_in_a_deal_is_a_400_that_stores_nothing(api, match, text, where) -> None:
    deal = sport_deals()[2]
    poisoned = text[:where] + "\x00" + text[where:]
    for body in (deal | {"by": poisoned}, deal | {"hands": {poisoned: "1:1"}},
                 deal | {"declared": {"NS": 1, poisoned: 2}}):  # fmt: skip
        response = api.post(f"/api/v1/matches/{match.pk}/deals/", json.dumps(body),
                            content_type="application/json")  # fmt: skip
        check_api_answer(response)
        assert response.status_code == 400
    assert Match.objects.get(pk=match.pk).deals.count() == 2
