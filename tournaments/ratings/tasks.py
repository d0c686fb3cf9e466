"""The Celery task that recomputes the ratings after a round of a tournament is finished, and
``schedule``, which sends it once the finishing transaction commits.

Idempotent (``services.recompute`` rewrites everything from the whole history), so a message
delivered twice, or two tournaments finishing rounds at once, give the same ratings.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction
from kombu.exceptions import OperationalError

from tournaments.ratings import services

log = logging.getLogger(__name__)


@shared_task(name="tournaments.recompute_ratings", acks_late=True, reject_on_worker_lost=True)
def recompute_ratings(tournament_id: int) -> int:
    return services.recompute()


def schedule(tournament_id: int) -> None:
    """Recompute the ratings once the current transaction commits (eager without a broker). An
    unreachable queue is logged, not raised: the round is finished all the same, and the next
    finished round, or ``manage.py recompute_ratings``, catches up."""

    def send() -> None:
        if recompute_ratings.app.conf.task_always_eager:
            # in-process without a broker: called directly, because Celery's eager ``apply``
            # sets a process-wide "never join inside a task" flag and restores it afterwards,
            # which two threads finishing rounds at once left stuck on (tests of races)
            services.recompute()
            return
        try:
            recompute_ratings.delay(tournament_id)
        except OperationalError as exc:
            log.error("ratings after tournament %s: the queue is unreachable: %s",
                      tournament_id, exc)  # fmt: skip

    transaction.on_commit(send)
