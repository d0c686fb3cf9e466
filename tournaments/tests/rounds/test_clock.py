"""The round clock (``rounds.clock``): the organiser starts, pauses, resumes and extends it, each
change audited and pushed to every table's match; a deal recorded after the end is the last one
and the referee's page says why the match ended; nobody else may touch the clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import AuditEntry
from scoring import services as scoring
from scoring.models import Match
from scoring.tests.helpers import sport_deals
from tournaments import rounds
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Pairing, Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(tournament: Tournament, organiser: User, pairs) -> dict[str, Any]:
    """Round 1 published, two tables in play, each with its referee."""
    Tournament.objects.filter(pk=tournament.pk).update(round_minutes=40)
    e = pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    ref = make_user("ref", "Referee")
    for pairing in Pairing.objects.filter(round=round_):
        Pairing.objects.filter(pk=pairing.pk).update(referee=ref)
        Match.objects.filter(pk=pairing.match_id).update(referee=ref)
    matches = list(Match.objects.filter(pairing__round=round_).order_by("pairing__table"))
    return {"round": round_, "ref": ref, "matches": matches, "tournament": tournament}


def back(round_: Round, minutes: float) -> None:
    """The clock as if started ``minutes`` ago, and its matches told so (a test cannot wait)."""
    Round.objects.filter(pk=round_.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=minutes))
    round_.refresh_from_db()
    scoring.set_clock(Match.objects.filter(pairing__round=round_).values_list("pk", flat=True),
                      ends_at=round_.clock_ends_at(), paused_left=round_.clock_paused_left())


def test_start_uses_the_tournaments_limit_and_reaches_every_table(organiser, hall) -> None:
    before = timezone.now()
    round_ = rounds.start_clock(organiser, hall["round"].pk)
    assert round_.clock_minutes == 40
    end = round_.clock_ends_at()
    assert end is not None and before + timedelta(minutes=40) <= end
    for match in Match.objects.filter(pairing__round=round_):
        assert match.clock_ends_at == end and match.clock_paused_left is None
    entry = AuditEntry.objects.get(action="round.clock_start")
    assert entry.tournament_id == hall["tournament"].pk and entry.after["clock_minutes"] == 40
    with pytest.raises(Conflict):
        rounds.start_clock(organiser, round_.pk)  # already running


def test_pause_resume_and_extend_move_the_end(organiser, hall) -> None:
    round_ = rounds.start_clock(organiser, hall["round"].pk, 30)
    back(round_, 10)  # 20 minutes left
    round_ = rounds.pause_clock(organiser, round_.pk)
    left = round_.clock_paused_left()
    assert left is not None and 19 * 60 < left <= 20 * 60
    match = Match.objects.get(pk=hall["matches"][0].pk)
    assert match.clock_ends_at is None and match.clock_paused_left == left
    with pytest.raises(Conflict):
        rounds.pause_clock(organiser, round_.pk)
    # paused 5 minutes ago: what was left then is left after resuming
    Round.objects.filter(pk=round_.pk).update(
        clock_paused_at=timezone.now() - timedelta(minutes=5))
    round_.refresh_from_db()
    left = round_.clock_paused_left()
    assert left is not None
    round_ = rounds.resume_clock(organiser, round_.pk)
    end = round_.clock_ends_at()
    assert end is not None
    assert abs((end - timezone.now()).total_seconds() - left) < 5
    round_ = rounds.extend_clock(organiser, round_.pk, 5)
    assert round_.clock_extra_minutes == 5
    assert Match.objects.get(pk=hall["matches"][1].pk).clock_ends_at == end + timedelta(minutes=5)
    assert list(AuditEntry.objects.filter(action__startswith="round.clock_").order_by("pk")
                .values_list("action", flat=True)) == [
        "round.clock_start", "round.clock_pause", "round.clock_resume", "round.clock_extend"]


@pytest.mark.parametrize("minutes", ["0", "-5", "abc", "601", ""])
def test_bad_minutes_are_refused_and_change_nothing(organiser, hall, minutes) -> None:
    Tournament.objects.filter(pk=hall["tournament"].pk).update(round_minutes=None)
    with pytest.raises(TournamentError) as err:
        rounds.start_clock(organiser, hall["round"].pk, minutes)
    assert err.value.errors[0]["field"] == "minutes"
    hall["round"].refresh_from_db()
    assert hall["round"].clock_started_at is None
    assert not AuditEntry.objects.filter(action__startswith="round.clock").exists()


def test_only_a_published_round_has_a_clock(organiser, hall) -> None:
    Round.objects.filter(pk=hall["round"].pk).update(status=Round.Status.FINISHED)
    with pytest.raises(Conflict):
        rounds.start_clock(organiser, hall["round"].pk)


def test_others_may_not_touch_the_clock(client, organiser, other_organiser, hall) -> None:
    chief = make_user("chief", "Chief referee")
    hall["tournament"].chief_referees.add(chief)
    url = f"/manage/{hall['tournament'].pk}/rounds/1/clock/start/"
    for who in (other_organiser, chief, hall["ref"]):
        with pytest.raises(NotAllowed):
            rounds.start_clock(who, hall["round"].pk)
        client.force_login(who)
        assert client.post(url, {"minutes": "30"}).status_code in (403, 404)
    client.logout()
    response = client.post(url, {"minutes": "30"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    hall["round"].refresh_from_db()
    assert hall["round"].clock_started_at is None


def test_the_organisers_buttons_and_a_bad_value(client, organiser, hall) -> None:
    client.force_login(organiser)
    base = f"/manage/{hall['tournament'].pk}/rounds/1/"
    page = client.get(base).content.decode()
    assert 'id="clock-start-form"' in page and 'value="40"' in page
    page = client.post(f"{base}clock/start/", {"minutes": "0"}, follow=True).content.decode()
    assert "Укажите целое число минут от 1 до 600." in page
    page = client.post(f"{base}clock/start/", {"minutes": "25"}, follow=True).content.decode()
    assert "Часы тура идут." in page and 'id="round-clock"' in page
    assert 'id="clock-pause-form"' in page
    page = client.post(f"{base}clock/pause/", follow=True).content.decode()
    assert 'id="clock-resume-form"' in page and "пауза" in page
    assert client.post(f"{base}clock/explode/").status_code == 404


def test_the_clock_json_is_for_those_who_see_the_round(client, organiser, hall) -> None:
    Tournament.objects.filter(pk=hall["tournament"].pk).update(public=False)
    rounds.start_clock(organiser, hall["round"].pk, 40)
    url = f"/tournaments/{hall['tournament'].pk}/rounds/1/clock/"
    assert client.get(url).status_code == 404  # a private tournament: not there for strangers
    Tournament.objects.filter(pk=hall["tournament"].pk).update(public=True)
    data = client.get(url).json()["clock"]
    assert not data["paused"] and not data["time_up"] and 39 * 60 < data["left"] <= 40 * 60
    assert data["now"] and data["ends_at"]
    Round.objects.filter(pk=hall["round"].pk).update(status=Round.Status.PAIRED)
    assert client.get(url).status_code == 404  # not published: only its judges see it
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_a_deal_after_time_ends_the_match_and_the_page_says_why(client, organiser,
                                                                hall) -> None:  # fmt: skip
    round_ = rounds.start_clock(organiser, hall["round"].pk, 40)
    match, ref, deals = hall["matches"][0], hall["ref"], sport_deals()
    scoring.record_deal(match.pk, deals[0], ref)
    client.force_login(ref)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="round-clock"' in page and 'id="last-by-time"' not in page
    assert client.get(f"/matches/{match.pk}/clock/").json()["clock"]["time_up"] is False

    back(round_, 41)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="last-by-time"' in page
    assert 'name="time_up" id="id_time_up" checked' in page or (
        'checked' in page.split('name="time_up"')[1].split(">")[0])
    assert client.get(f"/matches/{match.pk}/clock/").json()["clock"]["time_up"] is True
    # the referee's phone sends the deal without time_up: the server ends the match anyway
    scoring.record_deal(match.pk, deals[1], ref)
    match.refresh_from_db()
    assert match.finished and match.end == "time"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="ended-by-time"' in page and 'id="last-by-time"' not in page
    assert page.count('class="tag time-up-tag"') == 1  # on the deal after which time ran out
    # the other table, not started, is not ended by the clock until it records a deal
    assert not Match.objects.get(pk=hall["matches"][1].pk).finished


def test_the_api_drives_the_clock_for_organisers_only(organiser, other_organiser, hall) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    url = f"/api/v1/rounds/{hall['round'].pk}/clock/"
    chief = make_user("chief", "Chief referee")
    hall["tournament"].chief_referees.add(chief)
    for who in (other_organiser, hall["ref"], chief, None):
        api.force_authenticate(who)
        answer = api.post(url, {"action": "start"}, format="json")
        assert answer.status_code in (401, 403, 404), (who, answer.status_code)
    api.force_authenticate(organiser)
    assert api.get(url).json() == {"clock": None}
    bad = api.post(url, {"action": "start", "minutes": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "minutes"
    started = api.post(url, {"action": "start"}, format="json").json()["clock"]
    assert 39 * 60 < started["left"] <= 40 * 60 and not started["paused"]
    paused = api.post(url, {"action": "pause"}, format="json").json()["clock"]
    assert paused["paused"] and paused["ends_at"] is None
    again = api.post(url, {"action": "pause"}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "clock_paused"
    api.post(url, {"action": "resume"}, format="json")
    longer = api.post(url, {"action": "extend", "minutes": 10}, format="json").json()["clock"]
    assert longer["left"] > 49 * 60
    assert api.post(url, {"action": "explode"}, format="json").status_code == 400


def test_the_minutes_added_to_a_round_are_bounded(organiser, hall) -> None:
    """Issue 25: the 273rd extension overflowed the column (500). The minutes added in all stay
    within a day's session; beyond it a clear 400 that changes nothing."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/rounds/{hall['round'].pk}/clock/"
    assert api.post(url, {"action": "start"}, format="json").status_code == 200
    for _ in range(rounds.clock.MAX_EXTRA // 120):
        assert api.post(url, {"action": "extend", "minutes": 120}, format="json",
                        ).status_code == 200  # fmt: skip
    for minutes in (1, 120):
        over = api.post(url, {"action": "extend", "minutes": minutes}, format="json",
                        HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
        assert over.status_code == 400, over.content
        error = over.json()["errors"][0]
        assert error["field"] == "minutes" and "600" in error["message"]
    assert Round.objects.get(pk=hall["round"].pk).clock_extra_minutes == rounds.clock.MAX_EXTRA
