"""Fixtures of the scoring tests: users in each role, players, a match ready to record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation

from accounts import roles
from scoring import services
from scoring.models import Match
from scoring.tests.helpers import make_player, make_user, sport_deals


@pytest.fixture(autouse=True)
def _default_language_after_each_test() -> Iterator[None]:
    # A request with the language cookie leaves its language active in the thread.
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def deals() -> list[dict[str, Any]]:
    return sport_deals()


@pytest.fixture
def referee(db: Any) -> User:
    return make_user("referee", roles.REFEREE)


@pytest.fixture
def other_referee(db: Any) -> User:
    return make_user("other_referee", roles.REFEREE)


@pytest.fixture
def chief(db: Any) -> User:
    return make_user("chief", roles.CHIEF_REFEREE)


@pytest.fixture
def organiser(db: Any) -> User:
    return make_user("organiser", roles.ORGANISER)


@pytest.fixture
def stranger(db: Any) -> User:
    return make_user("stranger")


@pytest.fixture
def players(db: Any) -> dict[str, Any]:
    return {seat: make_player(f"Игрок{seat}") for seat in "NESW"}


@pytest.fixture
def match(chief: User, referee: User, players: dict[str, Any]) -> Match:
    return services.create_match(
        user=chief, referee=referee, seats=players, label="Вечер клуба", table="3",
        confirm_pin="2468",
    )  # fmt: skip
