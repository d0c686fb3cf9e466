"""A qualifying protocol corrected after the knock-out was seeded: the stages page warns that the
standings now give other seeds, and shows both orders; the bracket keeps its seeds (issue 30)."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import rounds
from tournaments.models import Round, Stage
from tournaments.results.snapshots import refresh_snapshots
from tournaments.tests.stages.test_knockout_stage import decide, sides

pytestmark = pytest.mark.django_db


def test_the_stages_page_warns_when_a_correction_moves_the_seeds(
    swiss: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start_final_stage(organiser, swiss.pk)
    client.force_login(organiser)
    url = f"/manage/{swiss.pk}/stages/"
    assert 'id="seeds-moved"' not in client.get(url).content.decode()
    seeds = list(Stage.objects.get(tournament=swiss).seeds)

    # round 6 corrected: every table's result the other way (the signal retakes the snapshots)
    last = Round.objects.get(tournament=swiss, number=6)
    seed = {e.pk: e.seed for e in swiss.entries.all()}
    for table in last.pairings.filter(table__isnull=False):
        ns, ew = sides(table)
        decide(table, "EW" if seed[ns] < seed[ew] else "NS")
    refresh_snapshots(swiss, 6)

    page = client.get(url).content.decode()
    assert 'id="seeds-moved"' in page and "Посев сетки" in page
    assert Stage.objects.get(tournament=swiss).seeds == seeds  # nothing re-seeded by itself
