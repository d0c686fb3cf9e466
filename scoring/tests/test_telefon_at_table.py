"""«Телефон» at the table (issue 27): a new match offers it and creates it for 2, 3 or 4 players,
its stored rules replay (the preset's ``pairs`` with fewer than four players was refused when
replayed), and its sheet has the fives board with the «дом» and several doubles in one move."""

from __future__ import annotations

import json
import re
import uuid

import pytest

from scoring import services
from scoring.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_telefon_match_is_created_and_its_sheet_has_the_board(client, referee,
                                                                players: int) -> None:
    client.force_login(referee)
    assert 'value="telefon"' in client.get("/matches/new/").content.decode()
    response = client.post("/matches/new/", {"rules_preset": "telefon", "players": players,
                                             "client_id": str(uuid.uuid4())})
    match = Match.objects.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    rules = match.get_rules()  # replays what was stored
    assert (rules.preset, rules.players, rules.partnership) == ("telefon", players, players == 4)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="fives-multi"' in page
    data = json.loads(re.search(r'<script id="fives-data" type="application/json">(.*?)</script>',
                                page).group(1))
    assert data["spinner"] is True and data["max_doubles"] == 4
    assert data["deal_end"] == "write_off" and data["bonus_round"] == "down"
    assert data["sides"] == (["NS", "EW"] if players == 4 else list("NESW"[:players]))


def test_a_muggins_board_offers_no_several_doubles(client, referee) -> None:
    match = services.create_match(user=referee, rules_preset="muggins")
    client.force_login(referee)
    assert 'id="fives-multi"' not in client.get(f"/matches/{match.pk}/").content.decode()
