"""The correction of a confirmed fives protocol with the move-list editor, over plain HTTP (the page
without JavaScript): a deal picked shows its moves as fields, a changed move is judged again, a
bad edit is refused with the reason naming the deal, the move and the tile and changes nothing,
a good one is saved and the history tells it in words (issue 27)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from rules.fives import FivesJudge, make_fives_rules, parse_tile
from rules.tiles import NAMES
from scoring import services
from scoring.forms import CorrectionForm
from scoring.models import Match, MatchVersion
from scoring.tests.test_fives import muggins_deals

pytestmark = pytest.mark.django_db


def confirmed(referee: Any, chief: Any, deals: list[dict[str, Any]],
              options: dict[str, Any] | None = None) -> Match:
    match = services.create_match(user=referee, rules_preset="muggins", rules_options=options)
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    return Match.objects.get(pk=match.pk)


def fields(page: str) -> dict[str, str]:
    """The correction form's fields as a browser without JavaScript would post them."""
    form = page[page.index('id="correct-form"'):]
    out: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if name and "disabled" not in tag:
            value = re.search(r'value="([^"]*)"', tag)
            out[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        if chosen and f'name="{name}"' in form and not re.search(
                rf'<select name="{re.escape(name)}"[^>]*disabled', form):
            out[name] = chosen.group(1)
    deals = re.search(r'<textarea name="deals"[^>]*>(.*?)</textarea>', form, re.S)
    assert deals is not None
    out["deals"] = deals.group(1).strip().replace("&quot;", '"').replace("&amp;", "&")
    out["reason"] = ""
    return {k: v.replace("&amp;", "&") for k, v in out.items()}


def refusal(page: str) -> str:
    """The reason the page gives at its top (``_form_errors.html``)."""
    found = re.search(r'<div class="verdict refused" role="alert"><p>(.*?)</p>', page)
    assert found is not None, page[page.index("<main"):][:3000]
    return found.group(1)


def a_legal_tile_change(deals: list[dict[str, Any]]) -> tuple[int, int, str]:
    """A deal, a move of it and another tile for that move that the rules accept and that
    changes the deal's points (found by the engine, not assumed)."""
    rules = make_fives_rules("muggins")
    judge = FivesJudge(rules)
    before = judge.fold(deals).to_dict()["totals"]
    for d, deal in enumerate(deals):
        for j, entry in enumerate(deal["play"]):
            if "tile" not in entry or j == 0:
                continue
            for a in range(7):
                for b in range(a + 1):
                    changed = copy.deepcopy(deals)
                    changed[d]["play"][j]["tile"] = f"{a}:{b}"
                    changed[d]["play"][j].pop("points", None)
                    verdict = judge.fold(changed)
                    if verdict.ok and verdict.to_dict()["totals"] != before:
                        return d, j, f"{a}:{b}"
    raise AssertionError("no legal change found")


def deals_to_correct() -> list[dict[str, Any]]:
    """A simulated muggins match, its boneyards not written (a tile may then come from it)."""
    deals = muggins_deals()
    for deal in deals:
        deal.pop("boneyard", None)
    return deals


@pytest.fixture
def match_and_deals(referee: Any, chief: Any) -> tuple[Match, list[dict[str, Any]]]:
    deals = deals_to_correct()
    return confirmed(referee, chief, deals), deals


def test_the_correction_page_of_a_fives_match_has_the_move_list_editor_not_json(
    client, chief, match_and_deals
) -> None:
    match, deals = match_and_deals
    client.force_login(chief)
    page = client.get(f"/matches/{match.pk}/correct/").content.decode()
    assert '<div class="raw-deals" hidden>' in page  # the lines ride along, never shown
    assert "<details" not in page.split('id="correct-form"')[1].split("</form>")[0]
    assert page.count('class="pick moves-pick"') == len(deals)
    assert 'id="move-editor"' not in page  # no deal picked yet
    # a deal's number is a submit button of the form: it opens that deal without JavaScript
    posted = fields(page)
    opened = client.post(f"/matches/{match.pk}/correct/", {**posted, "pick": "1"})
    assert opened.status_code == 200
    text = opened.content.decode()
    assert 'id="move-editor"' in text and "Раздача 2: ходы" in text
    play = deals[1]["play"]
    assert text.count('class="move-row') == len(play)
    first_tile = NAMES[parse_tile(next(e["tile"] for e in play if "tile" in e))]
    assert f'name="e0-tile" class="tile-field" value="{first_tile}"' in text


def test_a_bad_edit_is_refused_naming_the_deal_the_move_and_the_tile(
    client, chief, match_and_deals
) -> None:
    match, deals = match_and_deals
    version, stored = match.version, [d.record for d in match.deals.all()]
    client.force_login(chief)
    page = client.post(f"/matches/{match.pk}/correct/",
                       {**fields(client.get(f"/matches/{match.pk}/correct/").content.decode()),
                        "pick": "0"}).content.decode()
    posted = fields(page)
    # the second move laid again as the first: a tile already on the table
    lead = NAMES[parse_tile(deals[0]["play"][0]["tile"])]
    j = next(j for j, e in enumerate(deals[0]["play"]) if j and "tile" in e)
    posted[f"e{j}-tile"] = lead
    posted["reason"] = "ошибка в записи"
    refused = client.post(f"/matches/{match.pk}/correct/", posted)
    assert refused.status_code == 400
    text = refused.content.decode()
    said = refusal(text)
    assert "Раздача 1" in said and f"Запись {j + 1}" in said and lead in said, said
    # the editor stays on the deal with the refused move marked and the text kept
    assert 'id="move-editor"' in text and f'value="{lead}"' in text
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.version == version and [d.record for d in fresh.deals.all()] == stored
    assert not MatchVersion.objects.filter(match=match, action="correct").exists()
    # in English too
    client.cookies["django_language"] = "en"
    english = client.post(f"/matches/{match.pk}/correct/", posted).content.decode()
    said = refusal(english)
    assert "Deal 1" in said and f"Entry {j + 1}" in said and lead in said, said


def test_a_changed_move_is_judged_again_saved_and_told_in_words_in_the_history(
    client, chief, match_and_deals
) -> None:
    match, deals = match_and_deals
    d, j, tile = a_legal_tile_change(deals)
    old_tile = NAMES[parse_tile(deals[d]["play"][j]["tile"])]
    client.force_login(chief)
    page = client.post(f"/matches/{match.pk}/correct/",
                       {**fields(client.get(f"/matches/{match.pk}/correct/").content.decode()),
                        "pick": str(d)}).content.decode()
    posted = fields(page)
    posted[f"e{j}-tile"] = tile
    posted[f"e{j}-points"] = ""
    # judged again without saving (the editor's button): the preview with JavaScript answers
    # the same from the same fields
    judged = client.post(f"/matches/{match.pk}/correct/", {**posted, "action": "preview"})
    assert judged.status_code == 200
    again = client.post(f"/matches/{match.pk}/correct/preview/", {**posted, "action": "preview"})
    answer = again.json()
    assert answer["ok"] is True and 'id="move-editor"' in answer["editor"]
    expected = copy.deepcopy(deals)
    expected[d]["play"][j]["tile"] = tile
    expected[d]["play"][j].pop("points", None)
    totals = FivesJudge(make_fives_rules("muggins")).fold(expected).to_dict()["totals"]
    words = f"Раздача {d + 1}, ход {j + 1}: {deals[d]['play'][j]['seat']} {tile}"
    assert words in answer["html"] and f"вместо {old_tile}" in answer["html"]
    assert Match.objects.get(pk=match.pk).totals != totals  # nothing saved by judging
    posted["reason"] = "кость перепутана"
    saved = client.post(f"/matches/{match.pk}/correct/", posted)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.totals == totals
    assert json.loads(CorrectionForm.lines([fresh.deals.all()[d].record]))["play"][j]["tile"] \
        == tile
    history = client.get(f"/matches/{match.pk}/history/").content.decode()
    assert words in history and f"вместо {old_tile}" in history
    assert "{&quot;" not in history and '{"' not in history  # no JSON


def test_a_points_only_deal_is_edited_as_numbers(client, referee, chief) -> None:
    deals = [{"result": "domino", "by": "N", "leader": "N", "hands": {"E": "6:6 5:4"},
              "scores": [{"seat": "N", "points": 10}, {"seat": "E", "points": 5}]}]
    match = confirmed(referee, chief, deals, {"target": 10})  # one deal ends the match
    client.force_login(chief)
    page = client.get(f"/matches/{match.pk}/correct/?deal=1").content.decode()
    assert 'name="e0-points"' in page and 'name="e0-tile"' not in page
    posted = fields(page)
    assert posted["e1-points"] == "5"
    posted["e1-points"] = "7"  # no move scores 7
    posted["reason"] = "опечатка"
    refused = client.post(f"/matches/{match.pk}/correct/", posted)
    assert refused.status_code == 400 and "Раздача 1" in refused.content.decode()
    posted["e1-points"] = "15"
    assert client.post(f"/matches/{match.pk}/correct/", posted).status_code == 302
    assert Match.objects.get(pk=match.pk).totals == {"N": 14, "E": 15}
    history = client.get(f"/matches/{match.pk}/history/").content.decode()
    assert "Раздача 1, ход 2: E +15 вместо E +5." in history


def test_a_telefon_protocol_round_trips_through_the_editor_with_several_doubles(
    client, referee, chief
) -> None:
    """A «Телефон» deal with two doubles laid in one move: its row holds both tiles and their
    ends; posted back unchanged it is the same deal, and a double moved to an end taken by the
    other is refused naming the deal and the move."""
    import random

    from rules.fives.simulate import play_fives_match

    rules = make_fives_rules("telefon", {"target": 60})
    deals = play_fives_match(rules, random.Random(6))
    d, j = next((d, j) for d, deal in enumerate(deals) for j, e in enumerate(deal["play"])
                if "tiles" in e)
    match = services.create_match(user=referee, rules_preset="telefon",
                                  rules_options={"target": 60})
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    version = Match.objects.get(pk=match.pk).version
    client.force_login(chief)
    page = client.get(f"/matches/{match.pk}/correct/?deal={d + 1}").content.decode()
    posted = fields(page)
    tiles = [NAMES[parse_tile(t["tile"])] for t in deals[d]["play"][j]["tiles"]]
    assert posted[f"e{j}-tile"] == " ".join(tiles)
    same = client.post(f"/matches/{match.pk}/correct/preview/", {**posted, "action": "preview"})
    assert same.json()["ok"] is True and "Пока ничего не изменено." in same.json()["summary"]
    ends = posted[f"e{j}-end"].split()
    posted[f"e{j}-end"] = " ".join([ends[0]] * len(ends))  # both doubles on one end
    posted["reason"] = "проверка"
    refused = client.post(f"/matches/{match.pk}/correct/", posted)
    assert refused.status_code == 400
    said = refusal(refused.content.decode())
    assert f"Раздача {d + 1}" in said and f"Запись {j + 1}" in said and tiles[0] in said, said
    assert Match.objects.get(pk=match.pk).version == version  # nothing changed
