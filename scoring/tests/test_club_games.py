"""The club games of seed 003 (RULES.md sections 24–31) at the table: a match of every game and
every player count the game allows is created through the API, posted deal by deal as a referee
records it (the club simulator plays the deals tile by tile), and read back with the totals,
winner, losers and titles the engine (``rules.club``) gives for the same deals."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from rules.club import club_judge, make_club_rules
from rules.club.presets import CLUB_PRESETS
from rules.club.simulate import play_club_match
from scoring import services
from scoring.models import Deal, Match
from scoring.tests.test_api import client_for, codes, url

pytestmark = pytest.mark.django_db

SEATS = {2: ("N", "E"), 3: ("N", "E", "S"), 4: ("N", "E", "S", "W")}
CASES = [(preset, count) for preset, (_r, _k, (low, high)) in CLUB_PRESETS.items()
         for count in range(low, high + 1)]


def simulated(preset: str, count: int, seed: int = 3) -> list[dict[str, Any]]:
    rules = make_club_rules(preset, {"players": count})
    return play_club_match(club_judge(rules), random.Random(seed))


@pytest.mark.parametrize("preset, count", CASES)
def test_a_simulated_match_posted_deal_by_deal_ends_as_the_engine_says(
    referee, players, preset, count
):
    api = client_for(referee)
    seats = {s: players[s].pk for s in SEATS[count]}
    created = api.post("/api/v1/matches/", {
        "rules_preset": preset, "rules_options": {"players": count}, "seats": seats,
    }, format="json")  # fmt: skip
    assert created.status_code == 201, created.json()
    match = Match.objects.get(pk=created.json()["id"])
    deals = simulated(preset, count)
    for deal in deals:
        response = api.post(url(match, "deals/"), deal, format="json",
                            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))  # fmt: skip
        assert response.status_code == 201, (deal, response.json())
    expected = club_judge(make_club_rules(preset, {"players": count})).fold(deals).to_dict()
    data = client_for(None).get(url(match)).json()
    assert data["totals"] == expected["totals"]
    assert data["finished"] is expected["finished"]
    assert data["winner"] == expected["winner"]
    assert [d["verdict"] for d in data["deals"]] == expected["deals"]
    for key in ("losers", "titles", "losses", "out"):
        if key in expected:
            assert data["outcome"][key] == expected[key], key


def test_a_chechevo_match_of_three_gives_a_title_the_api_shows(referee, players):
    """Section 29: going out with 0:0 makes every other player a «козёл» at once."""
    api = client_for(referee)
    created = api.post("/api/v1/matches/", {
        "rules_preset": "chechevo", "rules_options": {"players": 3},
        "seats": {s: players[s].pk for s in "NES"},
    }, format="json")  # fmt: skip
    match = Match.objects.get(pk=created.json()["id"])
    deal = {"result": "domino", "by": "N", "leader": "N", "last_tiles": "0:0",
            "hands": {"E": "6:5 4:4", "S": "3:1"}}
    response = api.post(url(match, "deals/"), deal, format="json")
    assert response.status_code == 201, response.json()
    data = client_for(None).get(url(match)).json()
    assert data["finished"] is True and data["winner"] == "N" and data["end"] == "instant"
    assert data["outcome"]["losers"] == ["E", "S"]
    assert {(t["side"], t["title"]) for t in data["outcome"]["titles"]} == {
        ("E", "kozel"), ("S", "kozel")}


def test_an_illegal_club_deal_is_400_with_its_code_and_nothing_is_stored(referee, players):
    match = services.create_match(user=referee, rules_preset="semerka",
                                  rules_options={"players": 3})  # fmt: skip
    # a semerka hand needs its tiles (section 26): a pip count is refused
    bad = {"result": "domino", "by": "N", "pips": {"E": 12, "S": 4}}
    response = client_for(referee).post(url(match, "deals/"), bad, format="json")
    assert response.status_code == 400
    assert codes(response)[0] == "tiles_needed" and response.json()["errors"][0]["message"]
    assert not Deal.objects.exists() and Match.objects.get(pk=match.pk).version == 1



def _played(chief, players, preset: str, count: int) -> Match:
    """A confirmed-ready match of ``preset`` with a simulated protocol recorded."""
    seats = {s: players[s] for s in SEATS[count]}
    match = services.create_match(user=chief, referee=chief, seats=seats, rules_preset=preset,
                                  rules_options={"players": count}, label="Клуб", table="2")
    for deal in simulated(preset, count):
        services.record_deal(match.pk, deal, chief, client_id=uuid.uuid4())
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("preset, count", [("dvorovoe", 4), ("kozel_morskoy", 4), ("osel", 3),
                                           ("chechevo", 3), ("semerka", 4), ("general", 4)])
def test_every_page_of_a_club_match_shows_its_words(client, chief, players, preset, count):
    """The sheet, the history, the print page, the PDF, the desk's copy and the correction
    page of a club match: each answers 200, the sheet in the game's words."""
    match = _played(chief, players, preset, count)
    client.force_login(chief)
    sheet = client.get(f"/matches/{match.pk}/")
    assert sheet.status_code == 200
    text = sheet.content.decode()
    assert text.count('class="seat-tab"') == count - len(match.outcome.get("out", []))
    if preset == "semerka":
        assert "палки" in text and "палка:" in text
    if preset == "general":
        assert "генералы" in text
    if match.outcome.get("titles"):
        assert "Звания:" in text
    for tail in ("history/", "print/", "protocol.pdf", "transcribe/"):
        assert client.get(f"/matches/{match.pk}/{tail}").status_code == 200, tail
    printed = client.get(f"/matches/{match.pk}/print/").content.decode()
    # the desk checks each amount against what each seat had left
    assert "Осталось на руках" in printed and printed.count('<th class="hand">') == count
    if match.outcome.get("titles"):
        assert "Звания:" in printed
    if preset == "semerka":
        assert "палка:" in printed and "Выбыли по порядку:" in printed
    assert 'name="finish"' in text or preset not in ("kozel_morskoy", "chechevo", "general")


def test_the_desk_copies_a_paper_chechevo_protocol_with_its_finishing_tile(client, chief,
                                                                          players):
    """The desk's copy of a paper protocol asks «Чем вышел» for the games whose special
    endings hang on it; a 0:0 finish typed there ends the match with its titles."""
    from scoring.tests.helpers import paper_rows

    match = services.create_match(user=chief, referee=chief, seats={s: players[s] for s in "NES"},
                                  rules_preset="chechevo", rules_options={"players": 3})
    client.force_login(chief)
    page = client.get(f"/matches/{match.pk}/transcribe/").content.decode()
    assert 'id="paper-col-finish"' in page and "Чем вышел" in page
    deal = {"result": "domino", "by": "N", "hands": {"E": "6:5 4:4", "S": "3:1"}}
    data = paper_rows([deal], sides=("N", "E", "S"))
    data["row-0-finish"] = "0:0"
    answer = client.post(f"/matches/{match.pk}/transcribe/", data, follow=True)
    assert answer.status_code == 200
    stored = Match.objects.get(pk=match.pk)
    assert [d.record.get("last_tiles") for d in stored.deals.all()] == ["0:0"]
    assert stored.finished and stored.end == "instant" and stored.winner == "N"
    assert [t["title"] for t in stored.outcome["titles"]] == ["kozel", "kozel"]
