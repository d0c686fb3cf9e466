"""Marking an entry absent again keeps the reason recorded for that round.

The registration table's absence form has no reason field, and the API's ``reason`` defaulted
to "": marking an entry absent for a round it was already absent in erased the reason given
before (say, through the API). Now a reason left out keeps the recorded one; one sent replaces
it; unmarking removes both.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.models import Entry, EntryAbsence

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(tournament) -> Entry:
    entry = Entry.objects.create(tournament=tournament, name="Дубль")
    EntryAbsence.objects.create(entry=entry, round_number=3, reason="работа")
    return entry


def reasons(entry: Entry) -> dict[int, str]:
    return dict(entry.absences.values_list("round_number", "reason"))


def test_the_api_keeps_the_reason_when_none_is_sent(organiser, entry) -> None:
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/entries/{entry.pk}/absences/"
    assert api.post(url, {"round": 3}, format="json").status_code == 200
    assert reasons(entry) == {3: "работа"}
    assert api.post(url, {"round": 3, "reason": "болезнь"}, format="json").status_code == 200
    assert reasons(entry) == {3: "болезнь"}
    assert api.post(url, {"round": 3, "reason": ""}, format="json").status_code == 200
    assert reasons(entry) == {3: ""}
    assert api.post(url, {"round": 3, "absent": False}, format="json").status_code == 200
    assert reasons(entry) == {}


def test_the_registration_page_keeps_the_reason(client, organiser, entry) -> None:
    client.force_login(organiser)
    url = f"/manage/{entry.tournament_id}/entries/{entry.pk}/absence/"
    assert client.post(url, {"round_number": 3, "absent": "on"}).status_code == 302
    assert reasons(entry) == {3: "работа"}
    client.post(url, {"round_number": 3, "absent": ""})
    assert reasons(entry) == {}
