"""Sending a table's referee unchanged changes nothing, on the round page and in the API.

The round page listed only members of the referee groups, so a table refereed by a superuser
(who holds every role) showed «—» and pressing «Назначить» unassigned him; and assigning the
table's own referee again replaced its protocol by a new one (a new id: the printed protocol's
QR code led nowhere), or was refused once a deal was recorded.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scoring import services as scoring
from scoring.models import Deal, Match
from scoring.tests.helpers import sport_deals
from tournaments.models import Pairing, Round
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(tournament, organiser, pairs) -> dict[str, Any]:
    e = pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    ref = make_user("ref", "Referee")
    root = User.objects.create_superuser("root", password="root-pass-123")
    by_table = {p.table: p for p in Pairing.objects.filter(round=round_)}
    for table, who in ((1, ref), (2, root)):
        Pairing.objects.filter(pk=by_table[table].pk).update(referee=who)
        Match.objects.filter(pk=by_table[table].match_id).update(referee=who)
    scoring.record_deal(by_table[1].match_id, sport_deals()[0], ref)
    return {"round": round_, "ref": ref, "root": root, "table1": by_table[1],
            "table2": by_table[2]}  # fmt: skip


def state(round_: Round) -> list[Any]:
    return [list(Pairing.objects.filter(round=round_).order_by("pk").values()),
            list(Match.objects.order_by("pk").values()), list(Deal.objects.values())]


def test_the_api_keeps_the_table_when_its_referee_is_sent_again(organiser, tables) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    before = state(tables["round"])
    for table, who in ((1, tables["ref"]), (2, tables["root"])):
        response = client.post(f"/api/v1/rounds/{tables['round'].pk}/referee/",
                               {"table": table, "referee": who.pk}, format="json")  # fmt: skip
        assert response.status_code == 200, response.content
    assert state(tables["round"]) == before


def test_the_round_page_shows_a_superuser_referee_as_chosen(client, organiser, tables) -> None:
    client.force_login(organiser)
    page = client.get(f"/manage/{tables['round'].tournament_id}/rounds/1/").content.decode()
    assert f'<option value="{tables["root"].pk}" selected>' in page
    assert f'<option value="{tables["ref"].pk}" selected>' in page
