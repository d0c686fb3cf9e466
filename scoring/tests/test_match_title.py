"""A table's title is composed when shown, in the reader's language: the label held the round
in Russian («Кубок трёх клубов · тур 4») and English pages added « · table 5» to it. Migration
0009 takes the round out of stored labels and keeps free-form ones."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from scoring.models import Match


def test_the_title_is_composed_in_the_readers_language() -> None:
    table = Match(label="Кубок трёх клубов", round=4, table="5")
    with translation.override("ru"):
        assert table.title == "Кубок трёх клубов · тур 4 · стол 5"
        assert Match(label="Товарищеская").title == "Товарищеская"
    with translation.override("en"):
        assert table.title == "Кубок трёх клубов · round 4 · table 5"
        assert str(table) == f"{table.title} #None"


def migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_stored_labels_lose_their_round_and_free_labels_stay() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        old = migrate([("scoring", "0008_match_clock")]).get_model("scoring", "Match")
        for label in ("Кубок трёх клубов · тур 4", "Autumn cup · round 12", "Товарищеская",
                      "Тур выходного дня"):  # fmt: skip
            old.objects.create(label=label, table="3", rules={})
        new = migrate([("scoring", "0009_match_round")]).get_model("scoring", "Match")
        assert set(new.objects.values_list("label", "round")) == {
            ("Кубок трёх клубов", 4), ("Autumn cup", 12), ("Товарищеская", None),
            ("Тур выходного дня", None)}
    finally:
        migrate(latest)
