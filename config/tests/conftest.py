"""Fixtures of the tournaments tests (users in roles, a tournament, its pairs) for the
security, audit and bad-input tests in this folder."""

import pytest

from tournaments.tests.conftest import (  # noqa: F401 - fixtures
    _default_language_after_each_test,
    organiser,
    other_organiser,
    pairs,
    referee,
    tournament,
)


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, installed once per session by ``npm ci`` (config/tests/axe.py)."""
    from config.tests.axe import install

    return install()
