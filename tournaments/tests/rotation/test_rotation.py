"""A «Генерал» evening «на вылет» of three teams through the API and the real services: set up
with its stints ending by two lost deals, each round pairs the team that stayed against the
next in the queue, the stints are played deal by deal (the club simulator) and confirmed, and
the page ranks the teams by generals and lost deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from rules.club import club_judge
from rules.club.simulate import play_club_match
from scoring import services as scoring
from tournaments import rounds
from tournaments.errors import TournamentError
from tournaments.models import Round, Tournament
from tournaments.rotation import standings
from tournaments.rotation.tables import current_queue
from tournaments.tests.factories import PlayerFactory
from tournaments.tests.rounds.test_fives_events import api, create, referee_user

pytestmark = pytest.mark.django_db
__all__ = ["api", "referee_user"]

TEAMS = ("Дубль", "Рыба", "Козлы")


def add_pairs(tournament: Tournament) -> list[int]:
    ids = []
    for seed, name in enumerate(TEAMS, 1):
        players = [PlayerFactory(last_name=f"{name}{i}") for i in (1, 2)]
        entry = tournament.entries.create(name=name, seed=seed)
        entry.players.set(players)
        ids.append(entry.pk)
    return ids


def pair(organiser: User, tournament: Tournament, referee: User) -> Round:
    round_ = rounds.start_pairing(organiser, tournament.pk)
    # the pairing task sent on commit (a test with transactions) may have paired it already
    assert rounds.run_pairing(round_.pk) in ("paired", "skipped")
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    for pairing in round_.pairings.filter(table__isnull=False):
        rounds.assign_referee(organiser, pairing.pk, referee)
    rounds.publish(organiser, round_.pk)
    return round_


def play(organiser: User, round_: Round, rng: random.Random, referee: User) -> Any:
    pairing = round_.pairings.get(table__isnull=False)
    match = pairing.match
    for record in play_club_match(club_judge(match.get_rules()), rng):
        scoring.record_deal(match.pk, record, referee)
    scoring.submit(match.pk, referee)
    scoring.confirm(match.pk, organiser)
    rounds.finish_round(organiser, round_.pk)
    match.refresh_from_db()
    return pairing, match


def test_a_rotation_needs_general_in_pairs_ending_by_losses(api: APIClient) -> None:
    refused = create(api, rules_preset="general", format="pairs", system="rotation")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["system"]
    refused = create(api, rules_preset="sport", format="pairs", system="rotation")
    assert refused.status_code == 400
    made = create(api, rules_preset="general", format="pairs", system="rotation",
                  rules_options={"end": "losses"})
    assert made.status_code == 201, made.json()


def test_three_teams_rotate_at_one_table_and_are_ranked_by_generals(
    api: APIClient, organiser: User, referee_user: User, client: Any
) -> None:
    made = create(api, rules_preset="general", format="pairs", system="rotation", rounds=5,
                  rules_options={"end": "losses"})
    tournament = Tournament.objects.get(pk=made.json()["id"])
    a, b, c = add_pairs(tournament)
    rng = random.Random(8)
    first = pair(organiser, tournament, referee_user)
    table = {p.side: p.entry_id for p in first.pairings.get(table=1).places.all()}
    assert table == {"NS": a, "EW": b} and first.pairings.count() == 1  # C waits, no bye
    # the next stint cannot be paired while this one is open: who stays depends on it
    with pytest.raises(TournamentError):
        rounds.start_pairing(organiser, tournament.pk)
    expected = [a, b, c]
    for number in range(1, 6):
        round_ = first if number == 1 else pair(organiser, tournament, referee_user)
        seats = {p.side: p.entry_id for p in round_.pairings.get(table=1).places.all()}
        assert (seats["NS"], seats["EW"]) == (expected[0], expected[1]), number
        pairing, match = play(organiser, round_, rng, referee_user)
        rules = match.get_rules()
        assert (rules.preset, rules.end, rules.target) == ("general", "losses", 2)
        assert match.finished and match.end in ("losses", "instant")
        loser = seats["EW" if match.winner == "NS" else "NS"]
        stayer = seats["NS"] if loser == seats["EW"] else seats["EW"]
        expected = [stayer, *[e for e in expected[2:]], loser]
        assert current_queue(tournament) == expected
    lines = standings.table(tournament)
    assert sum(t.stints for t in lines) == 10 and sum(t.won for t in lines) == 5
    keys = [(t.generals, t.lost_deals, -t.won) for t in lines]
    assert keys == sorted(keys)
    page = client.get(f"/tournaments/{tournament.pk}/rotation/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Очередь" in text and all(name in text for name in TEAMS)


def test_a_private_rotation_is_hidden_from_those_who_may_not_see_it(
    api: APIClient, client: Any, organiser: User
) -> None:
    made = create(api, rules_preset="general", format="pairs", system="rotation",
                  rules_options={"end": "generals"}, public=False)
    tournament = Tournament.objects.get(pk=made.json()["id"])
    add_pairs(tournament)
    url = f"/tournaments/{tournament.pk}/rotation/"
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    page = client.get(url)
    assert page.status_code == 200 and "Дубль" in page.content.decode()
