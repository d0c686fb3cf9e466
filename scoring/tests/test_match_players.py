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


def seat_list(page: str) -> list[str]:
    """The seats the sheet's head lists, in order."""
    found = re.search(r'<ul class="seat-list">(.*?)</ul>', page, re.S)
    assert found is not None
    return re.findall(r"<li><b>([NESW])</b>", found.group(1))


@pytest.mark.parametrize(("count", "seats"), [(2, "NE"), (3, "NES"), (4, "NESW")])
def test_a_fives_match_for_two_three_or_four_shows_only_their_seats(
    client, referee, count, seats
) -> None:
    client.force_login(referee)
    names = dict(zip(seats, ("Орлов", "Зуев", "Лисин", "Рыбин"), strict=False))
    players = {seat: PlayerFactory(last_name=name) for seat, name in names.items()}
    answer = post(client, rules_preset="muggins", players=str(count),
                  **{f"seat_{s}": p.pk for s, p in players.items()})  # fmt: skip
    assert answer.status_code == 302
    match = Match.objects.get()
    assert match.rules["players"] == count
    sheet = client.get(answer.url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert seat_list(sheet) == list(seats)
    assert all(name in sheet for name in names.values())
    board = re.search(r'<script id="fives-data" type="application/json">(.*?)</script>', sheet)
    assert board is not None and json.loads(board.group(1))["seats"] == list(seats)
    # the empty protocol's line spans the columns there are: №, lead, result and one per seat
    assert f'<td colspan="{3 + count}" class="empty">' in sheet
    printed = client.get(f"/matches/{match.pk}/print/", HTTP_ACCEPT_LANGUAGE="ru").content
    seat_rows = re.search(r'<table class="seats">(.*?)</table>', printed.decode(), re.S)
    assert seat_rows is not None and seat_rows.group(1).count("<tr>") == 1 + count
    assert "<th>Пара</th>" not in seat_rows.group(1)  # each for himself: no pairs to name


def test_a_kozel_for_three_records_three_hands(client, referee) -> None:
    client.force_login(referee)
    answer = post(client, rules_preset="kozel", players="3")
    assert answer.status_code == 302
    sheet = client.get(answer.url).content.decode()
    assert seat_list(sheet) == ["N", "E", "S"] and 'data-seats="N,E,S"' in sheet
    assert 'name="pips_S"' in sheet and 'name="pips_W"' not in sheet


def test_a_pairs_game_refuses_three(client, referee) -> None:
    client.force_login(referee)
    answer = post(client, rules_preset="international", players="3")
    assert answer.status_code == 400 and not Match.objects.exists()
    assert "играют 4 игрока" in answer.content.decode()


def test_a_seat_left_for_the_desk_is_taken_and_a_seat_out_of_play_is_named(client,
                                                                           referee) -> None:
    client.force_login(referee)
    a, b = PlayerFactory(last_name="Орлов"), PlayerFactory(last_name="Зуев")
    # a seat in play may stay empty: the desk names its player later (the form round trip)
    answer = post(client, rules_preset="fives", players="3", seat_N=a.pk, seat_S=b.pk)
    assert answer.status_code == 302
    assert Match.objects.get().seat_player_ids() == {"N": a.pk, "E": None, "S": b.pk,
                                                     "W": None}  # fmt: skip
    Match.objects.all().delete()
    # a seat out of play is named next to its select, and nothing is created
    answer = post(client, rules_preset="fives", players="2", seat_N=a.pk, seat_S=b.pk)
    assert answer.status_code == 400 and not Match.objects.exists()
    page = answer.content.decode()
    assert page.count("не участвует в игре на 2 игроков") == 1  # S alone
    assert 'aria-describedby="id_seat_S_error"' in page and 'id="id_seat_S_error"' in page
    # a sports domino's table seated in full is created; with its pairs on paper
    c, d = PlayerFactory(last_name="Лисин"), PlayerFactory(last_name="Рыбин")
    answer = post(client, rules_preset="sport", seat_N=a.pk, seat_E=b.pk, seat_S=c.pk,
                  seat_W=d.pk)  # fmt: skip
    assert answer.status_code == 302
    printed = client.get(f"{answer.url}print/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<th>Пара</th>" in printed
