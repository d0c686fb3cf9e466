"""Housekeeping tasks of the project itself: used by health checks and integration tests.

Domain tasks (pairing a round, …) live in the ``tasks.py`` of their app or concern
(``tournaments.rounds.tasks``).
"""

from celery import shared_task
from django.db import connection


@shared_task(name="config.ping")
def ping() -> str:
    return "pong"


@shared_task(name="config.add")
def add(x: int, y: int) -> int:
    return x + y


@shared_task(name="config.database_name")
def database_name() -> str:
    """The name of the database the executing process talks to, after a round trip to it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return str(connection.settings_dict["NAME"])
