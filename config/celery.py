"""The Celery application.

Configuration comes from Django settings (``CELERY_*`` names). Without ``CELERY_BROKER_URL``
the settings turn on eager mode, so tasks run in-process and no broker is needed.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# A worker that dies mid-task (SIGKILL, out of memory, power cut) leaves its late-acknowledged
# message unacknowledged in Redis, which hands it out again only after this many seconds
# (kombu's default is an hour, so a round would wait that long in ``pairing``). It must exceed
# the longest task: a message still running then is delivered a second time, which the pairing
# task tolerates (the round is locked and only a ``pairing`` round is written).
app.conf.broker_transport_options = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "300")),
    **(app.conf.broker_transport_options or {}),
}
# tasks.py of every installed app, plus the project's own housekeeping tasks in config.tasks.
app.autodiscover_tasks()
app.autodiscover_tasks(["config", "tournaments.rounds", "tournaments.ratings"])
