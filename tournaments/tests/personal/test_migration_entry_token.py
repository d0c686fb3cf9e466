"""Migration 0024 gives every entry registered before it a key of its own, on the real
migration against the test database, then migrated forward again."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0023_h30prizes_categories")]
AFTER = [("tournaments", "0024_h29player_entry_token")]


def migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_entries_registered_before_the_migration_get_distinct_keys() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        old = migrate(BEFORE)
        tournament = old.get_model("tournaments", "Tournament").objects.create(name="Старый")
        for n in range(5):
            old.get_model("tournaments", "Entry").objects.create(tournament=tournament,
                                                                 name=f"Пара {n}")
        new = migrate(AFTER).get_model("tournaments", "Entry")
        tokens = list(new.objects.values_list("token", flat=True))
        assert len(tokens) == 5 == len(set(tokens))
        assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)
    finally:
        migrate(latest)
