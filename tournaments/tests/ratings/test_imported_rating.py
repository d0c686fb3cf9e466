"""The rating a CSV import gives the players (issue 28): shown on the registration page beside
the club rating, each named, and used to seed round 1 by rating when no club rating says more
(before, it was stored and never shown: the page said «—» and the seeding ignored it)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.models import Entry, Round
from tournaments.registration import import_csv
from tournaments.rounds import plan_round
from tournaments.selectors import EntryRating, by_rating
from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

# seeded A, B, C, D; by the imported ratings (the mean of each pair's) C, A, D, B
CSV = """entry;last_name;first_name;rating;seed
A;Алов;Пётр;1700;1
A;Амов;Иван;1500;1
B;Бобров;Олег;1100;2
B;Букин;Лев;;2
C;Цветков;Ян;1900;3
C;Цаплин;Ян;1900;3
D;Дронов;Ким;1300;4
D;Дудин;Ким;1400;4
"""


@pytest.fixture
def imported(organiser):
    tournament = TournamentFactory(name="Открытый кубок", seed_by_rating=True)
    tournament.organisers.add(organiser)
    import_csv(organiser, tournament.pk, CSV)
    names = {"A": "Алов", "B": "Бобров", "C": "Цветков", "D": "Дронов"}
    entries = {key: Entry.objects.get(tournament=tournament, players__last_name=last)
               for key, last in names.items()}  # fmt: skip
    return tournament, entries


def test_the_entries_page_shows_the_imported_rating_and_says_which(client, organiser,
                                                                   imported) -> None:  # fmt: skip
    tournament, entries = imported
    client.force_login(organiser)
    url = reverse("tournaments:manage_entries", args=[tournament.pk])
    page = client.get(url).content.decode()
    shown = {key: re.search(rf'data-entry="{e.pk}".*?entry-imported-rating">([^<]*)<', page,
                            re.S)[1] for key, e in entries.items()}  # fmt: skip
    # the mean of the ratings given (B's second player has none)
    assert shown == {"A": "1600", "B": "1100", "C": "1900", "D": "1350"}
    assert "Импортированный рейтинг" in page and "Клубный рейтинг" in page
    assert 'id="ratings-shown"' in page
    # round 1 seeded by rating: the list in that order
    assert [page.index(f'data-entry="{entries[k].pk}"') for k in "CADB"] == sorted(
        page.index(f'data-entry="{entries[k].pk}"') for k in "CADB")
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert "Imported rating" in english and "Club rating" in english


def test_round_1_is_seeded_by_the_imported_rating(imported) -> None:
    tournament, entries = imported
    plan = plan_round(Round.objects.create(tournament=tournament, number=1, status="pairing"))
    tables = {frozenset(table.entries) for table in plan.tables}
    # by rating C, A, D, B: C meets D, A meets B (by the seeds it would be A–C, B–D)
    assert tables == {frozenset({entries["C"].pk, entries["D"].pk}),
                      frozenset({entries["A"].pk, entries["B"].pk})}  # fmt: skip


def test_a_club_rating_comes_first_then_the_imported_then_the_seed() -> None:
    rated, strong, weak, plain = (Entry(pk=pk, seed=pk) for pk in (4, 3, 2, 1))
    club = {rated.pk: EntryRating(1400, 300, 500.0, 2, 2)}
    order = by_rating([plain, weak, strong, rated], club, {strong.pk: 2100, weak.pk: 1200})
    assert order == [rated, strong, weak, plain]
