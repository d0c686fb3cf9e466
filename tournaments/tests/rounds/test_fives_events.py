"""Tournaments played by the fives games (RULES.md sections 15–23): head to head, each for
himself at tables of three and four, and pairs. Set up over the API as an organiser would, the
rounds paired by the real job, every table's match played move by move (the fives simulator),
recorded, submitted and confirmed through the scoring services, and the results read where a
player reads them: the standings API, the crosstable, the round and player pages."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts import roles
from rules.fives import FivesJudge
from rules.simulate import play_fives_match
from scoring import services as scoring
from scoring.models import Match
from tournaments import rounds
from tournaments.errors import TournamentError
from tournaments.models import Entry, PairingEntry, Round, Tournament
from tournaments.tests.conftest import make_user
from tournaments.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organiser: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def create(api: APIClient, **fields: Any) -> Any:
    body = {"name": "Вечер «Пятёрки»", "rounds": 3, "public": True, **fields}
    return api.post("/api/v1/tournaments/", body, format="json")


def add_players(tournament: Tournament, n: int) -> list[Entry]:
    entries = []
    for i in range(1, n + 1):
        player = PlayerFactory(last_name=f"Игроков{i}", first_name="Пётр")
        entry = Entry.objects.create(tournament=tournament, name=player.full_name, seed=i)
        entry.players.set([player])
        entries.append(entry)
    return entries


def play_round(organiser: User, tournament: Tournament, rng: random.Random,
               referee: User) -> Round:  # fmt: skip
    """Pair, publish, play every table to its end, confirm, finish: the organiser's day."""
    round_ = rounds.start_pairing(organiser, tournament.pk)
    assert rounds.run_pairing(round_.pk) in ("paired", "skipped")
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    for pairing in round_.pairings.filter(table__isnull=False):
        rounds.assign_referee(organiser, pairing.pk, referee)
    rounds.publish(organiser, round_.pk)
    for pairing in round_.pairings.filter(table__isnull=False).select_related("match"):
        match = pairing.match
        for record in play_fives_match(match.get_rules(), rng):
            scoring.record_deal(match.pk, record, referee)
        scoring.submit(match.pk, referee)
        scoring.confirm(match.pk, organiser)
    rounds.finish_round(organiser, round_.pk)
    round_.refresh_from_db()
    return round_


@pytest.fixture
def referee_user(db: Any) -> User:
    return make_user("fives_ref", roles.REFEREE)


# --- setup: what goes together ------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "field", "code"), [
    ({"rules_preset": "sport", "format": "singles"}, "format", "format_preset"),
    ({"rules_preset": "international", "format": "free_for_all"}, "format", "format_preset"),
    ({"rules_preset": "kozel", "format": "free_for_all"}, "format", "format_preset"),
    ({"rules_preset": "muggins", "format": "free_for_all", "system": "round_robin"}, "system",
     "format_system"),
    ({"rules_preset": "muggins", "format": "singles", "rules_options": {"players": 4}},
     "rules_options", "format_decides"),
    ({"rules_preset": "fives", "format": "pairs", "rules_options": {"pairs": False}},
     "rules_options", "format_decides"),
    # 4 × 8 tiles are more than the set holds: refused for the table of four
    ({"rules_preset": "muggins", "format": "free_for_all", "rules_options": {"hand_size": 8}},
     "rules_options", "bad_option"),
])  # fmt: skip
def test_a_format_the_rules_cannot_be_played_in_is_refused_with_the_field(
    api: APIClient, fields: dict[str, Any], field: str, code: str
) -> None:
    response = create(api, **fields)
    assert response.status_code == 400, response.content
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [(field, code)]
    assert not Tournament.objects.exists()


def test_the_refusal_names_the_format_and_the_rules_that_fit_in_russian(api: APIClient) -> None:
    response = create(api, rules_preset="sport", format="singles",
                      HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    message = response.json()["errors"][0]["message"]
    assert "«один на один»" in message and "«sport»" in message and "muggins" in message


@pytest.mark.parametrize(("preset", "format_"), [
    ("fives", "singles"), ("muggins", "singles"), ("kozel", "singles"), ("morskoy", "singles"),
    ("muggins", "free_for_all"), ("fives", "free_for_all"), ("muggins", "pairs"),
    ("fives", "individual"), ("sport", "pairs"),
])  # fmt: skip
def test_the_formats_each_game_can_be_played_in_are_accepted(
    api: APIClient, preset: str, format_: str
) -> None:
    response = create(api, rules_preset=preset, format=format_)
    assert response.status_code == 201, response.content


# --- head to head -------------------------------------------------------------------------------


def test_a_muggins_evening_head_to_head_seats_two_a_table_and_ranks_by_the_matches(
    api: APIClient, organiser: User, referee_user: User
) -> None:
    created = create(api, rules_preset="muggins", format="singles", rules_options={"target": 50})
    tournament = Tournament.objects.get(pk=created.json()["id"])
    entries = add_players(tournament, 6)
    rng = random.Random(5)
    first = play_round(organiser, tournament, rng, referee_user)

    tables = list(first.pairings.filter(table__isnull=False).select_related("match"))
    assert len(tables) == 3
    for pairing in tables:
        match = pairing.match
        rules = match.get_rules()
        assert (rules.preset, rules.players, rules.target, rules.hand_size) == ("muggins", 2, 50, 7)
        places = {p.side: p.entry for p in pairing.places.all()}
        assert set(places) == {"N", "E"}
        players = {s: e.players.get().pk for s, e in places.items()}
        assert (match.seat_n_id, match.seat_e_id) == (players["N"], players["E"])
        assert match.seat_s_id is None and match.seat_w_id is None
        assert match.status == Match.Status.CONFIRMED and match.winner in ("N", "E", "draw")

    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    rows = {row["entry"]["id"]: row for row in standings["rows"]}
    for pairing in tables:
        totals = pairing.match.totals
        for side, other in (("N", "E"), ("E", "N")):
            entry = pairing.places.get(side=side).entry_id
            row = rows[entry]
            assert (row["points_for"], row["points_against"]) == (totals[side], totals[other])
            won = pairing.match.winner == side
            assert row["match_points"] == (2 if won else 1 if pairing.match.winner == "draw" else 0)
            if won:  # reached the target: T minus the loser's points, both capped at T
                assert row["efectividad"] == 50 - min(totals[other], 50)
    assert [row["rank"] for row in standings["rows"]] == [1, 2, 3, 4, 5, 6]

    second = play_round(organiser, tournament, rng, referee_user)
    met_before = {frozenset(p.places.values_list("entry_id", flat=True)) for p in tables}
    for pairing in second.pairings.filter(table__isnull=False):
        assert frozenset(pairing.places.values_list("entry_id", flat=True)) not in met_before
    assert {e.pk for e in entries} == set(
        PairingEntry.objects.filter(round=second).values_list("entry_id", flat=True))

    # the organiser's round page tells why each table came out so (floats between the score
    # groups of 3 winners and 3 losers), with the players' names
    flags = {f for p in second.pairings.all() for f in p.flags}
    assert flags & {"float_up", "float_down"}
    web = Client()
    web.force_login(organiser)
    page = web.get(f"/manage/{tournament.pk}/rounds/2/")
    assert page.status_code == 200
    assert "a float of 2" in page.content.decode() or "разница 2" in page.content.decode()


# --- each for himself ---------------------------------------------------------------------------


def test_seven_players_each_for_himself_play_at_a_table_of_four_and_one_of_three(
    api: APIClient, organiser: User, referee_user: User, client: Any
) -> None:
    created = create(api, rules_preset="muggins", format="free_for_all",
                     rules_options={"target": 40})  # fmt: skip
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 7)
    round_ = play_round(organiser, tournament, random.Random(11), referee_user)

    tables = list(round_.pairings.filter(table__isnull=False).order_by("table")
                  .select_related("match"))  # fmt: skip
    assert [t.places.count() for t in tables] == [4, 3]
    assert not round_.pairings.filter(table__isnull=True).exists()  # nobody sits out
    for pairing, seats in zip(tables, ("NESW", "NES"), strict=True):
        rules = pairing.match.get_rules()
        assert (rules.players, rules.pairs, rules.hand_size) == (len(seats), False, 5)
        assert sorted(p.side for p in pairing.places.all()) == sorted(seats)
        assert FivesJudge(rules).sides == tuple(seats)

    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    rows = {row["entry"]["id"]: row for row in standings["rows"]}
    for pairing in tables:
        totals, winner = pairing.match.totals, pairing.match.winner
        best = max(totals.values())
        for place in pairing.places.all():
            row = rows[place.entry_id]
            rivals = max(v for s, v in totals.items() if s != place.side)
            assert (row["points_for"], row["points_against"]) == (totals[place.side], rivals)
            if winner == place.side:
                expected = 2
            elif winner == "draw" and totals[place.side] == best:
                expected = 1
            else:
                expected = 0
            assert row["match_points"] == expected
    assert sum(r["match_points"] for r in rows.values()) in (4, 3, 5, 6)  # 2 winners, or draws

    # the pages a player opens show every player of the table
    for tail in ("rounds/1/", "crosstable/", "standings/"):
        url = f"/tournaments/{tournament.pk}/{tail}"
        page = client.get(url)
        assert page.status_code == 200
        for entry in tournament.entries.all():
            assert entry.name in page.content.decode()
    player = tables[0].places.get(side="W").entry.players.get()
    page = client.get(f"/players/{player.pk}/").content.decode()
    for place in tables[0].places.exclude(side="W"):
        assert place.entry.name in page


def test_each_for_himself_keeps_players_apart_who_met_when_it_can(
    api: APIClient, organiser: User, referee_user: User
) -> None:
    created = create(api, rules_preset="fives", format="free_for_all",
                     rules_options={"target": 30})  # fmt: skip
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 16)
    rng = random.Random(3)
    met: set[frozenset[int]] = set()
    for _number in range(2):
        round_ = play_round(organiser, tournament, rng, referee_user)
        for pairing in round_.pairings.filter(table__isnull=False):
            ids = list(pairing.places.values_list("entry_id", flat=True))
            pairs = {frozenset((a, b)) for a in ids for b in ids if a < b}
            assert not pairs & met
            met |= pairs


# --- pairs --------------------------------------------------------------------------------------


def test_fives_by_pairs_play_ns_against_ew(
    api: APIClient, organiser: User, referee_user: User, pairs: Any
) -> None:
    created = create(api, rules_preset="muggins", format="pairs", rules_options={"target": 60})
    tournament = Tournament.objects.get(pk=created.json()["id"])
    pairs(tournament, 4)
    round_ = play_round(organiser, tournament, random.Random(8), referee_user)
    for pairing in round_.pairings.filter(table__isnull=False).select_related("match"):
        rules = pairing.match.get_rules()
        assert (rules.players, rules.pairs, rules.sides) == (4, True, ("NS", "EW"))
        assert set(pairing.match.totals) == {"NS", "EW"}
        assert sorted(pairing.places.values_list("side", flat=True)) == ["EW", "NS"]
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert sorted(r["match_points"] for r in standings["rows"]) in ([0, 0, 2, 2], [0, 1, 1, 2],
                                                                     [1, 1, 1, 1])  # fmt: skip


# --- the archive --------------------------------------------------------------------------------


def test_a_fives_event_each_for_himself_goes_into_an_archive_and_back(
    api: APIClient, organiser: User, referee_user: User
) -> None:
    """Its protocols are judged again by the fives engine on import (the line of play, move by
    move), and the copy ranks as the original."""
    from tournaments import archive, results

    created = create(api, rules_preset="muggins", format="free_for_all",
                     rules_options={"target": 40})  # fmt: skip
    tournament = Tournament.objects.get(pk=created.json()["id"])
    add_players(tournament, 7)
    play_round(organiser, tournament, random.Random(21), referee_user)
    doc = json.loads(archive.dumps(archive.export_tournament(tournament)))
    copy_ = archive.import_tournament(copy.deepcopy(doc), organiser)
    assert (copy_.format, copy_.rules_preset) == ("free_for_all", "muggins")
    sides = sorted(PairingEntry.objects.filter(round__tournament=copy_)
                   .values_list("side", flat=True))  # fmt: skip
    assert sides == sorted("NESWNES")

    def ranked(event: Tournament) -> list[tuple[Any, ...]]:
        return [(line.rank, line.name, line.row["match_points"], line.row["points_for"],
                 line.row["points_against"]) for line in results.live_table(event).lines]

    assert ranked(copy_) == ranked(tournament)

    # a forged move is refused, naming the match
    forged = copy.deepcopy(doc)
    match = next(m for m in forged["matches"] if m["deals"])
    move = next(e for e in match["deals"][0]["record"]["play"][1:] if "tile" in e)
    move["points"] = 35 if move.get("points") != 35 else 30
    with pytest.raises(TournamentError) as refused:
        archive.import_tournament(forged, organiser)
    assert refused.value.errors[0]["code"] == "illegal_deal"
