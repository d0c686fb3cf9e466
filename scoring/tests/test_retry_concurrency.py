"""One key sent by several requests at the same moment, on PostgreSQL with real connections.

The phone resends while its first request is still being answered, or two devices share a key
by mistake: through the API and through the page's form, whatever the order the row lock gives
them, exactly one deal is stored; a request with that deal gets it (201 or 200), a request with
another deal gets 409 ``idempotency_conflict``; never two rows, never a 500.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import roles
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import make_user
from scoring.tests.test_concurrency import pips_deal, run_together
from scoring.tests.test_views import form_data

ROUNDS = 3


@pytest.fixture
def setup(require_postgres: None) -> tuple[Match, Any]:
    referee = make_user("referee_r", roles.REFEREE)
    return services.create_match(user=referee), referee


def _api_sender(match: Match, referee: Any, deal: dict[str, Any], key: str) -> Any:
    def send() -> tuple[int, Any]:
        api = APIClient()
        api.force_authenticate(referee)
        response = api.post(f"/api/v1/matches/{match.pk}/deals/", deal, format="json",
                            HTTP_IDEMPOTENCY_KEY=key)  # fmt: skip
        return response.status_code, response.json()

    return send


def _page_sender(match: Match, referee: Any, deal: dict[str, Any], key: str) -> Any:
    data = form_data(deal, match, client_id=key, expected_version="")

    def send() -> tuple[int, Any]:
        client = Client()
        client.force_login(referee)
        response = client.post(f"/matches/{match.pk}/deals/", data,
                               HTTP_ACCEPT="application/json")  # fmt: skip
        return response.status_code, response.json()

    return send


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("through", ["api", "page"])
def test_one_key_sent_at_once_with_two_deals_stores_one_row(setup, through):
    match, referee = setup
    sender = _api_sender if through == "api" else _page_sender
    for n in range(1, ROUNDS + 1):
        # Pip-only dominoes name no leader, so each is legal as any deal of the match.
        ours, theirs = pips_deal("NESW"[n % 4]), pips_deal("NESW"[(n + 1) % 4])
        key = str(uuid.uuid4())
        workers = [sender(match, referee, deal, key) for deal in (ours, theirs, ours, theirs)]
        results = run_together(workers)
        assert all(isinstance(r, tuple) for r in results), results  # no exception escaped
        statuses = [status for status, _body in results]
        assert all(status in (200, 201, 409) for status in statuses), results
        stored = list(Deal.objects.filter(match=match, client_id=key))
        assert len(stored) == 1, results
        assert Deal.objects.filter(match=match).count() == n
        winner = stored[0].record["by"]
        for deal, (status, body) in zip((ours, theirs, ours, theirs), results, strict=True):
            if deal["by"] == winner:
                assert status in (200, 201), body
            else:
                assert status == 409, body
                assert [e["code"] for e in body["errors"]] == ["idempotency_conflict"]
    m = Match.objects.get(pk=match.pk)
    assert m.version == ROUNDS + 1 == m.history.count()


@pytest.mark.django_db(transaction=True)
def test_one_creation_key_sent_at_once_creates_one_match(setup):
    _match, referee = setup
    key = str(uuid.uuid4())

    def create() -> tuple[int, Any]:
        api = APIClient()
        api.force_authenticate(referee)
        response = api.post("/api/v1/matches/", {"label": "Вечер", "rules_preset": "kozel"},
                            format="json", HTTP_IDEMPOTENCY_KEY=key)  # fmt: skip
        return response.status_code, response.json()

    results = run_together([create] * 4)
    assert all(isinstance(r, tuple) and r[0] == 201 for r in results), results
    assert len({body["id"] for _status, body in results}) == 1
    assert Match.objects.filter(creation_key__key=key).count() == 1
    assert Match.objects.count() == 2  # the fixture's and this one
