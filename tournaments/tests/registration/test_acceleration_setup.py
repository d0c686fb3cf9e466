"""The accelerated Swiss setting (FIDE C.04.5.1, Baku) on the setup page, in the API and in the
archive: saved from the form and shown again, kept when a form leaves it out, read and written by
the API, carried by an export into the imported copy; an archive from before it reads «none»."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tournaments import archive
from tournaments.errors import TournamentError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SETUP = {
    "name": "Кубок", "rules_preset": "sport", "rules_options": "{}", "format": "pairs",
    "system": "swiss", "rounds": 9, "points_win": 2, "points_draw": 1, "points_loss": 0,
    "bye_result": "win", "club_avoidance": "among_equals", "club_strict_until": 0,
    "first_round": "seed",
}  # fmt: skip


def test_the_setup_page_offers_saves_and_shows_the_acceleration(client, organiser, tournament):
    client.force_login(organiser)
    url = f"/manage/{tournament.pk}/setup/"
    page = client.get(url).content.decode()
    assert 'name="acceleration"' in page
    assert "Ускоренная жеребьёвка" in page and "ускорение «Баку»" in page
    assert "Ускорение «Баку» (ФИДЕ C.04.5.1)" in page  # what it does, under the field
    assert client.post(url, {**SETUP, "acceleration": "baku"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.acceleration == Tournament.Acceleration.BAKU
    again = client.get(url).content.decode()
    assert '<option value="baku" selected>' in again
    # a form that leaves it out keeps it
    assert client.post(url, SETUP).status_code == 302
    tournament.refresh_from_db()
    assert tournament.acceleration == "baku"
    assert client.post(url, {**SETUP, "acceleration": "none"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.acceleration == "none"


def test_a_bad_value_is_refused(client, organiser, tournament):
    client.force_login(organiser)
    bad = client.post(f"/manage/{tournament.pk}/setup/", {**SETUP, "acceleration": "turbo"})
    assert bad.status_code == 400
    assert "Выберите корректный вариант" in bad.content.decode()
    tournament.refresh_from_db()
    assert tournament.acceleration == "none"


def test_the_api_reads_and_writes_it(organiser, tournament):
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    assert api.get(url).json()["acceleration"] == "none"
    answer = api.patch(url, {"acceleration": "baku"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["acceleration"] == "baku"
    assert api.patch(url, {"acceleration": "fast"}, format="json").status_code == 400


def test_the_archive_keeps_it_and_an_older_archive_reads_none(organiser, tournament, pairs):
    pairs(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(acceleration="baku")
    tournament.refresh_from_db()
    doc = json.loads(archive.dumps(archive.export_tournament(tournament)))
    assert doc["tournament"]["acceleration"] == "baku"
    assert archive.import_tournament(doc, organiser).acceleration == "baku"
    doc["tournament"].pop("acceleration")
    assert archive.import_tournament(doc, organiser).acceleration == "none"
    doc["tournament"]["acceleration"] = "turbo"
    with pytest.raises(TournamentError) as refused:
        archive.import_tournament(doc, organiser)
    assert refused.value.errors[0]["field"] == "tournament.acceleration"
