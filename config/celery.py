"""The Celery application.

Configuration comes from Django settings (``CELERY_*`` names). Without ``CELERY_BROKER_URL``
the settings turn on eager mode, so tasks run in-process and no broker is needed.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# tasks.py of every installed app, plus the project's own housekeeping tasks in config.tasks.
app.autodiscover_tasks()
app.autodiscover_tasks(["config"])
