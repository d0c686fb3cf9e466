"""The match pages: the referee's sheet, preview and record (JSON and plain form), amend and
delete, submit, confirm by the desk or the captain's PIN, correction, history."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.utils import translation

from rules import Judge, make_rules
from scoring import services
from scoring.models import Deal, Match, MatchVersion

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def form_data(deal: dict[str, Any], match: Match, **extra: Any) -> dict[str, Any]:
    """The sheet's form fields for a contract deal, as the tile picker fills them."""
    data: dict[str, Any] = {
        "result": deal["result"], "by": deal.get("by", ""), "leader": deal.get("leader", ""),
        "mode": "pips" if "pips" in deal else "tiles",
        "client_id": str(uuid.uuid4()), "expected_version": match.version,
    }
    for seat, tiles in (deal.get("hands") or {}).items():
        data[f"hand_{seat}"] = tiles
    for seat, pips in (deal.get("pips") or {}).items():
        data[f"pips_{seat}"] = pips
    if deal.get("time_up"):
        data["time_up"] = "on"
    data.update(extra)
    return data


def test_sheet_shows_seats_names_leader_and_the_tile_picker(client, referee, match) -> None:
    client.force_login(referee)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "ИгрокN" in html and "ИгрокW" in html
    assert 'id="deal-form"' in html
    assert html.count('class="tile"') == 28
    assert "Заходит" in html and "<b>N · ИгрокN" in html
    for word in ("домино", "рыба", "пересдача"):
        assert word in html


def test_anyone_reads_the_sheet_but_only_the_referee_gets_the_form(client, match, stranger) -> None:
    assert 'id="deal-form"' not in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(stranger)
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    assert 'id="deal-form"' not in response.content.decode()


def test_missing_match_is_404(client) -> None:
    assert client.get("/matches/999999/").status_code == 404


def test_preview_shows_what_gets_written_and_stores_nothing(client, referee, match, deals):
    client.force_login(referee)
    response = client.post(f"/matches/{match.pk}/preview/", form_data(deals[0], match), **JSON)
    data = response.json()
    verdict = Judge(make_rules("sport")).fold(deals[:1]).deals[0]
    assert data["ok"] is True
    winner = next(side for side, amount in verdict.recorded.items() if amount)
    amount = verdict.recorded[winner]
    assert f"+{amount}" in data["html"]
    assert "Итого после раздачи" in data["html"]
    assert Deal.objects.count() == 0


def test_preview_names_the_seat_and_tile_in_russian(client, referee, match) -> None:
    client.force_login(referee)
    bad = {"result": "domino", "by": "N", "hands": {"E": "6:6", "S": "6:6 1:1", "W": "2:2"}}
    data = client.post(f"/matches/{match.pk}/preview/", form_data(bad, match), **JSON).json()
    assert data["ok"] is False
    assert "Кость 6:6 записана дважды" in data["html"]
    assert "S · ИгрокS" in data["html"]


def test_preview_of_a_forgotten_hand_names_the_seat(client, referee, match) -> None:
    client.force_login(referee)
    bad = {"result": "domino", "by": "N", "hands": {"E": "6:6", "S": "1:1"}}
    data = client.post(f"/matches/{match.pk}/preview/", form_data(bad, match), **JSON).json()
    assert "Для места W не записаны ни кости, ни очки" in data["html"]


def test_record_stores_the_deal_once_per_client_id(client, referee, match, deals) -> None:
    client.force_login(referee)
    data = form_data(deals[0], match)
    first = client.post(f"/matches/{match.pk}/deals/", data, **JSON)
    again = client.post(f"/matches/{match.pk}/deals/", data, **JSON)  # the phone retries
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["created"] is False
    assert Deal.objects.filter(match=match).count() == 1
    body = first.json()
    assert body["version"] == match.version + 1
    assert 'data-n="1"' in body["protocol_html"]


def test_a_refused_deal_is_400_with_the_reasons_and_nothing_stored(client, referee, match):
    client.force_login(referee)
    bad = {"result": "domino", "by": "N", "hands": {"E": "6:6", "S": "6:6", "W": "1:1"}}
    response = client.post(f"/matches/{match.pk}/deals/", form_data(bad, match), **JSON)
    assert response.status_code == 400
    assert "duplicate_tile" in [e["code"] for e in response.json()["errors"]]
    assert "Кость 6:6 записана дважды" in response.json()["html"]
    assert Deal.objects.count() == 0


def test_stale_version_is_409_with_the_current_protocol(client, referee, match, deals) -> None:
    client.force_login(referee)
    services.record_deal(match.pk, deals[0], referee)
    stale = form_data(deals[1], match, expected_version=match.version)
    response = client.post(f"/matches/{match.pk}/deals/", stale, **JSON)
    assert response.status_code == 409
    assert response.json()["version"] == match.version + 1
    assert 'data-n="1"' in response.json()["protocol_html"]


def test_another_referee_may_not_record(client, other_referee, match, deals) -> None:
    client.force_login(other_referee)
    response = client.post(f"/matches/{match.pk}/deals/", form_data(deals[0], match), **JSON)
    assert response.status_code == 403
    assert Deal.objects.count() == 0


def test_plain_form_post_without_javascript_redirects_back(client, referee, match, deals):
    client.force_login(referee)
    response = client.post(f"/matches/{match.pk}/deals/", form_data(deals[0], match))
    assert response.status_code == 302
    assert Deal.objects.count() == 1
    refused = client.post(f"/matches/{match.pk}/deals/", {"result": "domino", "by": "N",
                                                         "expected_version": 2})
    assert refused.status_code == 400
    assert "Для места E не записаны" in refused.content.decode()


def test_quick_pip_entry(client, referee, match) -> None:
    client.force_login(referee)
    deal = {"result": "domino", "by": "E", "pips": {"N": 12, "S": 3, "W": 7}}
    response = client.post(f"/matches/{match.pk}/deals/", form_data(deal, match), **JSON)
    assert response.status_code == 201
    stored = Deal.objects.get()
    assert stored.record["pips"] == {"N": 12, "S": 3, "W": 7}
    assert stored.verdict["recorded"] == {"NS": 0, "EW": 15}  # E went out: EW takes N+S


def test_amend_and_delete_the_last_deal(client, referee, match, deals) -> None:
    client.force_login(referee)
    services.record_deal(match.pk, deals[0], referee)
    match.refresh_from_db()
    replacement = {"result": "domino", "by": "E", "pips": {"N": 1, "S": 2, "W": 3}}
    response = client.post(f"/matches/{match.pk}/deals/last/", form_data(replacement, match),
                           **JSON)
    assert response.status_code == 201
    assert Deal.objects.get().record["pips"] == {"N": 1, "S": 2, "W": 3}
    match.refresh_from_db()
    client.post(f"/matches/{match.pk}/deals/last/delete/", {"expected_version": match.version})
    assert Deal.objects.count() == 0


def record_all(match: Match, deals: list[dict[str, Any]], user: Any) -> None:
    for deal in deals:
        services.record_deal(match.pk, deal, user)


def test_finished_match_offers_submit_and_totals_equal_the_engine(client, referee, match, deals):
    record_all(match, deals, referee)
    client.force_login(referee)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    totals = Judge(make_rules("sport")).fold(deals).state.totals
    assert f'data-total="0">{totals["NS"]}<' in html
    assert f'data-total="1">{totals["EW"]}<' in html
    assert 'id="submit-link"' in html


def test_submit_then_the_submitter_cannot_confirm_but_the_chief_can(
    client, referee, chief, match, deals
) -> None:
    record_all(match, deals, referee)
    match.refresh_from_db()
    client.force_login(referee)
    response = client.post(f"/matches/{match.pk}/submit/", {"expected_version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED

    refused = client.post(f"/matches/{match.pk}/confirm/", {})
    assert refused.status_code == 403  # the service's refusal keeps its status on the page
    assert "не тем, кто его сдал" in refused.content.decode() or \
        "submitted" in refused.content.decode()
    client.force_login(chief)
    assert client.post(f"/matches/{match.pk}/confirm/", {}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_the_opposing_captain_confirms_with_the_pin_on_the_referees_phone(
    client, referee, match, deals
) -> None:
    record_all(match, deals, referee)
    services.submit(match.pk, referee)
    client.force_login(referee)
    wrong = client.post(f"/matches/{match.pk}/confirm/", {"pin": "0000"})
    assert wrong.status_code == 403  # as the API's wrong_pin
    assert client.post(f"/matches/{match.pk}/confirm/", {"pin": "2468"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.confirmed_with_pin


def test_correction_needs_the_chief_and_a_reason_and_keeps_history(
    client, referee, chief, match, deals
) -> None:
    import json

    record_all(match, deals, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    client.force_login(referee)
    assert client.get(f"/matches/{match.pk}/correct/").status_code == 403
    client.force_login(chief)
    page = client.get(f"/matches/{match.pk}/correct/").content.decode()
    assert "Причина" in page
    lines = "\n".join(json.dumps(d) for d in deals)
    match.refresh_from_db()
    no_reason = client.post(f"/matches/{match.pk}/correct/", {"deals": lines, "reason": ""})
    assert no_reason.status_code == 400
    response = client.post(f"/matches/{match.pk}/correct/", {
        "deals": lines, "reason": "Перепутаны кости", "expected_version": match.version})
    assert response.status_code == 302
    history = client.get(f"/matches/{match.pk}/history/").content.decode()
    assert "Перепутаны кости" in history
    assert MatchVersion.objects.filter(match=match, action="correct").count() == 1


def test_history_lists_every_change_with_who(client, referee, match, deals) -> None:
    services.record_deal(match.pk, deals[0], referee)
    html = client.get(f"/matches/{match.pk}/history/").content.decode()
    assert html.count("<li data-action") == 2
    assert "referee" in html


def test_new_standalone_match_from_the_form(client, referee, players) -> None:
    client.force_login(referee)
    response = client.post("/matches/new/", {
        "label": "Товарищеская", "table": "1", "rules_preset": "sport",
        "seat_N": players["N"].pk, "seat_E": players["E"].pk,
        "seat_S": players["S"].pk, "seat_W": players["W"].pk,
    })
    match = Match.objects.get(label="Товарищеская")
    assert response.status_code == 302 and response.headers["Location"] == f"/matches/{match.pk}/"
    assert match.referee == referee
    assert "Товарищеская" in client.get("/matches/").content.decode()


def test_sheet_page_queries_are_bounded(client, referee, match, deals,
                                        django_assert_max_num_queries) -> None:
    record_all(match, deals, referee)
    client.force_login(referee)
    with django_assert_max_num_queries(14):
        client.get(f"/matches/{match.pk}/")


def test_english_sheet(client, referee, match) -> None:
    client.force_login(referee)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    try:
        html = client.get(f"/matches/{match.pk}/").content.decode()
    finally:
        translation.activate("ru")  # the request left English active in this thread
    assert "Save the deal" in html and "domino" in html


def test_the_desk_issues_the_captains_pin_on_the_sheet_and_a_referee_cannot(
    match: Match, referee: Any, chief: Any, client: Any
) -> None:
    client.force_login(referee)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "pin-issue-form" not in page
    client.post(f"/matches/{match.pk}/pin/", {"pin": "9753"})
    match.refresh_from_db()
    assert match.pin_set_by == chief  # unchanged: the fixture's PIN, issued by the chief
    client.force_login(chief)
    assert "pin-issue-form" in client.get(f"/matches/{match.pk}/").content.decode()
    assert client.post(f"/matches/{match.pk}/pin/", {"pin": "9753"}).status_code == 302
    match.refresh_from_db()
    assert match.pin_failures == 0 and match.history.last().action == "set_pin"


def test_the_match_list_puts_what_needs_someone_first(client, chief, referee, deals) -> None:
    made = {}
    for label in ("confirmed", "draft", "in play", "submitted"):
        made[label] = services.create_match(user=chief, referee=referee, label=label)
    for label in ("confirmed", "in play", "submitted"):
        services.record_deal(made[label].pk, deals[0], referee)
    for label in ("confirmed", "submitted"):
        for deal in deals[1:]:
            services.record_deal(made[label].pk, deal, referee)
        services.submit(made[label].pk, referee)
    services.confirm(made["confirmed"].pk, chief)
    client.force_login(referee)
    html = client.get("/matches/").content.decode()
    # each label an event of its own (scoring.listing), the one that needs someone first
    order = re.findall(r'<h2 id="event-\d+">([^<]+)</h2>', html)
    assert order == ["submitted", "in play", "draft", "confirmed"]
