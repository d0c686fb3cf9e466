"""Red-team checks of the shared registry's levers beside the archive (issue 25), at the
attacker's layer: an organiser's own API cannot make his tournament count in the ratings, two
requests racing cannot seat one substitute at two tables of a round, and a flood of switches
cannot hold up another organiser's pairing behind a queue of recomputes."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tournaments.models import Entry, Player, Substitute, Tournament
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import PlayerFactory, TournamentFactory


def organiser_client(name: str) -> tuple[Any, APIClient]:
    user = make_user(name, "Organiser")
    api = APIClient()
    api.force_authenticate(user)
    return user, api


@pytest.mark.django_db
def test_an_organiser_cannot_make_his_own_tournament_rated() -> None:
    """Only a site administrator marks a tournament rated: the setup API and page ignore it."""
    user, api = organiser_client("lever")
    event = TournamentFactory(public=True, rated=False)
    event.organisers.add(user)
    for body in ({"rated": True}, {"rated": "true", "name": "Рейтинговый?"}):
        answer = api.patch(f"/api/v1/tournaments/{event.pk}/", body, format="json")
        assert answer.status_code in (200, 400), answer.content
        assert Tournament.objects.get(pk=event.pk).rated is False
    page = APIClient()
    page.force_login(user)
    page.post(f"/manage/{event.pk}/setup/", {"name": event.name, "rated": "on", "public": "on"})
    assert Tournament.objects.get(pk=event.pk).rated is False


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_seat_one_substitute_once(require_postgres) -> None:
    """The same reserve sent for two pairs of one round in the same instant: one seat."""
    user, _api = organiser_client("racer")
    event = TournamentFactory(rounds=3, public=True)
    event.organisers.add(user)
    entries = add_pairs(event, 4)
    reserve = PlayerFactory(last_name="Запасной", club=None)
    Player.objects.filter(pk__in=[p.pk for e in entries for p in e.players.all()]).update(
        club=None)  # every entry's club is «none»: the reserve may stand in for any of them
    Entry.objects.filter(tournament=event).update(club=None)
    barrier, answers = threading.Barrier(2), []

    def post(entry: Entry) -> None:
        api = APIClient()
        api.force_authenticate(user)
        try:
            barrier.wait()
            answers.append(api.post(f"/api/v1/tournaments/{event.pk}/substitutes/", {
                "replaced": entry.players.first().pk, "player": reserve.pk, "from_round": 1,
            }, format="json").status_code)  # fmt: skip
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(entry,)) for entry in entries[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 409], answers
    assert Substitute.objects.filter(player=reserve).count() == 1
