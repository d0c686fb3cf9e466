"""Rounds are paired in order, over HTTP (the API and the organiser's dashboard): round N+1 only
once round N is finished, or earlier with the organiser's reason, which is logged and shown on
the round's page.

Before, round 3 could be paired and published while round 2 had no result at all (it was then
paired from round 1's standings): "pair round N+1" was offered as soon as N was published.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import AuditEntry
from tournaments import rounds
from tournaments.models import Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.rounds.test_rounds import trivial_swiss  # noqa: F401 - autouse fixture

pytestmark = pytest.mark.django_db

REASON = "Зал закрывается в 18:00: тур 1 доигрывают параллельно"


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    """Four pairs; round 1 finished; round 2 published with no result yet."""
    a, b, c, d = pairs(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 60))])
    r1.status = Round.Status.FINISHED
    r1.save()
    r2 = play_round(tournament, 2, [(a, c, None), (b, d, None)])
    return {"entries": [a, b, c, d], "r1": r1, "r2": r2}


def api_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def pairings_logged(tournament: Tournament) -> int:
    return AuditEntry.objects.filter(tournament_id=tournament.pk, action="round.pair").count()


def test_the_api_refuses_round_3_while_round_2_has_no_result(event, tournament,
                                                            organiser) -> None:  # fmt: skip
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    for body in ({}, {"override_reason": ""}, {"override_reason": "   "}):
        answer = api_of(organiser).post(url, body, format="json")
        assert answer.status_code == 409, answer.json()
        error = answer.json()["errors"][0]
        assert (error["code"], error["field"]) == ("previous_round_open", "override_reason")
        assert error["message"].startswith("Тур 2 ещё не завершён, а пары тура 3 составляются")
    answer = api_of(organiser).post(url, {"override_reason": "x" * 501}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "override_reason"
    assert not Round.objects.filter(tournament=tournament, number=3).exists()
    assert pairings_logged(tournament) == 0


def test_with_a_reason_the_api_pairs_it_and_the_reason_is_logged_and_shown(
    event, tournament, organiser, django_capture_on_commit_callbacks
) -> None:
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_of(organiser).post(url, {"override_reason": f"  {REASON} "}, format="json")
    assert answer.status_code == 202, answer.json()
    assert answer.json()["number"] == 3
    assert Round.objects.get(tournament=tournament, number=3).status == Round.Status.PAIRED
    entry = AuditEntry.objects.get(tournament_id=tournament.pk, action="round.pair")
    assert entry.user == organiser
    assert entry.after == {"number": 3, "status": "pairing", "override_reason": REASON,
                           "previous_round": 2, "previous_status": "published"}  # fmt: skip
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/3/").content.decode()
    assert 'id="pairing-override"' in page
    assert "Пары составлены до завершения тура 2, организатор: org" in page
    assert REASON in page


def test_once_the_round_is_finished_no_reason_is_needed_and_none_is_kept(
    event, tournament, organiser, django_capture_on_commit_callbacks
) -> None:
    Round.objects.filter(pk=event["r2"].pk).update(status=Round.Status.FINISHED)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_of(organiser).post(f"/api/v1/tournaments/{tournament.pk}/rounds/",
                                        {"override_reason": REASON}, format="json")  # fmt: skip
    assert answer.status_code == 202
    entry = AuditEntry.objects.get(tournament_id=tournament.pk, action="round.pair")
    assert entry.after == {"number": 3, "status": "pairing"}
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/3/").content.decode()
    assert 'id="pairing-override"' not in page


def test_the_dashboard_asks_for_the_reason_and_the_page_pairs_only_with_it(
    event, tournament, organiser, django_capture_on_commit_callbacks
) -> None:
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/").content.decode()
    assert 'id="previous-open"' in page and 'name="override_reason"' in page
    assert "Всё равно составить пары тура 3" in page
    assert ">Составить пары тура 3<" not in page  # no plain button

    answer = client.post(f"/manage/{tournament.pk}/rounds/pair/", follow=True)
    assert answer.redirect_chain[-1][0] == f"/manage/{tournament.pk}/"
    assert "Тур 2 ещё не завершён" in answer.content.decode()
    assert not Round.objects.filter(tournament=tournament, number=3).exists()
    assert pairings_logged(tournament) == 0

    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/manage/{tournament.pk}/rounds/pair/",
                             {"override_reason": REASON}, follow=True)  # fmt: skip
    assert answer.redirect_chain[-1][0] == f"/manage/{tournament.pk}/rounds/3/"
    assert REASON in answer.content.decode()
    assert Round.objects.get(tournament=tournament, number=3).status == Round.Status.PAIRED


def test_a_finished_previous_round_gives_the_plain_button(event, tournament, organiser) -> None:
    Round.objects.filter(pk=event["r2"].pk).update(status=Round.Status.FINISHED)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/").content.decode()
    assert ">Составить пары тура 3<" in page
    assert 'name="override_reason"' not in page


def test_a_failed_pairing_is_retried_under_the_same_rule(event, tournament, organiser) -> None:
    """Round 3's job failed (``new``) while round 2 is still open: pairing it again needs the
    reason too."""
    Round.objects.create(tournament=tournament, number=3, status=Round.Status.NEW, error="x")
    answer = api_of(organiser).post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["code"] == "previous_round_open"
    assert rounds.round_to_pair(tournament, {1: "finished", 2: "published", 3: "new"}) == (
        3, "previous_open", 2)
