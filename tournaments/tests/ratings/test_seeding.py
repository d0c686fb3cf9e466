"""The optional use of the ratings: round 1 seeded by rating, and the rating each entry has
today on the registration page (in that order when round 1 is seeded by it)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import ratings
from tournaments.models import Entry, Round
from tournaments.rounds import plan_round
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_pairs(organiser):
    """Four pairs whose players played a public evening before: A won twice, D lost twice."""
    before = TournamentFactory(name="Прошлый вечер")
    a, b, c, d = add_pairs(before, 4)
    play_round(before, 1, [(a, d, (120, 10)), (b, c, (110, 100))])
    play_round(before, 2, [(a, b, (120, 60)), (c, d, (100, 20))])
    ratings.recompute()
    return {"a": a, "b": b, "c": c, "d": d}


def register(tournament, old: Entry, name: str) -> Entry:
    entry = tournament.entries.create(name=name, seed=None)
    entry.players.set(old.players.all())
    return entry


def test_round_1_seeded_by_rating_puts_the_top_half_against_the_bottom_half(rated_pairs,
                                                                           organiser):  # fmt: skip
    tournament = TournamentFactory(name="Новый вечер", seed_by_rating=True)
    tournament.organisers.add(organiser)
    # registered (and seeded) in the reverse order of their ratings
    entries = {k: register(tournament, rated_pairs[k], f"Пара {k}") for k in "dcba"}
    for seed, key in enumerate("dcba", start=1):
        Entry.objects.filter(pk=entries[key].pk).update(seed=seed)
    plan = plan_round(Round.objects.create(tournament=tournament, number=1, status="pairing"))
    tables = {frozenset(table.entries) for table in plan.tables}
    # by rating A, B, C, D: A meets C, B meets D (by the stored seeds it would be D–B, C–A)
    assert frozenset({entries["a"].pk, entries["c"].pk}) in tables
    assert frozenset({entries["b"].pk, entries["d"].pk}) in tables
    tournament.seed_by_rating = False
    tournament.save()
    plan = plan_round(Round.objects.get(tournament=tournament, number=1))
    tables = {frozenset(table.entries) for table in plan.tables}
    assert frozenset({entries["d"].pk, entries["b"].pk}) in tables


def test_the_registration_page_shows_each_entrys_rating_today(client, rated_pairs, organiser):
    tournament = TournamentFactory(name="Новый вечер", seed_by_rating=True)
    tournament.organisers.add(organiser)
    register(tournament, rated_pairs["d"], "Пара D")
    register(tournament, rated_pairs["a"], "Пара A")
    tournament.entries.create(name="Новички")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:manage_entries", args=[tournament.pk])).content.decode()
    assert 'id="seeded-by-rating"' in page
    assert page.index("Пара A") < page.index("Пара D") < page.index("Новички")
    assert page.count('class="num entry-rating"') == 3 and "± " in page
