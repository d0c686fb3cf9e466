"""Helpers for tests that need a service: skip locally, fail under CI=true.

Imported by the root conftest.py (fixtures ``require_postgres``, ``require_redis``,
``require_worker``) and by test modules that guard a resource of their own (a browser, …).
"""

import os
from typing import NoReturn

import pytest


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def service_unavailable(reason: str) -> NoReturn:
    """Skip the test locally; fail it under CI=true, where every service must be there."""
    if running_in_ci():
        pytest.fail(f"{reason} (CI=true: required services must be available)", pytrace=False)
    pytest.skip(reason)
