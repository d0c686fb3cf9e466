"""Schemathesis against the API's own OpenAPI schema (``/api/schema/``): every operation, with
the token of a user who is an organiser of the tournament and a chief referee, gets generated
(valid and invalid) requests; none may answer 5xx, and every 4xx carries the common error body
``{"errors": [{"code", "message", "field"}]}`` with a non-empty code.

Path ids are replaced by ids of real objects of a small tournament (a round paired, a match in
play, a sanction), so the requests reach the services rather than stopping at 404. Schemathesis
generates the cases; Django's test client sends them inside the test's transaction.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest
import schemathesis
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings

from accounts.tokens import issue
from scoring import services as scoring
from scoring.tests.helpers import sport_deals
from tournaments import discipline
from tournaments.models import Pairing, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db

EXAMPLES = 12


def load_schema() -> Any:
    raw = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True),
                                default=str))  # fmt: skip
    return schemathesis.openapi.from_dict(raw)


SCHEMA = load_schema()
OPERATIONS = {op.label: op for op in (r.ok() for r in SCHEMA.get_all_operations())}


def test_the_schema_served_at_api_schema_is_the_one_tested(client) -> None:
    served = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert served.status_code == 200
    paths = json.loads(served.content)["paths"]
    labels = {f"{m.upper()} {p}" for p, ops in paths.items() for m in ops
              if m in ("get", "post", "put", "patch", "delete")}  # fmt: skip
    assert labels == set(OPERATIONS) and len(labels) > 40


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    """A tournament with a finished-to-be round 1 (a match in play with two deals) and a
    sanction; the user organises it and is its chief referee."""
    boss = make_user("boss", "Organiser", "Chief referee")
    tournament = Tournament.objects.create(name="Fuzz", rounds=3, public=True)
    tournament.organisers.add(boss)
    tournament.chief_referees.add(boss)
    a, b, c, d = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, None), (c, d, (120, 80))])
    match = Pairing.objects.get(round=round_, table=1).match
    for deal in sport_deals()[:2]:
        scoring.record_deal(match.pk, deal, boss)
    sanction = discipline.record_sanction(boss, tournament.pk, entry_id=b.pk, round_number=1,
                                       kind="yellow", reason="fuzz")  # fmt: skip
    ids = {"tournaments": tournament.pk, "matches": match.pk, "rounds": round_.pk,
           "entries": a.pk, "sanctions": sanction.pk, "players": a.players.first().pk,
           "clubs": a.club_id}  # fmt: skip
    return {"token": issue(boss)[1], "ids": ids, "match": match}


def real_path(case: Any, ids: dict[str, int]) -> str:
    path = case.operation.path
    resource = re.match(r"^/api/v1/(\w+)/", path)
    if resource and "{id}" in path:
        # a world object of that resource, or (the caller's API tokens) the generated id
        path = path.replace("{id}", str(ids.get(resource[1], case.path_parameters.get("id"))))
    if "{n}" in path:
        path = path.replace("{n}", str(case.path_parameters.get("n", 2)))
    return path


def send(client: Client, case: Any, path: str, token: str) -> Any:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    headers = {k: v for k, v in kwargs.get("headers", {}).items()
               if k.lower() not in ("authorization", "content-type", "content-length", "cookie",
                                    "connection", "accept-encoding", "host")}  # fmt: skip
    extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
    extra["HTTP_AUTHORIZATION"] = f"Token {token}"
    query = kwargs.get("params") or {}
    url = path + ("?" + urlencode(query, doseq=True) if query else "")
    method = case.method.lower()
    if "json" in kwargs:
        return client.generic(case.method, url, json.dumps(kwargs["json"]),
                              content_type="application/json", **extra)  # fmt: skip
    if kwargs.get("files") is not None:
        data: dict[str, Any] = {}
        for name, (filename, value, *_rest) in kwargs["files"]:
            data[name] = (SimpleUploadedFile(filename, value if isinstance(value, bytes)
                                             else str(value).encode())
                          if filename else value)  # fmt: skip
        return getattr(client, method)(url, data, **extra)
    if kwargs.get("data") is not None:
        body = kwargs["data"]
        if isinstance(body, dict):
            return client.generic(
                case.method,
                url,
                urlencode(body, doseq=True),
                content_type="application/x-www-form-urlencoded",
                **extra,
            )
        return client.generic(case.method, url, body, content_type=case.media_type or
                              "application/octet-stream", **extra)  # fmt: skip
    return client.generic(case.method, url, **extra)


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_operation_answers_below_500_with_coded_refusals(label: str, world) -> None:
    operation = OPERATIONS[label]
    client = Client()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(case=operation.as_strategy())
    def check(case: Any) -> None:
        path = real_path(case, world["ids"])
        response = send(client, case, path, world["token"])
        assert response.status_code < 500, (label, path, case.body, response.content[:300])
        if 400 <= response.status_code < 500 and response.status_code != 405:
            body = response.json()
            assert body.get("errors"), (label, case.body, body)
            for item in body["errors"]:
                assert {"code", "message", "field"} <= set(item) and item["code"], item

    check()
