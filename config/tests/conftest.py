"""Fixtures of the tournaments tests (users in roles, a tournament, its pairs) for the
security, audit and bad-input tests in this folder."""

from tournaments.tests.conftest import (  # noqa: F401 - fixtures
    _default_language_after_each_test,
    organiser,
    other_organiser,
    pairs,
    referee,
    tournament,
)
