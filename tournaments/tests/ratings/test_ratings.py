"""Ratings recomputed from the confirmed matches in order (openskill, teams of two), their
pages and API, and what never shows in them: a private tournament's matches."""

from __future__ import annotations

import datetime
import time

import pytest
from django.urls import reverse

from tournaments import ratings, registration, rounds
from tournaments.models import PlayerRating, RatingChange, Round, Tournament
from tournaments.ratings.compute import RatedMatch, replay
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def rating_of(player_id: int) -> int:
    return PlayerRating.objects.get(player_id=player_id).rating


def players(entry) -> list[int]:
    return sorted(entry.players.values_list("pk", flat=True))


def test_a_win_raises_both_partners_and_lowers_both_opponents(tournament, pairs):
    one, two, three = pairs(tournament, 3)
    play_round(tournament, 1, [(one, two, (120, 80))], byes=[three])
    assert ratings.recompute() == 1
    for pk in players(one):
        assert rating_of(pk) > 1500
    for pk in players(two):
        assert rating_of(pk) < 1500
    # a bye is no match: the third pair is not rated
    assert not PlayerRating.objects.filter(player_id__in=players(three)).exists()
    change = RatingChange.objects.get(player_id=players(one)[0])
    assert (change.result, change.round_number, change.before) == ("win", 1, 1500)
    assert change.delta > 0


def test_recomputing_is_idempotent(tournament, pairs):
    a, b, c, d = pairs(tournament, 4)
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 100))])
    play_round(tournament, 2, [(a, c, (60, 90)), (b, d, (110, 30))])
    ratings.recompute()
    first = list(RatingChange.objects.order_by("player_id", "sequence")
                 .values_list("player_id", "match_id", "mu_after", "sigma_after"))  # fmt: skip
    ratings.recompute()
    again = list(RatingChange.objects.order_by("player_id", "sequence")
                 .values_list("player_id", "match_id", "mu_after", "sigma_after"))  # fmt: skip
    assert first == again and len(first) == 16
    draw = RatingChange.objects.filter(player_id=players(c)[0], round_number=1).get()
    assert draw.result == "draw"


def test_a_late_import_of_an_earlier_event_takes_its_place_in_the_history(organiser):
    later = TournamentFactory(name="Февраль", start_date=datetime.date(2027, 2, 1))
    a, b = add_pairs(later, 2)
    play_round(later, 1, [(a, b, (120, 80))])
    ratings.recompute()
    alone = rating_of(players(a)[0])
    # an event of January, entered after February's: the same players, b won then
    earlier = TournamentFactory(name="Январь", start_date=datetime.date(2027, 1, 10))
    earlier_a, earlier_b = add_pairs(earlier, 2)
    earlier_a.players.set(a.players.all())
    earlier_b.players.set(b.players.all())
    play_round(earlier, 1, [(earlier_a, earlier_b, (50, 120))])
    ratings.recompute()
    sequence = list(RatingChange.objects.filter(player_id=players(a)[0])
                    .order_by("sequence").values_list("tournament__name", flat=True))  # fmt: skip
    assert sequence == ["Январь", "Февраль"]
    # the same numbers as replaying the two matches in date order from scratch
    team_a, team_b = tuple(players(a)), tuple(players(b))
    states, _changes = replay([RatedMatch(1, (team_a, team_b), (1, 0)),
                               RatedMatch(2, (team_a, team_b), (0, 1))])  # fmt: skip
    assert PlayerRating.objects.get(player_id=team_a[0]).mu == pytest.approx(states[team_a[0]].mu)
    assert rating_of(team_a[0]) != alone


def test_a_private_tournaments_matches_are_never_rated(organiser):
    private = TournamentFactory(name="Закрытый", public=False)
    a, b = add_pairs(private, 2)
    play_round(private, 1, [(a, b, (120, 80))])
    assert ratings.recompute() == 0
    assert not PlayerRating.objects.exists()


def test_individual_partners_and_free_for_all_tables_are_rated():
    # partners drawn each round: a team per match; each for himself: four one-player teams
    states, changes = replay([
        RatedMatch(1, ((1, 2), (3, 4)), (0, 1)),
        RatedMatch(2, ((1, 3), (2, 4)), (0, 1)),
        RatedMatch(3, ((1,), (2,), (3,), (4,)), (0, 1, 2, 3)),
    ])  # fmt: skip
    assert states[1].mu > states[2].mu > states[4].mu
    assert states[1].matches == 3
    assert [c.result for c in changes if c.match == 3] == ["win", "loss", "loss", "loss"]


def test_finishing_a_round_recomputes_the_ratings(tournament, organiser, pairs,
                                                  django_capture_on_commit_callbacks):  # fmt: skip
    a, b = pairs(tournament, 2)
    round_ = play_round(tournament, 1, [(a, b, (120, 80))])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.finish_round(organiser, round_.pk)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED
    assert rating_of(players(a)[0]) > 1500


@pytest.mark.django_db(transaction=True)
def test_the_worker_recomputes_the_ratings_after_a_finished_round(
    require_postgres, require_worker, organiser
):
    tournament = TournamentFactory(name="Кубок воркера")
    tournament.organisers.add(organiser)
    a, b = add_pairs(tournament, 2)
    round_ = play_round(tournament, 1, [(a, b, (120, 80))])
    rounds.finish_round(organiser, round_.pk)  # the task is sent on commit
    started = time.monotonic()
    while not PlayerRating.objects.exists() and time.monotonic() - started < 60:
        time.sleep(0.2)
    assert rating_of(players(a)[0]) > 1500 > rating_of(players(b)[0])


def test_rating_pages_list_history_chart_and_the_change_on_the_players_page(client, tournament,
                                                                           pairs):  # fmt: skip
    a, b = pairs(tournament, 2)
    play_round(tournament, 1, [(a, b, (120, 80))])
    ratings.recompute()
    winner = players(a)[0]
    page = client.get(reverse("tournaments:ratings")).content.decode()
    assert 'id="rating-list"' in page and "± " in page
    first_row = page.split('<tr data-player="')[1]
    assert int(first_row.split('"')[0]) in players(a)
    mine = client.get(reverse("tournaments:player_rating", args=[winner])).content.decode()
    assert "<svg" in mine and 'class="rating-chart"' in mine
    delta = RatingChange.objects.get(player_id=winner).delta
    assert 'id="rating-changes"' in mine and f"+{delta}" in mine
    history = client.get(reverse("tournaments:player", args=[winner])).content.decode()
    assert 'class="rating-change"' in history and "1500 →" in history


def test_rating_api_list_and_player(client, tournament, pairs):
    a, b = pairs(tournament, 2)
    play_round(tournament, 1, [(a, b, (120, 80))])
    ratings.recompute()
    body = client.get("/api/v1/ratings/").json()
    assert body["count"] == 4
    assert [row["rank"] for row in body["results"]] == [1, 2, 3, 4]
    assert body["results"][0]["player"] in players(a)
    winner = players(a)[0]
    mine = client.get(f"/api/v1/ratings/{winner}/").json()
    assert mine["changes"][0]["result"] == "win" and mine["changes"][0]["before"] == 1500
    assert client.get("/api/v1/ratings/999999/").status_code == 404
    assert client.get("/api/v1/ratings/?club=abc").status_code == 404


def test_a_player_of_a_private_tournament_has_no_rating_page(client):
    private = TournamentFactory(name="Закрытый", public=False)
    a, b = add_pairs(private, 2)
    play_round(private, 1, [(a, b, (120, 80))])
    ratings.recompute()
    pk = players(a)[0]
    assert client.get(reverse("tournaments:player_rating", args=[pk])).status_code == 404
    assert client.get(f"/api/v1/ratings/{pk}/").status_code == 404
    assert pk not in [r["player"] for r in client.get("/api/v1/ratings/").json()["results"]]
    assert isinstance(private, Tournament)


def test_a_tournament_made_private_leaves_every_rating(
    tournament, organiser, pairs, client, django_capture_on_commit_callbacks
):
    a, b = pairs(tournament, 2)
    play_round(tournament, 1, [(a, b, (120, 80))])
    ratings.recompute()
    winner = players(a)[0]
    assert client.get(reverse("tournaments:player_rating", args=[winner])).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        registration.update_tournament(organiser, tournament.pk, public=False)
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()
    assert client.get(reverse("tournaments:player_rating", args=[winner])).status_code == 404
