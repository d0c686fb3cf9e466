"""Migration 0007 maps the old same-club setting to the new ones so that every tournament keeps
the pairing it had: ``avoid_same_club_until`` K (avoided before score in rounds 1…K, never
after) becomes strict up to round K and off afterwards; 0 (never) becomes off. Run on the real
migration against the test database, then migrated forward again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0007_formats_singles_free_for_all")]
AFTER = [("tournaments", "0008_club_avoidance")]


def migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_old_same_club_setting_becomes_strict_up_to_that_round_then_off() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        old = migrate(BEFORE).get_model("tournaments", "Tournament")
        old.objects.create(name="Никогда", avoid_same_club_until=0)
        old.objects.create(name="Три тура", avoid_same_club_until=3)
        new = migrate(AFTER).get_model("tournaments", "Tournament")
        settings = {t.name: (t.club_avoidance, t.club_strict_until, t.individual_federation)
                    for t in new.objects.all()}  # fmt: skip
        assert settings == {"Никогда": ("off", 0, False), "Три тура": ("off", 3, False)}
        back = migrate(BEFORE).get_model("tournaments", "Tournament")
        assert dict(back.objects.values_list("name", "avoid_same_club_until")) == {
            "Никогда": 0, "Три тура": 3}
    finally:
        migrate(latest)
