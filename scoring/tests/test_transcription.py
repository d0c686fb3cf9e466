"""The desk copies a paper protocol in, over raw HTTP (the page's form as a browser posts it):
every row judged, a written amount that is not the rules' flagged with the rules' amount and
refused until the desk accepts it or corrects the hands; all rows or none; sent twice, stored
once; the paper's amount kept in the deal's history; the desk only."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules import Judge, make_rules
from scoring import services
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import paper_rows

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def paper(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The match as written on paper, with an arithmetic slip: deal 5's amount 8 too high."""
    written = copy.deepcopy(deals)
    side, amount = next((s, a) for s, a in written[4]["declared"].items() if a)
    written[4]["declared"][side] = amount + 8
    return written


def url(match: Match, tail: str = "") -> str:
    return f"/matches/{match.pk}/transcribe/{tail}"


def test_only_the_desk_copies_a_paper_protocol(client, match, referee, chief, deals) -> None:
    client.force_login(referee)
    assert client.get(url(match)).status_code == 403
    assert client.post(url(match), paper_rows(deals)).status_code == 403
    assert not Deal.objects.exists()
    client.force_login(chief)
    page = client.get(url(match)).content.decode()
    assert "Перенести бумажный протокол" in page
    assert page.count('name="row-') >= 8 * 9  # a row per deal of the match, with its fields


def test_each_row_is_judged_and_the_slip_is_flagged_on_its_row(client, match, chief, deals,
                                                               paper) -> None:
    client.force_login(chief)
    answer = client.post(url(match, "preview/"), paper_rows(paper), **JSON).json()
    assert answer["ok"] is False
    side = next(s for s, a in deals[4]["declared"].items() if a)
    label = {"NS": "N–S", "EW": "E–W"}[side]
    good, slip = deals[4]["declared"][side], paper[4]["declared"][side]
    flagged = {i for i, html in answer["rows"].items() if "check-differs" in html}
    assert flagged == {"4"}
    assert f"<b>{label}</b>: записано {slip}, по правилам {good}" in answer["rows"]["4"]
    assert all("check-ok" in answer["rows"][str(i)] for i in range(8) if i != 4)
    total = Judge(make_rules("sport")).fold(deals).state.totals[side]
    assert f'data-paper-total="{side}">{total + 8}<' in answer["totals"]
    assert f'data-rules-total="{side}">{total}<' in answer["totals"]
    assert not Deal.objects.exists()


def test_the_slip_is_refused_until_the_rules_amount_is_accepted(client, match, chief, deals,
                                                                paper) -> None:
    client.force_login(chief)
    refused = client.post(url(match), paper_rows(paper))
    assert refused.status_code == 400
    assert "Раздача 5: Объявлено" in refused.content.decode()
    assert not Deal.objects.exists()

    side = next(s for s, a in deals[4]["declared"].items() if a)
    accepted = paper_rows(deals, expected_version=match.version)
    accepted[f"row-4-paper_{side}"] = str(paper[4]["declared"][side])
    done = client.post(url(match), accepted)
    assert done.status_code == 302 and done["Location"] == f"/matches/{match.pk}/"
    stored = Match.objects.get(pk=match.pk)
    def both(declared: dict[str, int] | None) -> dict[str, int] | None:
        return {s: declared.get(s, 0) for s in ("NS", "EW")} if declared else None

    assert [d.record.get("declared") for d in stored.deals.order_by("n")] == \
        [both(d.get("declared")) for d in deals]
    assert stored.totals == Judge(make_rules("sport")).fold(deals).state.totals
    assert stored.finished
    fifth = MatchVersion.objects.get(match=match, action="record_deal", after__n=5)
    label = {"NS": "N–S", "EW": "E–W"}[side]
    assert fifth.reason == (f"на бумаге {label} {paper[4]['declared'][side]}, принято по "
                            f"правилам {deals[4]['declared'][side]}")

    # the same form sent again (no answer seen): nothing recorded twice
    again = client.post(url(match), accepted, follow=True)
    assert "Эти раздачи уже были записаны." in again.content.decode()
    assert Deal.objects.filter(match=match).count() == len(deals)


def test_hands_as_pips_and_keyboard_tiles_are_read(client, match, chief) -> None:
    client.force_login(chief)
    rows = paper_rows([{"result": "domino", "by": "E", "pips": {"N": 8, "S": 50, "W": 9},
                        "declared": {"EW": 58}}])
    assert client.post(url(match), rows).status_code == 302
    assert Deal.objects.get().record == {"result": "domino", "by": "E",
                                         "pips": {"N": 8, "S": 50, "W": 9},
                                         "declared": {"NS": 0, "EW": 58}}
    services.delete_last_deal(match.pk, chief)
    rows = paper_rows([{"result": "domino", "by": "E",
                        "hands": {"N": "3-4 1.0", "S": "6/6", "W": "2:2 4-1"}}])
    assert client.post(url(match), rows).status_code == 302
    assert Deal.objects.get().record["hands"] == {"N": "3:4 1:0", "S": "6:6", "W": "2:2 4:1"}


def test_a_row_without_its_result_names_what_is_missing(client, match, chief) -> None:
    client.force_login(chief)
    rows = paper_rows([{"result": "", "hands": {"N": "1:1"}}])
    answer = client.post(url(match, "preview/"), rows, **JSON).json()
    assert "Выберите, чем закончилась раздача." in answer["rows"]["0"]
    blank = paper_rows([{"result": ""}])
    assert client.post(url(match), blank).status_code == 302  # a blank row is no deal
    assert not Deal.objects.exists()


def test_a_handed_in_protocol_is_not_copied_into(client, match, chief, referee, deals) -> None:
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    client.force_login(chief)
    assert "Этот протокол уже сдан" in client.get(url(match)).content.decode()
    assert client.post(url(match), paper_rows(deals[:1])).status_code == 409


def test_a_paper_longer_than_the_rules_allow_is_refused_unread(client, match, chief,
                                                               deals) -> None:  # fmt: skip
    """Issue 25: a 990-row paper protocol took 5.5 s and answered 2 MB. The rules' deal limit
    bounds the rows: beyond it the paper is refused with one short message, nothing stored."""
    client.force_login(chief)
    rows = {**paper_rows(deals), "row-TOTAL_FORMS": 990}  # the rest of the rows left blank
    assert int(rows["row-TOTAL_FORMS"]) > match.get_rules().deal_limit
    preview = client.post(url(match, "preview/"), rows, HTTP_ACCEPT_LANGUAGE="en", **JSON)
    assert preview.status_code == 400
    assert len(preview.content) < 2_000
    limit = str(match.get_rules().deal_limit)  # the page speaks the club's language (ru)
    assert limit in preview.json()["error"] and "раздач" in preview.json()["error"]
    saved = client.post(url(match), rows)
    assert saved.status_code == 400 and Deal.objects.filter(match=match).count() == 0
