"""The archive carries the seasons a tournament counts in (issue 16), and the efectividad
settings: an administrator's import counts it in them again; an organiser's import names them in
a note and links nothing (seasons are the club's); an archive written before these keys reads
their defaults; a bad season is refused."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group, User

from tournaments import archive
from tournaments.errors import TournamentError
from tournaments.models import Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(tournament: Tournament, pairs) -> Tournament:
    pairs(tournament, 2)
    tournament.efectividad, tournament.bye_percent = "plain", 100
    tournament.save()
    season = Season.objects.create(name="Зимний сезон 2026/27", scale=[10, 5], best_of=3)
    season.tournaments.add(tournament)
    return tournament


def doc_of(tournament: Tournament) -> dict:
    return json.loads(archive.dumps(archive.export_tournament(tournament)))


def test_an_administrators_import_counts_the_tournament_in_its_seasons_again(counted):
    doc = doc_of(counted)
    assert doc["tournament"]["seasons"] == [
        {"name": "Зимний сезон 2026/27", "scope": "players", "scale": [10, 5], "best_of": 3}]
    admin = User.objects.create_user("admin", is_staff=True)
    admin.groups.add(Group.objects.get_or_create(name="Organiser")[0])
    Season.objects.all().delete()
    copy_ = archive.import_tournament(doc, admin)
    season = Season.objects.get(name="Зимний сезон 2026/27")
    assert list(season.tournaments.all()) == [copy_]
    assert (season.scale, season.best_of) == ([10, 5], 3)
    assert (copy_.efectividad, copy_.bye_percent) == ("plain", 100)


def test_an_organisers_import_names_the_seasons_and_links_nothing(counted, organiser):
    copy_ = archive.import_tournament(doc_of(counted), organiser)
    assert not copy_.seasons.exists()
    assert any("Зимний сезон 2026/27" in note for note in copy_.archive_notes)


def test_an_archive_from_before_issue_16_reads_the_defaults(counted, organiser):
    doc = doc_of(counted)
    for key in ("seasons", "efectividad", "forfeit_win_percent", "forfeit_loss_percent",
                "bye_percent", "seed_by_rating"):  # fmt: skip
        doc["tournament"].pop(key)
    copy_ = archive.import_tournament(doc, organiser)
    assert (copy_.efectividad, copy_.forfeit_win_percent, copy_.forfeit_loss_percent,
            copy_.bye_percent, copy_.seed_by_rating) == ("capped", 50, 100, 50, False)  # fmt: skip


def test_a_bad_season_is_refused(counted, organiser):
    doc = doc_of(counted)
    doc["tournament"]["seasons"] = [{"name": "Сезон", "scope": "players", "scale": ["x"]}]
    with pytest.raises(TournamentError) as refused:
        archive.import_tournament(doc, organiser)
    assert refused.value.errors[0]["field"] == "tournament.seasons[0]"
