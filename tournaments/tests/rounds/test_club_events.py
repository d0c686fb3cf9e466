"""Tournaments played by the club games of seed 003 (RULES.md sections 24–31): «Чечевэ» each for
himself at tables of three and four, «Генерал» pair against pair. Set up over the API, paired
by the real job, every table played deal by deal (the club simulator) through the scoring
services, confirmed; the standings rank the fewest points (or generals) first and never count
sticks or generals as points a side scored."""

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
from tournaments.models import Round, Tournament
from tournaments.tests.rounds.test_fives_events import add_players, api, create, referee_user

pytestmark = pytest.mark.django_db
__all__ = ["api", "referee_user"]  # fixtures


def play_club_round(organiser: User, tournament: Tournament, rng: random.Random,
                    referee: User) -> Round:  # fmt: skip
    round_ = rounds.start_pairing(organiser, tournament.pk)
    assert rounds.run_pairing(round_.pk) in ("paired", "skipped")
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    for pairing in round_.pairings.filter(table__isnull=False):
        rounds.assign_referee(organiser, pairing.pk, referee)
    rounds.publish(organiser, round_.pk)
    for pairing in round_.pairings.filter(table__isnull=False).select_related("match"):
        match = pairing.match
        records = play_club_match(club_judge(match.get_rules()), rng)
        if match.get_rules().preset == "general":  # it ends by time: the sixth deal's mark
            records = records[:6]
            records[-1]["time_up"] = True
        for record in records:
            scoring.record_deal(match.pk, record, referee)
        scoring.submit(match.pk, referee)
        scoring.confirm(match.pk, organiser)
    rounds.finish_round(organiser, round_.pk)
    round_.refresh_from_db()
    return round_


def test_a_chechevo_evening_each_for_himself_ranks_the_fewest_points_first(
    api: APIClient, organiser: User, referee_user: User, client: Any
) -> None:
    created = create(api, rules_preset="chechevo", format="free_for_all")
    assert created.status_code == 201, created.json()
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 7)
    round_ = play_club_round(organiser, tournament, random.Random(4), referee_user)
    tables = list(round_.pairings.filter(table__isnull=False).order_by("table")
                  .select_related("match"))  # fmt: skip
    assert [t.places.count() for t in tables] == [4, 3]
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    rows = {row["entry"]["id"]: row for row in standings["rows"]}
    for pairing in tables:
        match = pairing.match
        assert match.get_rules().preset == "chechevo" and match.finished
        totals, winner = match.totals, match.winner
        for place in pairing.places.all():
            row = rows[place.entry_id]
            best_rival = min(v for s, v in totals.items() if s != place.side)
            # fewer is better: «for» is the best rival's total, «against» the player's own
            assert (row["points_for"], row["points_against"]) == (best_rival, totals[place.side])
            level = winner == "draw" and totals[place.side] == min(totals.values())
            assert row["match_points"] == (2 if winner == place.side else 1 if level else 0)
    winners = [r for r in standings["rows"] if r["match_points"] == 2]
    assert standings["rows"][: len(winners)] == winners
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/")
    assert page.status_code == 200


def test_a_general_evening_in_pairs_seats_two_teams_and_counts_generals_not_points(
    api: APIClient, organiser: User, referee_user: User
) -> None:
    created = create(api, rules_preset="general", format="individual")
    assert created.status_code == 201, created.json()
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 8)
    round_ = play_club_round(organiser, tournament, random.Random(2), referee_user)
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    rows = {row["entry"]["id"]: row for row in standings["rows"]}
    for pairing in round_.pairings.filter(table__isnull=False).select_related("match"):
        match = pairing.match
        rules = match.get_rules()
        assert (rules.preset, rules.players, rules.pairs) == ("general", 4, True)
        generals = match.totals
        assert set(generals) == {"NS", "EW"} and match.finished
        for place in pairing.places.all():
            other = "EW" if place.side == "NS" else "NS"
            row = rows[place.entry_id]
            assert (row["points_for"], row["points_against"]) == (generals[other],
                                                                  generals[place.side])


def test_a_semerka_evening_ranks_each_table_by_when_its_players_went_out(
    api: APIClient, organiser: User, referee_user: User
) -> None:
    """Section 35: a table plays until one player is left; the players are ranked by when they
    went out — the last one left first, the first out last — not by their sticks (every
    player out has the same three)."""
    created = create(api, rules_preset="semerka", format="free_for_all")
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 8)
    round_ = play_club_round(organiser, tournament, random.Random(6), referee_user)
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    rows = {row["entry"]["id"]: row for row in standings["rows"]}
    for pairing in round_.pairings.filter(table__isnull=False).select_related("match"):
        match = pairing.match
        out = match.outcome["out"]
        assert len(out) == 3 and match.winner not in out
        order = [match.winner, *reversed(out)]  # 1st … 4th at the table
        assert [match.outcome["places"][s] for s in order] == [1, 2, 3, 4]
        entry = {p.side: p.entry_id for p in pairing.places.all()}
        differences = [rows[entry[s]]["points_for"] - rows[entry[s]]["points_against"]
                       for s in order]
        assert differences == sorted(differences, reverse=True) and len(set(differences)) == 4
        assert rows[entry[match.winner]]["match_points"] == 2
