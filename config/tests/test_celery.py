"""Celery: tasks run eagerly without a broker, and through a real worker when there is one."""

import pytest

from config.celery import app
from config.tasks import add, database_name, ping


def test_tasks_are_registered_by_autodiscovery() -> None:
    assert {"config.ping", "config.add", "config.database_name"} <= set(app.tasks)


def test_task_runs_in_process_when_eager() -> None:
    assert add.delay(2, 3).get(timeout=1) == 5
    assert ping.delay().get(timeout=1) == "pong"


def test_worker_runs_task_sent_through_the_broker(require_worker) -> None:
    result = add.delay(20, 22)
    assert result.get(timeout=30) == 42
    assert result.status == "SUCCESS"


@pytest.mark.django_db(transaction=True)
def test_worker_uses_the_test_database(require_postgres, require_worker) -> None:
    from django.db import connection

    assert require_worker.database_name == connection.settings_dict["NAME"]
    assert database_name.delay().get(timeout=30) == connection.settings_dict["NAME"]
