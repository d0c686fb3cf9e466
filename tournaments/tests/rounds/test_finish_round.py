"""Finishing a round and closing the event: the organiser's round page and dashboard, the service
``rounds.close_tournament`` and what is refused while tables are still open."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from scoring.models import Match
from tournaments import discipline, rounds
from tournaments.errors import Conflict, NotAllowed
from tournaments.models import Round, Standing, Tournament
from tournaments.tests.builders import play_round, table_match

pytestmark = pytest.mark.django_db


def confirm(match: Match, ns: int, ew: int) -> None:
    winner = "draw" if ns == ew else ("NS" if ns > ew else "EW")
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.CONFIRMED, winner=winner, totals={"NS": ns, "EW": ew},
        finished=True, end="deals", confirmed_at=timezone.now(),
    )  # fmt: skip


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    """Four pairs; round 1 published: table 1 confirmed (A beats B), table 2 still in play."""
    a, b, c, d = pairs(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING, rounds=2)
    tournament.refresh_from_db()
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)])
    return {"a": a, "b": b, "c": c, "d": d, "r1": r1}


def test_finishing_with_an_open_table_is_refused_then_allowed(client, organiser, tournament,
                                                              event) -> None:  # fmt: skip
    client.force_login(organiser)
    url = f"/manage/{tournament.pk}/rounds/1/"
    page = client.get(url).content.decode()
    assert "Завершить тур" in page
    assert "Ещё не подтверждены: стол 2." in page  # shown before trying

    answer = client.post(f"{url}finish/", follow=True)
    page = answer.content.decode()
    assert "Ещё не подтверждены столы: 2." in page  # the refusal, as a message
    event["r1"].refresh_from_db()
    assert event["r1"].status == Round.Status.PUBLISHED
    assert not Standing.objects.exists()

    confirm(table_match(event["r1"], 2), 100, 60)
    answer = client.post(f"{url}finish/", follow=True)
    page = answer.content.decode()
    assert "Тур 1 завершён; таблица после него сохранена." in page
    assert 'id="finished"' in page and "Завершить тур" not in page
    assert f"/tournaments/{tournament.pk}/standings/?round=1" in page
    event["r1"].refresh_from_db()
    assert event["r1"].status == Round.Status.FINISHED
    assert Standing.objects.filter(round=event["r1"]).count() == 4


def test_a_forfeit_decides_an_open_table(client, organiser, tournament, event) -> None:

    discipline.record_sanction(organiser, tournament.pk, entry_id=event["d"].pk, round_number=1,
                            kind="forfeit", reason="did not come", table=2)  # fmt: skip
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
    assert "Ещё не подтверждены" not in page
    assert "техническое поражение" in page
    client.post(f"/manage/{tournament.pk}/rounds/1/finish/")
    event["r1"].refresh_from_db()
    assert event["r1"].status == Round.Status.FINISHED


def test_dashboard_counts_tables_and_nudges_to_finish(client, organiser, tournament,
                                                      event) -> None:  # fmt: skip
    match = table_match(event["r1"], 2)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SUBMITTED)
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/").content.decode()
    assert "подтверждено: 1, сдано: 1, играется: 0" in page
    assert "Тур 1 опубликован, но не завершён" in page
    # round 2 waits for round 1 to be finished: pairing it now asks for the reason
    assert 'name="override_reason"' in page and "Всё равно составить пары тура 2" in page
    assert "Завершить турнир" not in page

    confirm(match, 70, 90)
    client.post(f"/manage/{tournament.pk}/rounds/1/finish/")
    page = client.get(f"/manage/{tournament.pk}/").content.decode()
    assert "подтверждено: 2, сдано: 0, играется: 0" in page
    assert "опубликован, но не завершён" not in page
    assert f"/tournaments/{tournament.pk}/standings/?round=1" in page
    assert "Завершить турнир" in page
    assert "Сыграно только 1 из 2 запланированных туров." in page
    assert ">Составить пары тура 2<" in page and 'name="override_reason"' not in page


def test_closing_the_event_needs_every_round_finished(organiser, other_organiser, tournament,
                                                      event) -> None:  # fmt: skip
    with pytest.raises(NotAllowed) as refused:
        rounds.close_tournament(other_organiser, tournament.pk)
    assert refused.value.codes == ["not_organiser"]
    with pytest.raises(Conflict) as refused:
        rounds.close_tournament(organiser, tournament.pk)
    assert refused.value.codes == ["rounds_open"]
    assert "не завершены: 1" in refused.value.messages[0]
    confirm(table_match(event["r1"], 2), 100, 60)

    rounds.finish_round(organiser, event["r1"].pk)
    closed = rounds.close_tournament(organiser, tournament.pk)
    assert closed.status == Tournament.Status.FINISHED
    assert rounds.close_tournament(organiser, tournament.pk).status == "finished"  # again: same
    # a finished event pairs no more rounds
    assert rounds.round_to_pair(closed, {1: "finished"})[:2] == (1, "finished")


def test_an_event_without_rounds_cannot_close(organiser, tournament) -> None:
    with pytest.raises(Conflict) as refused:
        rounds.close_tournament(organiser, tournament.pk)
    assert refused.value.codes == ["no_rounds"]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_close_button_on_the_dashboard(client, organiser, tournament, event) -> None:
    client.force_login(organiser)
    answer = client.post(f"/manage/{tournament.pk}/close/", follow=True)
    assert "Сначала завершите все туры; не завершены: 1." in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    confirm(table_match(event["r1"], 2), 100, 60)
    client.post(f"/manage/{tournament.pk}/rounds/1/finish/")
    answer = client.post(f"/manage/{tournament.pk}/close/", follow=True)
    assert "Турнир завершён." in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_finish_and_close_need_the_csrf_token(organiser, tournament, event) -> None:
    confirm(table_match(event["r1"], 2), 100, 60)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(organiser)
    assert strict.post(f"/manage/{tournament.pk}/rounds/1/finish/").status_code == 403
    event["r1"].refresh_from_db()
    assert event["r1"].status == Round.Status.PUBLISHED


def test_only_organisers_finish_rounds(client, other_organiser, referee, tournament,
                                       event) -> None:  # fmt: skip
    url = f"/manage/{tournament.pk}/rounds/1/finish/"
    assert client.post(url).status_code == 302  # to the login page
    for user in (other_organiser, referee):
        client.force_login(user)
        assert client.post(url).status_code == 403
    assert client.post(f"/manage/{tournament.pk}/close/").status_code == 403
