"""A burst of changes through the organiser's service, with a live Celery worker on the ratings'
own queue: at most two recomputes run (one, plus one when a change lands while it runs), and the
ratings they leave are those of a replay from scratch."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from tournaments import registration
from tournaments.ratings import jobs, services
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import TournamentFactory
from tournaments.tests.ratings.test_ratings_jobs import snapshot


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_100_switches_runs_at_most_two_recomputes(
    require_postgres, require_worker, organiser
) -> None:
    event = TournamentFactory(name="Сто переключений")
    event.organisers.add(organiser)
    a, b, c, d = add_pairs(event, 4)
    play_round(event, 1, [(a, b, (120, 80)), (c, d, (90, 100))])
    services.update(full=True)
    runs = jobs.status().runs

    public = event.public
    for _ in range(100):
        public = not public
        registration.update_tournament(organiser, event.pk, public=public)
    burst_over = timezone.now()
    assert public == event.public  # an even number of switches: public again

    started = time.monotonic()
    while time.monotonic() - started < 90:
        job = jobs.status()
        if (not job.queued and job.succeeded_at is not None and job.succeeded_at > burst_over
                and job.started_at is not None and job.started_at <= job.succeeded_at):  # fmt: skip
            break
        time.sleep(0.25)
    job = jobs.status()
    assert job.succeeded_at is not None and job.succeeded_at > burst_over, job
    assert 1 <= job.runs - runs <= 2
    rated = snapshot()
    services.update(full=True)
    assert snapshot() == rated and rated[1]
