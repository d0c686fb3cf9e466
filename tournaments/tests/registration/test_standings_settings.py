"""The standings settings of issue 16 on the setup page and in the API: efectividad capped or
plain, the shares of the target of forfeits and byes, seeding round 1 by rating. Bad values get
a translated error and change nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SETUP = {
    "name": "Кубок", "rules_preset": "international", "rules_options": "{}", "format": "pairs",
    "system": "swiss", "rounds": 5, "points_win": 2, "points_draw": 1, "points_loss": 0,
    "bye_result": "win", "club_avoidance": "among_equals", "club_strict_until": 0,
    "first_round": "seed",
}  # fmt: skip


def test_the_setup_page_saves_the_efectividad_settings(client, organiser, tournament):
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/setup/").content.decode()
    assert 'name="efectividad"' in page and 'name="seed_by_rating"' in page
    answer = client.post(f"/manage/{tournament.pk}/setup/", {
        **SETUP, "efectividad": "plain", "forfeit_win_percent": 100, "forfeit_loss_percent": 50,
        "bye_percent": 25, "seed_by_rating": "on",
    })  # fmt: skip
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.efectividad, tournament.forfeit_win_percent,
            tournament.forfeit_loss_percent, tournament.bye_percent,
            tournament.seed_by_rating) == ("plain", 100, 50, 25, True)  # fmt: skip


def test_left_out_settings_keep_their_values(client, organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(efectividad="plain", bye_percent=70)
    client.force_login(organiser)
    assert client.post(f"/manage/{tournament.pk}/setup/", SETUP).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.efectividad, tournament.bye_percent) == ("plain", 70)


def test_bad_values_are_refused_with_a_translated_error(client, organiser, tournament):
    client.force_login(organiser)
    bad = client.post(f"/manage/{tournament.pk}/setup/", {
        **SETUP, "efectividad": "sideways", "forfeit_win_percent": 500})  # fmt: skip
    assert bad.status_code == 400
    html = bad.content.decode()
    assert "Выберите корректный вариант" in html
    assert "Убедитесь, что это значение меньше либо равно 200." in html
    tournament.refresh_from_db()
    assert (tournament.efectividad, tournament.forfeit_win_percent) == ("capped", 50)


def test_the_api_reads_and_writes_them(organiser, tournament):
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    assert api.get(url).json()["efectividad"] == "capped"
    answer = api.patch(url, {"efectividad": "plain", "bye_percent": 100}, format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["efectividad"], answer.json()["bye_percent"]) == ("plain", 100)
    bad = api.patch(url, {"forfeit_loss_percent": -1}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "forfeit_loss_percent"
