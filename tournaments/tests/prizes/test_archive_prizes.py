"""Categories and prizes in the tournament archive: an import gives the same prize list, and a
forged row is refused as a whole, naming it."""

from __future__ import annotations

import json

import pytest

from scoring.models import Match
from tournaments import archive
from tournaments.errors import TournamentError
from tournaments.models import Category, Prize, Tournament
from tournaments.prizes import lists
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def doc(tournament: Tournament) -> dict:
    a, b, c, d = add_pairs(tournament, 4)
    # final scores typed by the desk (an archive refuses a confirmed result without deals)
    Tournament.objects.filter(pk=tournament.pk).update(result_only_tables=True)
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (130, 60))])  # Пара 3 first
    Match.objects.filter(pairing__round__tournament=tournament).update(result_only=True)
    c.players.update(sex="f", birth_year=1990)
    women = Category.objects.create(tournament=tournament, name="Женщины", sex="f")
    Prize.objects.create(tournament=tournament, place=1, amount=500)
    Prize.objects.create(tournament=tournament, place=2, amount=200)
    Prize.objects.create(tournament=tournament, category=women, place=1, amount="300.25")
    return json.loads(archive.dumps(archive.export_tournament(tournament)))


def winners(tournament: Tournament) -> list[tuple[str, int | None, str, str]]:
    final = lists.final_lines(tournament)
    return [(line.category, line.place, line.line.name if line.line else "", str(line.amount))
            for line in lists.prize_list(tournament, final).lines]


def test_an_imported_tournament_gives_the_same_prize_list(doc, tournament, organiser):
    copy_ = archive.import_tournament(doc, organiser)
    assert winners(copy_) == winners(tournament) == [
        ("", 1, "Пара 3", "500.00"), ("", 2, "Пара 1", "200.00"), ("Женщины", 1, "", "None")]


@pytest.mark.parametrize(("section", "change", "field"), [
    ("prizes", {"amount": "много"}, "prizes[0].amount"),
    ("prizes", {"place": 0}, "prizes[0].place"),
    ("prizes", {"category": 999}, "prizes[0].category"),
    ("categories", {"age_min": 70, "age_max": 10}, "categories[0]"),
    ("categories", {"members": "everyone"}, "categories[0].members"),
    ("players", {"sex": "x"}, "players[0].sex"),
])  # fmt: skip
def test_a_forged_category_or_prize_is_refused(doc, organiser, section, change, field):
    doc[section][0].update(change)
    before = Tournament.objects.count()
    with pytest.raises(TournamentError) as err:
        archive.import_tournament(doc, organiser)
    assert field in [e["field"] for e in err.value.errors]
    assert Tournament.objects.count() == before


def test_an_archive_from_before_the_prizes_imports_without_them(doc, organiser):
    for key in ("categories", "prizes"):
        doc.pop(key)
    for key in ("prize_priority", "prize_ties", "club_best"):
        doc["tournament"].pop(key)
    for player in doc["players"]:
        player.pop("sex"), player.pop("birth_year")
    copy_ = archive.import_tournament(doc, organiser)
    assert copy_.club_best == 3 and not copy_.categories.exists() and not copy_.prizes.exists()
