"""Migration 0013 renames the entries a CSV import had named by their key («1»…«16») after
their players, and keeps every name an organiser chose. Run on the real migration against the
test database, then migrated forward again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0012_substitutes")]
AFTER = [("tournaments", "0013_entry_names")]


def migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_numbered_entries_get_their_players_names_and_chosen_names_stay() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        apps = migrate(BEFORE)
        tournament = apps.get_model("tournaments", "Tournament").objects.create(name="Вечер")
        entry = apps.get_model("tournaments", "Entry")
        player = apps.get_model("tournaments", "Player")

        def pair(name: str, *people: tuple[str, str]) -> None:
            made = entry.objects.create(tournament=tournament, name=name)
            for last, first in people:
                made.players.add(player.objects.create(last_name=last, first_name=first))

        pair("1", ("Иванов", "Пётр"), ("Петров", "Иван"))
        pair("№ 2", ("Иванов", "Павел"), ("Петров", "Илья"))
        pair("Дубль", ("Сидоров", "Олег"), ("Попов", "Юрий"))
        pair("3")  # a team (no players of its own) keeps its name
        pair("4", ("Орлов", ""))
        names = set(migrate(AFTER).get_model("tournaments", "Entry").objects
                    .values_list("name", flat=True))  # fmt: skip
        assert names == {"Иванов – Петров", "Иванов П. – Петров И.", "Дубль", "3", "Орлов"}
    finally:
        migrate(latest)
