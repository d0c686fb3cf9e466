"""A fives match's pages: created from the new-match form, its referee's sheet with the fives
board (``static/js/fives.js``) instead of the hand entry, printed; its last deal amended and
deleted through the services."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest

from scoring import services
from scoring.errors import ScoringError
from scoring.models import Match
from scoring.tests.test_fives import engine, illegal_move, muggins_deals

pytestmark = pytest.mark.django_db


def test_the_new_match_form_creates_a_muggins_match(client, referee) -> None:
    client.force_login(referee)
    page = client.get("/matches/new/").content.decode()
    assert 'value="muggins"' in page and 'value="fives"' in page
    response = client.post("/matches/new/", {"rules_preset": "muggins", "label": "Пятёрка",
                                             "client_id": str(uuid.uuid4())})  # fmt: skip
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"
    assert (match.rules_preset, match.rules["spinner"]) == ("muggins", "first_double")


def test_the_referees_sheet_of_a_fives_match_has_the_board(client, referee) -> None:
    match = services.create_match(user=referee, rules_preset="muggins")
    services.record_deal(match.pk, muggins_deals()[0], referee)
    client.force_login(referee)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="fives-entry"' in page and 'id="deal-form"' not in page
    assert "js/fives.js" in page and "js/scoresheet.js" not in page
    found = re.search(r'<script id="fives-data" type="application/json">(.*?)</script>', page)
    assert found is not None
    data = json.loads(found.group(1))
    assert data["spinner"] is True and data["seats"] == ["N", "E"]
    assert data["totals"] == engine(muggins_deals()[:1])["totals"]
    assert data["leader"] == "E" and data["api_url"] == f"/api/v1/matches/{match.pk}/deals/"
    assert "<script>" not in page  # no inline script (the CSP)


def test_anyone_else_sees_the_fives_protocol_without_the_board(client, referee, stranger) -> None:
    match = services.create_match(user=referee, rules_preset="muggins")
    client.force_login(stranger)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="fives-entry"' not in page


def test_a_fives_match_prints(client, referee) -> None:
    match = services.create_match(user=referee, rules_preset="muggins")
    services.record_deal(match.pk, muggins_deals()[0], referee)
    assert client.get(f"/matches/{match.pk}/print/").status_code == 200
    pdf = client.get(f"/matches/{match.pk}/protocol.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_players_not_captains_sign_a_head_to_head_protocol(client, referee) -> None:
    """A side of one seat has no captain: the player signs for himself, on paper and in the PDF."""
    from io import BytesIO

    from pypdf import PdfReader

    match = services.create_match(user=referee, rules_preset="muggins")
    client.force_login(referee)
    page = client.get(f"/matches/{match.pk}/print/").content.decode()
    pdf = " ".join(
        p.extract_text()
        for p in PdfReader(BytesIO(client.get(f"/matches/{match.pk}/protocol.pdf").content)).pages
    )
    signatures = page[page.index('class="signatures"'):]
    assert "Капитан" not in signatures and "Капитан" not in pdf
    assert signatures.count("<td>Игрок ") == 2
    assert pdf.count("Игрок ") >= 2


def test_the_last_fives_deal_is_amended_and_deleted(referee) -> None:
    deals = muggins_deals()
    match = services.create_match(user=referee, rules_preset="muggins")
    services.record_deal(match.pk, deals[0], referee)
    services.record_deal(match.pk, deals[1], referee)
    with pytest.raises(ScoringError) as refused:
        services.amend_last_deal(match.pk, illegal_move(deals[1]), referee)
    assert refused.value.codes  # the engine's reason; the deal is unchanged
    assert Match.objects.get(pk=match.pk).deals.last().record == deals[1]
    declared = {**deals[1], "declared": engine(deals[:2])["deals"][1]["recorded"]}
    amended = services.amend_last_deal(match.pk, declared, referee)
    assert amended.record == declared
    assert Match.objects.get(pk=match.pk).totals == engine(deals[:2])["totals"]
    services.delete_last_deal(match.pk, referee)
    assert Match.objects.get(pk=match.pk).totals == engine(deals[:1])["totals"]
    assert [h.action for h in Match.objects.get(pk=match.pk).history.all()] == [
        "create", "record_deal", "record_deal", "amend_deal", "delete_deal",
    ]  # fmt: skip


def test_deal_to_a_fives_match_with_an_unknown_key_is_refused(referee: Any) -> None:
    match = services.create_match(user=referee, rules_preset="muggins")
    with pytest.raises(ScoringError) as refused:
        services.record_deal(match.pk, {**muggins_deals()[0], "lead_tile": "6:2"}, referee)
    assert refused.value.codes == ["unknown_field"]


def test_every_page_of_a_finished_fives_match_opens(client, referee, chief) -> None:
    match = services.create_match(user=referee, rules_preset="muggins")
    for deal in muggins_deals():
        services.record_deal(match.pk, deal, referee)
    client.force_login(referee)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    # no board for a new deal: only the last deal's amendment opens it (hidden till then)
    assert 'id="submit-link"' in page and 'id="fives-entry" class="entry fives finished"' in page
    assert client.get(f"/matches/{match.pk}/submit/").status_code == 200
    services.submit(match.pk, referee)
    client.force_login(chief)
    for tail in ("confirm/", "history/", "print/"):
        assert client.get(f"/matches/{match.pk}/{tail}").status_code == 200, tail
    services.confirm(match.pk, chief)
    assert client.get(f"/matches/{match.pk}/correct/").status_code == 200


def test_the_protocol_names_who_led_and_who_went_out_from_the_line_of_play(client, referee):
    """A strong record need not repeat ``leader`` and ``by``: the line of play says both, and
    the protocol grid and the printed sheet show them as for the other games."""
    deals = [{k: v for k, v in d.items() if k not in ("leader", "by")} for d in muggins_deals()]
    match = services.create_match(user=referee, rules_preset="muggins")
    for deal in deals[:3]:
        services.record_deal(match.pk, deal, referee)
    verdicts = engine(deals[:3])["deals"]
    client.force_login(referee)
    for url in (f"/matches/{match.pk}/", f"/matches/{match.pk}/print/"):
        page = client.get(url).content.decode()
        for deal, verdict in zip(deals[:3], verdicts, strict=True):
            row = re.search(rf'<tr[^>]*>\s*<td[^>]*>{verdict["n"]}</td>(.*?)</tr>', page, re.S)
            assert row is not None, url
            cells = re.sub(r"<[^>]+>", "|", row.group(1))
            assert verdict["moves"][0]["seat"] in cells  # the seat of the lead
            if deal["result"] == "domino":
                went_out = verdict["moves"][-1]["seat"]
                assert re.search(rf"(домино|domino)\W+{went_out}\b", cells), (url, cells)


def test_the_printed_protocol_lists_each_deals_scoring_moves_and_bonus(client, referee):
    """Paper and PDF show, under each deal, the moves that scored (seat, tile, points) and the
    bonus, so the arithmetic can be followed on paper."""
    from io import BytesIO

    from pypdf import PdfReader

    deals = muggins_deals()[:2]
    match = services.create_match(user=referee, rules_preset="muggins")
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    verdicts = engine(deals)["deals"]
    client.force_login(referee)
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(
        f"/matches/{match.pk}/print/").content.decode()))
    reader = PdfReader(BytesIO(client.get(f"/matches/{match.pk}/protocol.pdf").content))
    pdf = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))
    for verdict in verdicts:
        scored = [m for m in verdict["moves"] if m["points"]]
        assert scored
        for move in scored:
            text = f'{move["seat"]} {move["tile"]} +{move["points"]}'
            assert text in page and text in pdf, text
        for side, bonus in verdict["bonus"].items():
            if bonus:
                assert re.search(rf"(призовые|bonus) {side} \+{bonus}\b", page, re.I)
                assert re.search(rf"(призовые|bonus) {side} \+{bonus}\b", pdf, re.I)


def test_a_fives_protocol_is_corrected_as_lines_judged_again_deal_by_deal(
    client, referee, chief
) -> None:
    """The fives games have no tile picker on the correction page but the move-list editor
    (``test_fives_correction``); the deals it carries as lines of data are judged again as they
    are posted, a wrong move named by its deal and entry."""
    match = services.create_match(user=referee, rules_preset="muggins")
    deals = muggins_deals()
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    client.force_login(chief)
    page = client.get(f"/matches/{match.pk}/correct/").content.decode()
    assert 'class="pick"' not in page and 'id="deal-editor"' not in page
    assert '<div class="raw-deals" hidden>' in page and 'class="pick moves-pick"' in page
    lines = [json.dumps(d) for d in deals]
    same = client.post(f"/matches/{match.pk}/correct/preview/", {"deals": "\n".join(lines)})
    assert same.json()["ok"] is True
    assert "Пока ничего не изменено." in same.json()["summary"]
    lines[1] = json.dumps(illegal_move(deals[1]))
    wrong = client.post(f"/matches/{match.pk}/correct/preview/", {"deals": "\n".join(lines)})
    assert wrong.json()["ok"] is False
    assert wrong.json()["html"].count('class="row-errors') == 1
    assert 'data-index="1"' in wrong.json()["html"].split('class="row-errors')[1][:40]
