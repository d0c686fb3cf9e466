from unittest import mock

import pytest
from django.db import OperationalError, connections

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_with_a_reachable_database(client, settings) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    expected_broker = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "ok"
    assert body["broker"] == expected_broker


def test_healthz_is_503_when_the_database_is_unreachable(client) -> None:
    with mock.patch.object(
        connections["default"], "cursor", side_effect=OperationalError("connection refused")
    ):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"] == "error: OperationalError"


def test_healthz_reports_a_broken_broker_without_failing(client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with mock.patch("config.health.celery_app.connection_for_write") as connect:
        connect.return_value.__enter__.return_value.ensure_connection.side_effect = (
            ConnectionRefusedError("no broker")
        )
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["broker"] == "error: ConnectionRefusedError"
    assert response.json()["status"] == "degraded"


def test_healthz_checks_the_real_broker(client, settings, require_redis) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("CELERY_BROKER_URL is not set: the broker is eager")
    assert client.get("/healthz").json()["broker"] == "ok"


def test_healthz_is_reachable_over_plain_http_when_ssl_redirect_is_on(client, settings) -> None:
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 301
