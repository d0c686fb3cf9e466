"""The Django project: settings from the environment, URLs, the Celery app, WSGI/ASGI.

The Celery app is imported here so that ``@shared_task`` functions bind to it as soon as
Django starts, in the web process and in ``celery -A config worker`` alike.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
