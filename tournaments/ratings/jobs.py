"""The ratings' recompute as a job: asked for by every change, run once for a burst, recorded.

    request()      a change asks for a recompute (after its transaction commits)
    run(full)      the Celery task's body: one recompute, its outcome or failure recorded
    status()       the ``RatingsJob`` row: as of when, failing since when and why

Coalescing: a change marks the job queued and sends one message only when none is queued (or the
queued one is older than ``RATINGS_MAX_DELAY_SECONDS``: a lost message must not stop the ratings
for ever). The task waits for a quiet moment — no change for ``RATINGS_QUIET_SECONDS`` — by sending
itself again with a countdown, up to that maximum delay; then it clears the queued mark and runs.
So a burst of a hundred switches runs one recompute (two when a change lands while it runs), on
its own queue (``RATINGS_QUEUE``) so that no round's pairing waits behind it. Eager (the embedded
mode, no broker) runs at once: nothing queues there.

A failure is recorded with its reason (the ratings keep what the last success wrote) and shown by
the rating page, the admin and ``/healthz``.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from datetime import timedelta

from celery import current_app as celery_app
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from kombu.exceptions import OperationalError

from tournaments.models import RatingsJob
from tournaments.ratings import services

log = logging.getLogger(__name__)

JOB = 1  # the one row's key
TASK = "tournaments.recompute_ratings"  # ``tasks.recompute_ratings``


def status() -> RatingsJob:
    """The job's row as stored (an unsaved blank one before the first recompute)."""
    return RatingsJob.objects.filter(pk=JOB).first() or RatingsJob(pk=JOB)


def _row() -> QuerySet[RatingsJob]:
    RatingsJob.objects.get_or_create(pk=JOB)
    return RatingsJob.objects.filter(pk=JOB)


def _max_delay() -> timedelta:
    return timedelta(seconds=settings.RATINGS_MAX_DELAY_SECONDS)


def request() -> None:
    """Ask for a recompute once the current transaction commits."""
    transaction.on_commit(_send)


def _send() -> None:
    if celery_app.conf.task_always_eager:
        # in-process without a broker: called directly, because Celery's eager ``apply`` sets a
        # process-wide "never join inside a task" flag and restores it afterwards, which two
        # threads finishing rounds at once left stuck on (tests of races); a failure is
        # recorded and logged by ``run`` and must not undo the change that asked
        with suppress(Exception):  # recorded in the job row, shown on the rating page
            run()
        return
    now = timezone.now()
    rows = _row()
    claimed = rows.filter(Q(queued=False) | Q(queued_at__lt=now - _max_delay())).update(
        queued=True, queued_at=now, requested_at=now)
    if not claimed:  # one is queued already: it will see this change
        rows.update(requested_at=now)
        return
    try:
        # by name: ``tasks`` imports this module, not the other way round
        celery_app.send_task(TASK, queue=settings.RATINGS_QUEUE,
                             countdown=settings.RATINGS_QUIET_SECONDS)  # fmt: skip
    except OperationalError as exc:
        rows.update(queued=False)
        log.error("ratings: the queue is unreachable: %s", exc)


def due() -> float:
    """Seconds to wait before running the queued job: until no change came for the quiet
    period, but never past the maximum delay since it was queued. 0: run now."""
    job = status()
    if not job.queued or job.queued_at is None or job.requested_at is None:
        return 0.0
    now = timezone.now()
    quiet = job.requested_at + timedelta(seconds=settings.RATINGS_QUIET_SECONDS)
    latest = job.queued_at + _max_delay()
    wait = (min(quiet, latest) - now).total_seconds()
    return max(wait, 0.0)


def run(full: bool = False) -> int:
    """One recompute, recorded: the queued mark cleared first (a change from now on queues
    the next), then its outcome, or its failure and why."""
    rows = _row()
    rows.update(queued=False, started_at=timezone.now(), runs=F("runs") + 1)
    try:
        outcome = services.update(full)
    except Exception as exc:
        rows.update(
            failed_at=timezone.now(), error=f"{type(exc).__name__}: {exc}"[:2000])
        log.exception("ratings: the recompute failed")
        raise
    rows.update(
        succeeded_at=timezone.now(), matches=outcome.matches,
        replayed_from=outcome.replayed_from, skipped=outcome.skipped[:100],
    )  # fmt: skip
    return outcome.matches
