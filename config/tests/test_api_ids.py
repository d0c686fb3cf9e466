"""An id in an API path too long for the database's integer is a 404 at routing, on every
router route (schemathesis found a 500 on ``GET /api/v1/ratings/<20 digits>/``)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("prefix", ["tournaments", "matches", "clubs", "players", "entries",
                                    "rounds", "sanctions", "seasons", "ratings"])
def test_an_overlong_id_is_not_found(prefix: str) -> None:
    answer = Client().get(f"/api/v1/{prefix}/{'9' * 20}/")
    assert answer.status_code == 404, (prefix, answer.status_code)
    assert answer.json()["errors"][0]["code"] == "not_found"
