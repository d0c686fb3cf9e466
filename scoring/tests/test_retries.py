"""A write sent again (the phone did not see the answer) over raw HTTP: the API and the pages.

Recording a deal: the same key with the same deal answers the stored deal; the same key with a
different deal, or with a deal deleted since, is 409 ``idempotency_conflict`` and stores nothing.
Amending, deleting the last deal, submitting and correcting sent again with the version they
were made against are recognised as done (nothing changes twice); a confirmation sent again is
refused with a message saying who confirmed.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import record_all
from scoring.tests.test_views import JSON, form_data

pytestmark = pytest.mark.django_db

#: a legal first deal of a sports match other than ``deals[0]`` (no leader written)
OTHER = {"result": "domino", "by": "E", "pips": {"N": 10, "S": 5, "W": 3}}


def api_for(user: User) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def url(match: Match, tail: str = "") -> str:
    return f"/api/v1/matches/{match.pk}/{tail}"


def codes(response: Any) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


def state(match: Match) -> tuple[Any, ...]:
    """What a user would compare: the deals, the version, the status and the history's length."""
    m = Match.objects.get(pk=match.pk)
    return (list(m.deals.order_by("n").values_list("n", "record")), m.version, m.status,
            m.history.count())  # fmt: skip


# --- recording a deal: the key -----------------------------------------------------------------


@pytest.mark.parametrize("how", ["header", "field"])
def test_the_same_key_with_a_different_deal_is_409_and_stores_nothing(match, referee, deals, how):
    api = api_for(referee)
    key = str(uuid.uuid4())

    def send(deal: dict[str, Any]) -> Any:
        if how == "header":
            return api.post(url(match, "deals/"), deal, format="json", HTTP_IDEMPOTENCY_KEY=key)
        return api.post(url(match, "deals/"), {**deal, "client_id": key}, format="json")

    assert send(deals[0]).status_code == 201
    before = state(match)
    response = send(OTHER)
    assert response.status_code == 409, response.json()
    assert codes(response) == ["idempotency_conflict"]
    assert "1" in response.json()["errors"][0]["message"]  # names the deal the key was used for
    assert response.json()["match"]["version"] == 2  # the protocol as it is, to show
    assert state(match) == before
    assert Deal.objects.get(match=match).record == deals[0]
    # The same deal with the same key still answers the stored deal, as before.
    again = send(deals[0])
    assert again.status_code == 201 and again.json()["n"] == 1
    assert state(match) == before


def test_the_same_deal_written_differently_is_the_same_deal(match, referee, deals):
    api = api_for(referee)
    key = str(uuid.uuid4())
    first = api.post(url(match, "deals/"), deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201
    # Keys in another order, tiles the other way round and as pairs, nulls for absent keys,
    # ``time_up`` false: the engine reads the same deal. (A key outside the contract is refused
    # before any of this: config/tests/test_bad_input.py.)
    hands = {seat: [[int(b), int(a)] for a, b in (t.split(":") for t in text.split())]
             for seat, text in reversed(deals[0]["hands"].items())}  # fmt: skip
    rewritten = {
        "declared": deals[0]["declared"], "hands": hands, "time_up": False, "pips": None,
        "last_tiles": deals[0]["last_tiles"].replace(":", "-"), "boneyard": None,
        "lead_tile": deals[0]["lead_tile"], "leader": "N", "by": "W", "result": "domino",
    }  # fmt: skip
    again = api.post(url(match, "deals/"), rewritten, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201, again.json()
    assert again.json() == first.json()
    assert Deal.objects.filter(match=match).count() == 1


def test_a_key_whose_deal_was_deleted_is_not_recorded_again(match, referee, deals):
    api = api_for(referee)
    key = str(uuid.uuid4())
    api.post(url(match, "deals/"), deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert api.delete(url(match, "deals/1/")).status_code == 200
    before = state(match)
    # A late retry of the deleted deal must not bring it back.
    late = api.post(url(match, "deals/"), deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert late.status_code == 409 and codes(late) == ["idempotency_conflict"]
    assert state(match) == before and not Deal.objects.filter(match=match).exists()


def test_a_retry_after_the_deal_was_amended_answers_the_amended_deal(match, referee, deals):
    api = api_for(referee)
    key = str(uuid.uuid4())
    api.post(url(match, "deals/"), deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    amended = {**deals[0], "declared": None}
    assert api.patch(url(match, "deals/1/"), amended, format="json").status_code == 200
    before = state(match)
    late = api.post(url(match, "deals/"), deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert late.status_code == 201 and late.json()["record"] == amended
    assert state(match) == before


def test_the_page_refuses_the_same_key_with_a_different_deal(client, referee, match, deals):
    client.force_login(referee)
    key = str(uuid.uuid4())
    first = client.post(f"/matches/{match.pk}/deals/", form_data(deals[0], match, client_id=key),
                        **JSON)  # fmt: skip
    assert first.status_code == 201
    before = state(match)
    other = form_data(OTHER, match, client_id=key, expected_version=2)
    response = client.post(f"/matches/{match.pk}/deals/", other, **JSON)
    assert response.status_code == 409
    body = response.json()
    assert [e["code"] for e in body["errors"]] == ["idempotency_conflict"]
    assert body["message"] and "раздач" in body["message"]
    assert 'data-n="1"' in body["protocol_html"]
    assert state(match) == before

    # Without JavaScript (the browser's back button brought the old form back): the page says
    # why and gives the form a new key, so that saving again records the deal as a new one.
    page = client.post(f"/matches/{match.pk}/deals/", other)
    assert page.status_code == 409
    html = page.content.decode()
    assert "уже" in html and state(match) == before
    new_key = re.search(r'name="client_id" value="([0-9a-f-]+)"', html).group(1)
    assert new_key != key
    saved = client.post(f"/matches/{match.pk}/deals/", {**other, "client_id": new_key}, **JSON)
    assert saved.status_code == 201 and Deal.objects.filter(match=match).count() == 2


def test_the_sheet_gives_the_form_a_key(client, referee, match):
    client.force_login(referee)
    keys = set()
    for _ in range(2):
        html = client.get(f"/matches/{match.pk}/").content.decode()
        found = re.search(r'name="client_id" value="([0-9a-f-]+)"', html)
        assert found, "the deal form must carry a key"
        keys.add(uuid.UUID(found.group(1)))
    assert len(keys) == 2


# --- amending and deleting the last deal ------------------------------------------------------


def test_an_amendment_sent_again_changes_nothing_twice(match, referee, deals):
    api = api_for(referee)
    record_all(match, referee, deals[:2])
    amended = {**deals[1], "declared": None}
    first = api.patch(url(match, "deals/2/"), amended, format="json", HTTP_IF_MATCH='"3"')
    assert first.status_code == 200
    before = state(match)
    again = api.patch(url(match, "deals/2/"), amended, format="json", HTTP_IF_MATCH='"3"')
    assert again.status_code == 200, again.json()
    assert again.json() == first.json()
    assert state(match) == before
    # Without a version the same amendment is also a no-op, not another version.
    assert api.patch(url(match, "deals/2/"), amended, format="json").status_code == 200
    assert state(match) == before
    # A different amendment against the old version is still a conflict.
    stale = api.patch(url(match, "deals/2/"), deals[1], format="json", HTTP_IF_MATCH='"3"')
    assert stale.status_code == 409 and codes(stale) == ["stale_version"]


def test_the_page_amendment_sent_again_says_so(client, referee, match, deals):
    client.force_login(referee)
    record_all(match, referee, deals[:1])
    replacement = {"result": "domino", "by": "E", "pips": {"N": 1, "S": 2, "W": 3}}
    data = form_data(replacement, match, expected_version=2)
    assert client.post(f"/matches/{match.pk}/deals/last/", data, **JSON).status_code == 201
    before = state(match)
    again = client.post(f"/matches/{match.pk}/deals/last/", data, **JSON)
    assert again.status_code == 200, again.json()
    assert again.json()["ok"] is True and again.json()["created"] is False
    assert "уже" in again.json()["message"]
    assert state(match) == before


def test_a_deletion_sent_again_deletes_one_deal(match, referee, deals):
    api = api_for(referee)
    record_all(match, referee, deals[:3])
    assert api.delete(url(match, "deals/3/"), {"expected_version": 4}, format="json").status_code \
        == 200
    before = state(match)
    again = api.delete(url(match, "deals/3/"), {"expected_version": 4}, format="json")
    assert again.status_code == 200, again.json()
    assert [d["n"] for d in again.json()["deals"]] == [1, 2]
    assert state(match) == before
    # Without a version the deal's number identifies the deletion.
    assert api.delete(url(match, "deals/2/")).status_code == 200
    before = state(match)
    assert api.delete(url(match, "deals/2/")).status_code == 200
    assert state(match) == before and [n for n, _r in before[0]] == [1]


def test_the_page_deletion_sent_again_deletes_one_deal_and_says_so(client, referee, match, deals):
    client.force_login(referee)
    record_all(match, referee, deals[:2])
    data = {"expected_version": 3}
    client.post(f"/matches/{match.pk}/deals/last/delete/", data)
    before = state(match)
    response = client.post(f"/matches/{match.pk}/deals/last/delete/", data, follow=True)
    assert state(match) == before and [n for n, _r in before[0]] == [1]
    text = response.content.decode()
    assert "Последняя раздача уже удалена" in text
    assert "другом устройстве" not in text


# --- submitting, confirming, correcting -------------------------------------------------------


def test_a_submission_sent_again_is_answered_as_done(client, match, referee, deals):
    record_all(match, referee, deals)
    version = Match.objects.get(pk=match.pk).version
    api = api_for(referee)
    assert api.post(url(match, "submit/"), {"expected_version": version},
                    format="json").status_code == 200  # fmt: skip
    before = state(match)
    again = api.post(url(match, "submit/"), {"expected_version": version}, format="json")
    assert again.status_code == 200, again.json()
    assert again.json()["status"] == "submitted"
    assert state(match) == before
    # The page's form sent again goes on to the confirmation, saying it was already submitted.
    client.force_login(referee)
    page = client.post(f"/matches/{match.pk}/submit/", {"expected_version": version}, follow=True)
    assert page.redirect_chain[-1][0] == f"/matches/{match.pk}/confirm/"
    assert "Протокол уже сдан" in page.content.decode()
    assert state(match) == before


def test_a_submission_without_a_version_sent_again_is_refused_clearly(match, referee, deals):
    record_all(match, referee, deals)
    api = api_for(referee)
    assert api.post(url(match, "submit/"), {}, format="json").status_code == 200
    before = state(match)
    again = api.post(url(match, "submit/"), {}, format="json")
    assert again.status_code == 409 and codes(again) == ["not_editable"]
    assert "уже сдан" in again.json()["errors"][0]["message"]
    assert state(match) == before


def test_a_confirmation_sent_again_says_who_confirmed(client, match, referee, chief, deals):
    record_all(match, referee, deals)
    services.submit(match.pk, referee)
    client.force_login(chief)
    assert client.post(f"/matches/{match.pk}/confirm/", {}).status_code == 302
    before = state(match)
    page = client.post(f"/matches/{match.pk}/confirm/", {})
    assert "Протокол уже подтверждён" in page.content.decode() and "chief" in page.content.decode()
    again = api_for(chief).post(url(match, "confirm/"), {}, format="json")
    assert again.status_code == 409 and codes(again) == ["not_submitted"]
    assert "уже подтверждён" in again.json()["errors"][0]["message"]
    assert state(match) == before


def _confirmed(match: Match, referee: User, chief: User, deals: list[dict[str, Any]]) -> int:
    record_all(match, referee, deals)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    return Match.objects.get(pk=match.pk).version


@pytest.mark.parametrize("with_version", [True, False])
def test_a_correction_sent_again_is_made_once(match, referee, chief, deals, with_version):
    version = _confirmed(match, referee, chief, deals)
    new = [*deals[:-1], {k: v for k, v in deals[-1].items() if k != "declared"}]
    body: dict[str, Any] = {"deals": new, "reason": "объявленные очки не записаны"}
    if with_version:
        body["expected_version"] = version
    api = api_for(chief)
    assert api.post(url(match, "corrections/"), body, format="json").status_code == 200
    before = state(match)
    again = api.post(url(match, "corrections/"), body, format="json")
    assert again.status_code == 200, again.json()
    assert [d["record"] for d in again.json()["deals"]] == new
    assert state(match) == before
    assert MatchVersion.objects.filter(match=match, action="correct").count() == 1


def test_the_correction_page_sent_again_is_made_once(client, match, referee, chief, deals):
    version = _confirmed(match, referee, chief, deals)
    client.force_login(chief)
    lines = "\n".join(json.dumps(d) for d in deals[:-1])
    lines += "\n" + json.dumps({k: v for k, v in deals[-1].items() if k != "declared"})
    data = {"deals": lines, "reason": "Перепутаны кости", "expected_version": version}
    assert client.post(f"/matches/{match.pk}/correct/", data).status_code == 302
    before = state(match)
    again = client.post(f"/matches/{match.pk}/correct/", data, follow=True)
    assert again.redirect_chain and "уже исправлен" in again.content.decode()
    assert state(match) == before


# --- creating a match -------------------------------------------------------------------------


def test_a_creation_sent_again_creates_one_match(chief, referee, players):
    api = api_for(chief)
    key = str(uuid.uuid4())
    body = {"label": "Кубок", "table": "7", "referee": referee.pk, "confirm_pin": "1357",
            "seats": {s: p.pk for s, p in players.items()}}  # fmt: skip
    first = api.post("/api/v1/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = api.post("/api/v1/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == again.status_code == 201, again.json()
    assert again.json()["id"] == first.json()["id"]
    assert Match.objects.count() == 1
    other = api.post("/api/v1/matches/", {**body, "table": "8"}, format="json",
                     HTTP_IDEMPOTENCY_KEY=key)  # fmt: skip
    assert other.status_code == 409 and codes(other) == ["idempotency_conflict"]
    assert Match.objects.count() == 1
    # The key in the body works the same; a new key is a new match.
    assert api.post("/api/v1/matches/", {**body, "client_id": key},
                    format="json").json()["id"] == first.json()["id"]  # fmt: skip
    assert api.post("/api/v1/matches/", body, format="json").status_code == 201
    assert Match.objects.count() == 2


def test_the_new_match_form_sent_twice_creates_one_match(client, referee, players):
    client.force_login(referee)
    html = client.get("/matches/new/").content.decode()
    key = re.search(r'name="client_id" value="([0-9a-f-]+)"', html).group(1)
    data = {"label": "Товарищеская", "table": "2", "rules_preset": "kozel", "client_id": key,
            **{f"seat_{s}": p.pk for s, p in players.items()}}  # fmt: skip
    first = client.post("/matches/new/", data)
    again = client.post("/matches/new/", data)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Match.objects.count() == 1
    changed = client.post("/matches/new/", {**data, "table": "3"})
    assert changed.status_code == 400 and Match.objects.count() == 1
    assert "уже создана" in changed.content.decode()
