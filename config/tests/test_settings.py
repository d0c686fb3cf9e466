"""Settings read from the environment, checked in fresh interpreters so nothing leaks."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 60 + "-a-long-random-production-secret",
    "ALLOWED_HOSTS": "example.org",
}
SERVICE_VARIABLES = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DATABASE_NAME_OVERRIDE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)

SHOW_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "db_engine": s.DATABASES["default"]["ENGINE"],
    "db_name": str(s.DATABASES["default"]["NAME"]),
    "eager": s.CELERY_TASK_ALWAYS_EAGER,
    "broker": s.CELERY_BROKER_URL,
    "backend": s.CELERY_RESULT_BACKEND,
    "cache": s.CACHES["default"]["BACKEND"],
    "debug": s.DEBUG,
    "ssl_redirect": s.SECURE_SSL_REDIRECT,
    "hsts": s.SECURE_HSTS_SECONDS,
    "secure_cookies": [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE],
    "static": s.STORAGES["staticfiles"]["BACKEND"],
    "language": s.LANGUAGE_CODE,
}))
"""


def _run(code: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *code],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _settings(**env: str) -> dict[str, object]:
    result = _run(["-c", SHOW_SETTINGS], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_defaults_need_no_configuration() -> None:
    s = _settings()
    assert s["db_engine"] == "django.db.backends.sqlite3"
    assert s["db_name"] == str(ROOT / "db.sqlite3")
    assert s["eager"] is True
    assert s["cache"].endswith("LocMemCache")
    assert s["debug"] is True
    assert s["ssl_redirect"] is False
    assert s["language"] == "ru"


def test_services_come_from_the_environment() -> None:
    s = _settings(
        DATABASE_URL="postgres://u:p@db.example:5432/domino",
        CELERY_BROKER_URL="redis://broker:6379/0",
        REDIS_URL="redis://cache:6379/1",
    )
    assert s["db_engine"] == "django.db.backends.postgresql"
    assert s["db_name"] == "domino"
    assert s["eager"] is False
    assert s["broker"] == "redis://broker:6379/0"
    assert s["backend"] == "redis://cache:6379/1"
    assert s["cache"].endswith("RedisCache")


def test_result_backend_falls_back_to_a_redis_broker() -> None:
    s = _settings(CELERY_BROKER_URL="redis://broker:6379/0")
    assert s["backend"] == "redis://broker:6379/0"
    s = _settings(CELERY_BROKER_URL="redis://broker:6379/0", CELERY_RESULT_BACKEND="rpc://")
    assert s["backend"] == "rpc://"


def test_database_name_override_keeps_the_rest_of_the_url() -> None:
    s = _settings(DATABASE_URL="postgres://u@db:5432/domino", DATABASE_NAME_OVERRIDE="test_domino")
    assert s["db_name"] == "test_domino"


def test_secret_key_is_required_when_debug_is_off() -> None:
    result = _run(["-c", SHOW_SETTINGS], DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set" in result.stderr


def test_production_defaults_are_secure() -> None:
    s = _settings(**PRODUCTION_ENV)
    assert s["debug"] is False
    assert s["ssl_redirect"] is True
    assert s["hsts"] >= 31_536_000
    assert s["secure_cookies"] == [True, True]
    assert s["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_deploy_check_is_clean_in_production_settings() -> None:
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
