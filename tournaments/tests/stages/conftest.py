"""Fixtures of the stages tests: a Swiss of 24 pairs played through the pairing job, and
axe-core for the browser test."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import rounds
from tournaments.models import Stage
from tournaments.stages import services as stages
from tournaments.tests.conftest import add_pairs
from tournaments.tests.stages.test_knockout_stage import decide, finish, pair, sides


@pytest.fixture(scope="session")
def axe_source() -> str:
    from config.tests.axe import install

    return install()


@pytest.fixture
def swiss(tournament: Any, organiser: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """24 pairs, 6 Swiss rounds played (the better seed wins every table), a top-8 knock-out
    of the best of three with a third-place match set up."""
    tournament.rounds = 6
    tournament.save(update_fields=["rounds"])
    entries = add_pairs(tournament, 24)
    stages.configure(organiser, tournament.pk, Stage.Kind.KNOCKOUT, 8, 3, True)
    seed = {e.pk: e.seed for e in entries}
    for _n in range(6):
        round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
        rounds.publish(organiser, round_.pk)
        for table in round_.pairings.filter(table__isnull=False):
            ns, ew = sides(table)
            decide(table, "NS" if seed[ns] < seed[ew] else "EW")
        assert finish(organiser, round_, django_capture_on_commit_callbacks) is None
    return tournament


