"""Fixtures of the tournaments tests: users in roles, a tournament and its pairs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.utils import translation

from accounts import roles
from tournaments.models import Entry, Tournament
from tournaments.tests.factories import ClubFactory, PlayerFactory, TournamentFactory


@pytest.fixture(autouse=True)
def _default_language_after_each_test() -> Iterator[None]:
    yield
    translation.activate(settings.LANGUAGE_CODE)


def make_user(username: str, *groups: str) -> User:
    user = User.objects.create_user(username, password="s3cret-pass", first_name=username)
    for name in groups:
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    return user


@pytest.fixture
def organiser(db: Any) -> User:
    return make_user("org", roles.ORGANISER)


@pytest.fixture
def other_organiser(db: Any) -> User:
    return make_user("other_org", roles.ORGANISER)


@pytest.fixture
def referee(db: Any) -> User:
    return make_user("ref", roles.REFEREE)


@pytest.fixture
def tournament(organiser: User) -> Tournament:
    tournament = TournamentFactory(name="Кубок «Дубль»", rounds=5)
    tournament.organisers.add(organiser)
    return tournament


def add_pairs(tournament: Tournament, n: int, clubs: int = 2) -> list[Entry]:
    club_list = [ClubFactory(name=f"Клуб {tournament.pk}-{i}") for i in range(clubs)]
    entries = []
    for i in range(1, n + 1):
        club = club_list[i % clubs]
        entry = Entry.objects.create(
            tournament=tournament, name=f"Пара {i}", seed=i, club=club
        )
        entry.players.set([PlayerFactory(last_name=f"Северов{i}", club=club),
                           PlayerFactory(last_name=f"Южин{i}", club=club)])
        entries.append(entry)
    return entries


@pytest.fixture
def pairs() -> Callable[..., list[Entry]]:
    return add_pairs
