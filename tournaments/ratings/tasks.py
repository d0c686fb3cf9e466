"""The Celery task that recomputes the ratings, on a queue of its own (``RATINGS_QUEUE``), and
``schedule``, which asks for it once the changing transaction commits (``jobs.request``:
coalesced, a burst of changes runs one recompute).

Idempotent (``services.update`` brings the ratings up to date with the whole history), so a
message delivered twice, or two tournaments finishing rounds at once, give the same ratings.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from tournaments.ratings import jobs


@shared_task(name="tournaments.recompute_ratings", acks_late=True, reject_on_worker_lost=True)
def recompute_ratings(tournament_id: int | None = None) -> int:
    """Wait for a quiet moment (``jobs.due``: send itself again with a countdown), then run."""
    wait = jobs.due()
    if wait > 0:
        recompute_ratings.apply_async(queue=settings.RATINGS_QUEUE, countdown=wait)
        return -1
    return jobs.run()


def schedule(tournament_id: int | None = None) -> None:
    """Recompute the ratings once the current transaction commits (eager without a broker). An
    unreachable queue is logged, not raised: the change stands all the same, and the next one,
    or ``manage.py recompute_ratings``, catches up."""
    jobs.request()
