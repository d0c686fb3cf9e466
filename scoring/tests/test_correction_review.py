"""A correction judged as the desk reads it, over raw HTTP (the API and the correction page).

One bad tile in deal 5 of a confirmed protocol answered «Кость 5:5 записана дважды (S)» without
the deal's number, plus a false «Заходило место E, а заход был за N» on each of the three deals
after it: the correction was judged by the contract's fold, in which a refused deal is absent and
the lead does not move on. Now the refusal names deal 5 alone, and nothing is stored.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rules import Judge, make_rules
from scoring import services
from scoring.models import Match, MatchVersion
from scoring.tests.helpers import record_all
from scoring.tests.test_api import client_for, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmed(match: Match, referee: Any, chief: Any, deals: list[dict[str, Any]]) -> Match:
    record_all(match, referee, deals)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    return Match.objects.get(pk=match.pk)


def with_a_tile_twice(deals: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    """``deals`` with one tile of deal ``index`` written in a second hand too."""
    out = copy.deepcopy(deals)
    hands = out[index]["hands"]
    seats = list(hands)
    hands[seats[1]] += " " + hands[seats[0]].split()[0]
    out[index].pop("declared", None)
    return out


def test_one_bad_tile_is_refused_as_that_deal_alone_named_by_its_number(
    confirmed: Match, chief: Any, deals: list[dict[str, Any]]
) -> None:
    bad = with_a_tile_twice(deals, 4)
    answer = client_for(chief).post(url(confirmed, "corrections/"),
                                    {"deals": bad, "reason": "опечатка"}, format="json")
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert [(e["code"], e["n"]) for e in errors] == [("duplicate_tile", 5)]
    assert errors[0]["field"].startswith("deals.4.")
    assert errors[0]["message"].startswith("Раздача 5: Кость ")
    after = Match.objects.get(pk=confirmed.pk)
    assert after.version == confirmed.version
    assert [d.record for d in after.deals.order_by("n")] == deals
    assert not MatchVersion.objects.filter(match=confirmed, action="correct").exists()


def test_a_written_amount_that_is_not_the_rules_names_its_deal_and_the_rules_amount(
    confirmed: Match, chief: Any, deals: list[dict[str, Any]]
) -> None:
    wrong = copy.deepcopy(deals)
    side, amount = next((s, a) for s, a in wrong[2]["declared"].items() if a)
    wrong[2]["declared"][side] = amount + 8
    answer = client_for(chief).post(url(confirmed, "corrections/"),
                                    {"deals": wrong, "reason": "опечатка"}, format="json")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["code"], error["n"]) == ("declared_mismatch", 3)
    assert error["expected"][side] == amount and error["declared"][side] == amount + 8
    assert error["message"] == (f"Раздача 3: Объявлено {side} {amount + 8}, "
                                f"а по правилам записывается {side} {amount}")


def test_a_deal_with_an_unknown_field_is_named_by_its_number(
    confirmed: Match, chief: Any, deals: list[dict[str, Any]]
) -> None:
    odd = copy.deepcopy(deals)
    odd[6]["comment"] = "x"
    answer = client_for(chief).post(url(confirmed, "corrections/"),
                                    {"deals": odd, "reason": "опечатка"}, format="json")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["code"], error["n"], error["field"]) == ("unknown_field", 7, "deals.6.comment")
    assert error["message"].startswith("Раздача 7: ")


def test_a_legal_correction_stores_the_engines_fold(
    confirmed: Match, chief: Any, deals: list[dict[str, Any]]
) -> None:
    new = [{k: v for k, v in d.items() if k != "declared"} for d in deals]
    answer = client_for(chief).post(url(confirmed, "corrections/"),
                                    {"deals": new, "reason": "без объявленных очков"},
                                    format="json")
    assert answer.status_code == 200
    fold = Judge(make_rules("sport")).fold(new)
    stored = Match.objects.get(pk=confirmed.pk)
    assert stored.totals == fold.state.totals and stored.winner == fold.state.winner
    assert [d.verdict for d in stored.deals.order_by("n")] == [v.to_dict() for v in fold.deals]


def test_the_correction_page_lists_only_the_wrong_deal(
    client: Any, confirmed: Match, chief: Any, deals: list[dict[str, Any]]
) -> None:
    client.force_login(chief)
    lines = "\n".join(json.dumps(d) for d in with_a_tile_twice(deals, 4))
    answer = client.post(f"/matches/{confirmed.pk}/correct/", {
        "deals": lines, "reason": "опечатка", "expected_version": confirmed.version})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "Раздача 5: Кость" in html
    assert "Заходило место" not in html
    assert Match.objects.get(pk=confirmed.pk).version == confirmed.version
