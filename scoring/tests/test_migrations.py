"""Data migrations of the scoring app, run forwards on a database holding rows of the schema
before them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("scoring", "0006_merge_issue13_branches")]
AFTER = [("scoring", "0007_match_deals_removed")]


def migrated(targets: list[tuple[str, str]]) -> Any:
    """The app registry of the project migrated to ``targets``."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_deal_removals_are_counted_from_the_history_of_existing_matches() -> None:
    apps = migrated(BEFORE)
    Match = apps.get_model("scoring", "Match")
    MatchVersion = apps.get_model("scoring", "MatchVersion")
    actions = {
        "untouched": ["create", "record_deal", "record_deal"],
        "one deleted": ["create", "record_deal", "delete_deal", "record_deal", "amend_deal"],
        "corrected": ["create", "record_deal", "delete_deal", "submit", "confirm", "correct"],
    }
    for label, history in actions.items():
        match = Match.objects.create(label=label, version=len(history))
        MatchVersion.objects.bulk_create(
            MatchVersion(match=match, version=v, action=a) for v, a in enumerate(history, 1)
        )
    try:
        apps = migrated(AFTER)
        removed = dict(apps.get_model("scoring", "Match").objects.values_list("label",
                                                                              "deals_removed"))
        assert removed == {"untouched": 0, "one deleted": 1, "corrected": 2}
    finally:
        migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())
