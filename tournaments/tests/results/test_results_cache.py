"""The standings page and API serve a cached table while nothing they depend on changes, and
show every change at once: a confirmed protocol, a sanction, a finished round, a withdrawal."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from rules import make_rules
from rules.simulate import play_match
from scoring import services as scoring
from tournaments import discipline, results, rounds
from tournaments.models import Round, Tournament
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def event(tournament, pairs) -> dict[str, Any]:
    a, b, c, d = pairs(tournament, 4)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 60))])
    r2 = play_round(tournament, 2, [(a, c, None), (b, d, (90, 70))])
    return {"a": a, "b": b, "c": c, "d": d, "r1": r1, "r2": r2}


def standings(client, tournament, query: str = "") -> str:
    response = client.get(reverse("tournaments:standings", args=[tournament.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def rank_of(html: str, entry) -> str:
    marker = f'data-participant="{entry.pk}" data-rank="'
    start = html.index(marker) + len(marker)
    return html[start : html.index('"', start)]


def test_a_second_visit_is_served_from_the_cache_in_fewer_queries(
    client, tournament, event, django_assert_max_num_queries
):
    first = standings(client, tournament, "?fragment=1")
    with django_assert_max_num_queries(4):  # the tournament, the session user, the stamp, cache
        again = standings(client, tournament, "?fragment=1")
    assert again == first


def test_a_protocol_confirmed_through_the_services_shows_at_once(client, tournament, event):
    a, c = event["a"], event["c"]
    before = standings(client, tournament)
    assert "1 стол ещё играет" in before
    match = table_match(event["r2"], 1)
    referee = make_user("table-ref", "Referee")
    chief = make_user("desk", "Chief referee")
    tournament.chief_referees.add(chief)  # chief referees are per tournament
    match.referee = referee
    match.save()
    import random

    for deal in play_match(make_rules("sport"), random.Random(3)):
        scoring.record_deal(match.pk, deal, referee)
    scoring.submit(match.pk, referee)
    scoring.confirm(match.pk, chief)
    after = standings(client, tournament)
    assert after != before
    assert "ещё играет" not in after
    winner = a if match.__class__.objects.get(pk=match.pk).winner == "NS" else c
    loser = c if winner == a else a
    assert int(rank_of(after, winner)) < int(rank_of(after, loser))


def test_a_sanction_and_its_revocation_show_at_once(client, tournament, event, organiser):
    a = event["a"]
    before = rank_of(standings(client, tournament), a)
    assert before == "1"
    sanction = discipline.record_sanction(organiser, tournament.pk, entry_id=a.pk, round_number=1,
                                       kind="deduction", match_points=4, reason="late")  # fmt: skip
    assert rank_of(standings(client, tournament), a) != "1"
    discipline.revoke_sanction(organiser, sanction.pk, "appeal")
    assert rank_of(standings(client, tournament), a) == "1"


def test_finishing_a_round_and_a_withdrawal_show_at_once(client, tournament, event, organiser):
    live = standings(client, tournament, "?round=1")
    assert 'data-source="live"' in live
    rounds.finish_round(organiser, event["r1"].pk)
    assert 'data-source="snapshot"' in standings(client, tournament, "?round=1")
    from tournaments.registration import withdraw_entry

    standings(client, tournament)  # cached before the changes below
    withdraw_entry(organiser, event["d"].pk)
    play_round(tournament, 3, [(event["b"], event["a"], (50, 40))], byes=[event["c"]])
    html = standings(client, tournament)
    fresh = results.live_table(tournament)
    assert fresh.round_number == 3
    for line in fresh.lines:
        entry = next(e for e in (event[k] for k in "abcd") if e.pk == line.participant)
        assert rank_of(html, entry) == str(line.rank)


def test_the_stamp_changes_with_each_kind_of_change(tournament, event, organiser):
    stamps = [results.results_stamp(tournament)]

    def changed() -> bool:
        stamps.append(results.results_stamp(tournament))
        return stamps[-1] != stamps[-2]

    assert not changed()
    rounds.finish_round(organiser, event["r1"].pk)
    assert changed()
    discipline.record_sanction(organiser, tournament.pk, entry_id=event["b"].pk, round_number=2,
                            kind="yellow", reason="noise")  # fmt: skip
    assert changed()
    from tournaments.registration import set_absence, withdraw_entry

    withdraw_entry(organiser, event["d"].pk)
    assert changed()
    set_absence(organiser, event["c"].pk, 4)
    assert changed()
    tournament.points_win = 3
    assert changed()
    # a protocol's change (every scoring service saves the match, bumping updated_at)
    from scoring.models import Match

    Match.objects.filter(pairing__round__tournament=tournament).first().save()
    assert changed()
    # ... and only this tournament's
    other = Tournament.objects.create(name="Другой турнир")
    Round.objects.create(tournament=other, number=1)
    assert not changed()


def test_spectators_may_see_a_live_table_a_few_seconds_old_but_organisers_never(
    client, tournament, event, organiser, settings
):
    """In a busy hall results change every second; visitors who are not signed in get a live
    table computed at most ``STANDINGS_SPECTATOR_MAX_AGE`` seconds ago instead of a new one per
    change. The organiser always sees the current results, and the grace ends with its age."""
    import time

    settings.STANDINGS_SPECTATOR_MAX_AGE = 1
    a = event["a"]
    assert rank_of(standings(client, tournament), a) == "1"
    discipline.record_sanction(organiser, tournament.pk, entry_id=a.pk, round_number=1,
                            kind="deduction", match_points=4, reason="late")  # fmt: skip
    assert rank_of(standings(client, tournament), a) == "1"  # the spectator's recent table
    from django.test import Client

    desk = Client()
    desk.force_login(organiser)
    assert rank_of(standings(desk, tournament), a) != "1"
    time.sleep(1.1)
    assert rank_of(standings(client, tournament), a) != "1"
