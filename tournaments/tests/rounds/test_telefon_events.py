"""«Телефон» in a tournament (issue 27): in pairs (NS against EW, as Козёл), and each for himself
at tables of four and three (the preset's pairs left out, so four play alone). Set up over the
API, paired by the real job, every table's deals played move by move by the simulator (the
«дом», several doubles in one move) and recorded, submitted and confirmed through the scoring
services; the standings count each table's totals after the write-offs."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tournaments.models import Tournament
from tournaments.tests.rounds.test_fives_events import (  # noqa: F401  (fixtures)
    add_players,
    api,
    create,
    play_round,
    pytestmark,
    referee_user,
)


def test_telefon_in_pairs_plays_ns_against_ew(
    api: APIClient, organiser: User, referee_user: User, pairs: Any  # noqa: F811
) -> None:
    created = create(api, rules_preset="telefon", format="pairs", rules_options={"target": 60})
    assert created.status_code == 201, created.content
    tournament = Tournament.objects.get(pk=created.json()["id"])
    pairs(tournament, 4)
    round_ = play_round(organiser, tournament, random.Random(8), referee_user)
    for pairing in round_.pairings.filter(table__isnull=False).select_related("match"):
        rules = pairing.match.get_rules()
        assert (rules.preset, rules.players, rules.partnership) == ("telefon", 4, True)
        assert set(pairing.match.totals) == {"NS", "EW"}
        assert pairing.match.status == "confirmed"
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert len(standings["rows"]) == 4


def test_telefon_each_for_himself_at_tables_of_four_and_three(
    api: APIClient, organiser: User, referee_user: User  # noqa: F811
) -> None:
    created = create(api, rules_preset="telefon", format="free_for_all",
                     rules_options={"target": 40})  # fmt: skip
    assert created.status_code == 201, created.content
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 7)
    round_ = play_round(organiser, tournament, random.Random(11), referee_user)
    tables = list(round_.pairings.filter(table__isnull=False).order_by("table")
                  .select_related("match"))  # fmt: skip
    assert [t.places.count() for t in tables] == [4, 3]
    for pairing, seats in zip(tables, ("NESW", "NES"), strict=True):
        rules = pairing.match.get_rules()
        assert (rules.players, rules.partnership, rules.sides) == (len(seats), False, tuple(seats))
        assert set(pairing.match.totals) == set(seats)
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    rows = {row["entry"]["id"]: row for row in standings["rows"]}
    for pairing in tables:
        for place in pairing.places.all():
            assert rows[place.entry_id]["points_for"] == pairing.match.totals[place.side]
