"""``GET /healthz``: is the database reachable, and the Celery broker (unless tasks run eagerly)?
Did the last ratings' recompute fail?

The answer is 503 only when the database is down: without it nothing works. A broker that is
down, or ratings whose last recompute failed (``tournaments.ratings.jobs``: the ratings shown are
older than the data), are reported ("degraded") with 200, since pages and protocols still work.
"""

import logging

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2.0


def check_database() -> str:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("health check: database unreachable: %s", exc)
        return f"error: {type(exc).__name__}"
    return "ok"


def check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as exc:  # kombu raises transport-specific errors
        logger.warning("health check: broker unreachable: %s", exc)
        return f"error: {type(exc).__name__}"
    return "ok"


def check_ratings() -> str:
    """``ok``, or ``failing since <when>: <the error's kind>`` while the last recompute failed
    (the message itself, which may quote data, is for the admin's page only)."""
    from tournaments.models import RatingsJob

    try:
        job = RatingsJob.objects.filter(pk=1).first()  # tournaments.ratings.jobs.JOB
    except DatabaseError:
        return "unknown"
    if job is None or not job.failing or job.failed_at is None:
        return "ok"
    kind = job.error.split(":", 1)[0][:80]
    return f"failing since {job.failed_at.isoformat(timespec='seconds')}: {kind}"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    broker = check_broker()
    ratings = check_ratings() if database == "ok" else "unknown"
    if database != "ok":
        status, code = "error", 503
    elif broker.startswith("error") or ratings.startswith("failing"):
        status, code = "degraded", 200
    else:
        status, code = "ok", 200
    return JsonResponse({"status": status, "database": database, "broker": broker,
                         "ratings": ratings}, status=code)  # fmt: skip
