"""The new match's form takes the number of players where the game allows 2, 3 or 4, and the
seats follow it (issue 27: «/matches/new/ offers Пятёрка for 2 players only … refused after
submitting with «Место S не участвует в игре на 2 игроков»»)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest

from scoring.models import Match
from tournaments.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def post(client: Any, **data: Any) -> Any:
    return client.post("/matches/new/", {"client_id": str(uuid.uuid4()), "label": "Вечер",
                                         **data}, HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip


def test_a_muggins_match_of_three_players_seats_three(client, referee) -> None:
    client.force_login(referee)
    page = client.get("/matches/new/").content.decode()
    found = re.search(r'<script id="game-players" type="application/json">(.*?)</script>', page)
    assert found is not None
    games = json.loads(found.group(1))
    assert games["muggins"] == [2, 4, 2] and games["sport"] == [4, 4, 4]
    a, b, c = (PlayerFactory(last_name=name) for name in ("Орлов", "Зуев", "Лисин"))
    answer = post(client, rules_preset="muggins", players="3", seat_N=a.pk, seat_E=b.pk,
                  seat_S=c.pk)  # fmt: skip
    match = Match.objects.get()
    assert answer.status_code == 302
    assert match.rules["players"] == 3 and match.seat_player_ids() == {
        "N": a.pk, "E": b.pk, "S": c.pk, "W": None}
    sheet = client.get(f"/matches/{match.pk}/").content.decode()
    board = re.search(r'<script id="fives-data" type="application/json">(.*?)</script>', sheet)
    assert board is not None and json.loads(board.group(1))["seats"] == ["N", "E", "S"]


def test_a_count_the_game_does_not_take_is_refused_by_name(client, referee) -> None:
    client.force_login(referee)
    answer = post(client, rules_preset="sport", players="2")
    assert answer.status_code == 400
    assert "играют 4 игрока" in answer.content.decode()
    assert not Match.objects.exists()


def test_a_seat_out_of_play_is_named_and_nothing_is_created(client, referee) -> None:
    client.force_login(referee)
    extra = PlayerFactory(last_name="Лишний")
    answer = post(client, rules_preset="muggins", players="2", seat_S=extra.pk)
    assert answer.status_code == 400
    assert "Место S не участвует в игре на 2 игроков: оставьте его пустым." in (
        answer.content.decode())
    assert not Match.objects.exists()
    # no count given: the game's usual one (two for Пятёрка, four for sports domino)
    assert post(client, rules_preset="kozel").status_code == 302
    assert Match.objects.get().rules["players"] == 4


def test_an_archives_players_are_not_offered_to_everyone(client, referee) -> None:
    """A player an archive import created for another organiser's tournament stays out of the
    seats' lists (issue 25's rule, which the new-match form had missed)."""
    from tournaments.models import Tournament

    theirs = Tournament.objects.create(name="Чужой архив")
    hidden = PlayerFactory(last_name="Скрытов", in_registry=False, imported_in=theirs)
    shown = PlayerFactory(last_name="Открытов")
    client.force_login(referee)
    page = client.get("/matches/new/").content.decode()
    assert "Открытов" in page and "Скрытов" not in page
    answer = post(client, rules_preset="kozel", seat_N=hidden.pk)
    assert answer.status_code == 400 and not Match.objects.exists()
    assert shown.pk
