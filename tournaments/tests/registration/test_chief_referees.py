"""Chief referees are appointed per tournament by its organisers: the API endpoint, the form on
the setup page, the audit log, and the refusals (not an organiser, not in the role)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import roles
from accounts.models import AuditEntry
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def chiefs(db) -> list:
    return [make_user("chief_a", roles.CHIEF_REFEREE), make_user("chief_b", roles.CHIEF_REFEREE)]


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_an_organiser_appoints_chief_referees_through_the_api(organiser, tournament, chiefs):
    url = f"/api/v1/tournaments/{tournament.pk}/chief-referees/"
    answer = api_as(organiser).post(url, {"chief_referees": [c.pk for c in chiefs]},
                                    format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    assert [c["username"] for c in answer.json()["chief_referees"]] == ["chief_a", "chief_b"]
    assert set(tournament.chief_referees.all()) == set(chiefs)
    entry = AuditEntry.objects.get(action="tournament.chief_referees")
    assert entry.user == organiser and entry.tournament_id == tournament.pk
    assert entry.before == {"chief_referees": []}
    assert entry.after == {"chief_referees": sorted(c.pk for c in chiefs)}
    # an appointed chief reads the list; the same list again logs nothing
    assert api_as(chiefs[0]).get(url).json()["chief_referees"][0]["username"] == "chief_a"
    api_as(organiser).post(url, {"chief_referees": [c.pk for c in chiefs]}, format="json")
    assert AuditEntry.objects.filter(action="tournament.chief_referees").count() == 1
    # the list replaces the previous one
    api_as(organiser).post(url, {"chief_referees": [chiefs[1].pk]}, format="json")
    assert list(tournament.chief_referees.all()) == [chiefs[1]]


def test_only_users_in_the_chief_referee_role_are_appointed(organiser, tournament, chiefs):
    plain = make_user("plain")
    url = f"/api/v1/tournaments/{tournament.pk}/chief-referees/"
    answer = api_as(organiser).post(url, {"chief_referees": [chiefs[0].pk, plain.pk]},
                                    format="json")  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "chief_referees"
    assert "plain" in answer.json()["errors"][0]["message"]
    unknown = api_as(organiser).post(url, {"chief_referees": [999999]}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["errors"][0]["field"] == "chief_referees"
    assert not tournament.chief_referees.exists()
    assert not AuditEntry.objects.filter(action="tournament.chief_referees").exists()


def test_others_cannot_appoint_nor_read_them(tournament, other_organiser, chiefs):
    url = f"/api/v1/tournaments/{tournament.pk}/chief-referees/"
    for user in (other_organiser, chiefs[0], make_user("plain")):
        answer = api_as(user).post(url, {"chief_referees": [chiefs[0].pk]}, format="json")
        assert answer.status_code == 403, user
        assert api_as(user).get(url).status_code == 403, user
    assert APIClient().get(url).status_code in (401, 403)
    assert not tournament.chief_referees.exists()


def test_the_setup_page_appoints_them(organiser, tournament, chiefs):
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/setup/")
    assert page.status_code == 200
    assert b'id="chief-referees-form"' in page.content and b"chief_a" in page.content
    answer = client.post(f"/manage/{tournament.pk}/chief-referees/",
                         {"chief_referees": [chiefs[0].pk]})  # fmt: skip
    assert answer.status_code == 302
    assert list(tournament.chief_referees.all()) == [chiefs[0]]
    # a user outside the role is not a choice: the form says so and nothing changes
    plain = make_user("plain")
    refused = client.post(f"/manage/{tournament.pk}/chief-referees/",
                          {"chief_referees": [plain.pk]})  # fmt: skip
    assert refused.status_code == 400
    assert "field-error" in refused.content.decode()
    assert list(tournament.chief_referees.all()) == [chiefs[0]]


def test_the_setup_form_is_the_organisers_only(tournament, other_organiser, chiefs):
    client = Client()
    client.force_login(other_organiser)
    answer = client.post(f"/manage/{tournament.pk}/chief-referees/",
                         {"chief_referees": [chiefs[0].pk]})  # fmt: skip
    assert answer.status_code in (403, 404)
    assert not tournament.chief_referees.exists()
