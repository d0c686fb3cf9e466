"""One player, one seat per round, held by the database itself (migration 0017: an exclusion
constraint on PostgreSQL, triggers on SQLite): a writer that skips the substitutes' service — an
archive import, the admin, a script — cannot seat one substitute for two players in one round."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import Substitute
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():
    event = TournamentFactory(rounds=6)
    one, two = add_pairs(event, 2)
    reserve = PlayerFactory(last_name="Запасной")
    return event, one, two, reserve


def sub(event, entry, player, first, last=None) -> Substitute:
    with transaction.atomic():
        return Substitute.objects.create(tournament=event, entry=entry,
                                         replaced=entry.players.first(), player=player,
                                         from_round=first, to_round=last)  # fmt: skip


@pytest.mark.parametrize(("first", "second"), [
    ((2, 4), (4, 5)),     # the same round 4
    ((2, None), (6, 6)),  # every round from 2 on, then round 6
    ((3, 3), (1, None)),  # round 3, then every round
])  # fmt: skip
def test_overlapping_rounds_for_one_substitute_are_refused(setting, first, second) -> None:
    event, one, two, reserve = setting
    sub(event, one, reserve, *first)
    with pytest.raises(IntegrityError):
        sub(event, two, reserve, *second)
    assert Substitute.objects.filter(player=reserve).count() == 1


def test_separate_rounds_and_other_tournaments_are_allowed(setting) -> None:
    event, one, two, reserve = setting
    sub(event, one, reserve, 1, 2)
    sub(event, two, reserve, 3, 4)
    other = TournamentFactory()
    [elsewhere] = add_pairs(other, 1)
    sub(other, elsewhere, reserve, 1)
    assert Substitute.objects.filter(player=reserve).count() == 3


def test_an_update_into_an_overlap_is_refused(setting) -> None:
    event, one, two, reserve = setting
    sub(event, one, reserve, 1, 2)
    later = sub(event, two, reserve, 3, 4)
    later.from_round = 2
    with pytest.raises(IntegrityError), transaction.atomic():
        later.save()
