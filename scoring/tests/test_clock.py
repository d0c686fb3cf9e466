"""The match's clock (``scoring.services.clock``): a deal recorded after the clock ran out is the
last one (the server writes its ``time_up``), a retry of it is still the same deal, a paused
clock never runs out, and a paper protocol copied at the desk is not stamped."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scoring import services
from scoring.errors import Conflict, DealRefused
from scoring.models import Deal, Match

pytestmark = pytest.mark.django_db


def run_out(match: Match) -> None:
    services.set_clock([match.pk], ends_at=timezone.now() - timedelta(seconds=1))


def test_the_deal_recorded_after_time_ran_out_ends_the_match(match, referee, deals) -> None:
    services.set_clock([match.pk], ends_at=timezone.now() + timedelta(minutes=30))
    services.record_deal(match.pk, deals[0], referee)
    first = Deal.objects.get(match=match, n=1)
    assert "time_up" not in first.record and not first.time_up_by_clock

    run_out(match)
    recorded = services.record_deal(match.pk, deals[1], referee, client_id=uuid.uuid4())
    assert recorded.deal.record["time_up"] is True and recorded.deal.time_up_by_clock
    match.refresh_from_db()
    assert match.finished and match.end == "time"
    assert match.winner in ("NS", "EW", "draw")
    # the next one is refused as after the end, and nothing more is stamped or stored
    with pytest.raises(DealRefused):
        services.record_deal(match.pk, deals[2], referee)
    assert match.deals.count() == 2


def test_a_retry_of_the_stamped_deal_is_the_same_deal(match, referee, deals) -> None:
    run_out(match)
    key = uuid.uuid4()
    first = services.record_deal(match.pk, deals[0], referee, client_id=key)
    assert first.created and first.deal.time_up_by_clock
    # the phone did not see the answer and sends its deal again, without time_up
    again = services.record_deal(match.pk, deals[0], referee, client_id=key)
    assert not again.created and again.deal.pk == first.deal.pk
    assert match.deals.count() == 1
    # the same key with another deal is still a conflict
    with pytest.raises(Conflict):
        services.record_deal(match.pk, deals[1], referee, client_id=key)


def test_the_api_retry_after_the_stamp_answers_the_stored_deal(match, referee, deals) -> None:
    run_out(match)
    api = APIClient()
    api.force_authenticate(referee)
    key = str(uuid.uuid4())
    url = f"/api/v1/matches/{match.pk}/deals/"
    first = api.post(url, deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201, first.json()
    assert first.json()["record"]["time_up"] is True
    again = api.post(url, deals[0], format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code in (200, 201)  # the API answers a retry as it answered the deal
    assert again.json()["n"] == first.json()["n"] == 1
    assert Deal.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).end == "time"


def test_a_paused_clock_never_runs_out(match, referee, deals) -> None:
    services.set_clock([match.pk], paused_left=0)
    services.record_deal(match.pk, deals[0], referee)
    match.refresh_from_db()
    assert not match.finished
    state = services.clock_state(match)
    assert state is not None and state.paused and not state.time_up


def test_no_clock_no_stamp(match, referee, deals) -> None:
    services.record_deal(match.pk, deals[0], referee)
    assert services.clock_state(Match.objects.get(pk=match.pk)) is None
    assert not Deal.objects.get(match=match).time_up_by_clock


def test_a_paper_protocol_copied_later_is_not_stamped(match, chief, deals) -> None:
    run_out(match)
    services.record_deals(match.pk, [services.DealToRecord(d) for d in deals[:3]], chief)
    assert match.deals.count() == 3
    assert not match.deals.filter(time_up_by_clock=True).exists()


def test_amending_the_stamped_deal_keeps_the_mark(match, referee, deals) -> None:
    services.record_deal(match.pk, deals[0], referee)
    run_out(match)
    services.record_deal(match.pk, deals[1], referee)
    changed: dict[str, Any] = {k: v for k, v in deals[1].items() if k != "declared"}
    amended = services.amend_last_deal(match.pk, changed, referee)
    assert amended.record["time_up"] is True
    assert Match.objects.get(pk=match.pk).end == "time"


# --- while the clock runs, only the server says time is up (issue 25) -------------------------


def _api(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


@pytest.mark.parametrize("clock", ["running", "paused"])
def test_a_referee_cannot_end_a_match_by_time_while_the_clock_runs(match, referee, deals,
                                                                   clock) -> None:
    if clock == "running":
        services.set_clock([match.pk], ends_at=timezone.now() + timedelta(seconds=59))
    else:
        services.set_clock([match.pk], paused_left=59)
    api = _api(referee)
    url = f"/api/v1/matches/{match.pk}/deals/"
    early = api.post(url, {**deals[0], "time_up": True}, format="json",
                     HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert early.status_code == 400, early.json()
    assert [e["code"] for e in early.json()["errors"]] == ["time_not_up"]
    assert "clock" in early.json()["errors"][0]["message"]
    assert Deal.objects.filter(match=match).count() == 0
    assert not Match.objects.get(pk=match.pk).finished
    # the preview says the same, and so does an amendment of the last deal
    preview = api.post(url + "preview/", {**deals[0], "time_up": True}, format="json")
    assert preview.status_code == 400 or not preview.json().get("ok", True), preview.json()
    assert api.post(url, deals[0], format="json").status_code == 201
    amend = api.patch(url + "1/", {**deals[0], "time_up": True}, format="json",
                      HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert amend.status_code == 400, amend.json()
    assert [e["code"] for e in amend.json()["errors"]] == ["time_not_up"]
    assert "час" in amend.json()["errors"][0]["message"]  # «часы» in Russian
    assert "time_up" not in Deal.objects.get(match=match, n=1).record


def test_without_a_clock_the_referee_says_when_time_is_up(match, referee, deals) -> None:
    api = _api(referee)
    answer = api.post(f"/api/v1/matches/{match.pk}/deals/", {**deals[0], "time_up": True},
                      format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
    assert Match.objects.get(pk=match.pk).end == "time"


def test_after_the_clock_ran_out_the_referees_time_up_stands(match, referee, deals) -> None:
    run_out(match)
    answer = _api(referee).post(f"/api/v1/matches/{match.pk}/deals/",
                                {**deals[0], "time_up": True}, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.json()
