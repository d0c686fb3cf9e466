"""The scoring services: every path, including each refusal, and what it leaves in the database."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from rules import Judge, make_rules
from scoring import selectors, services
from scoring.errors import Conflict, DealRefused, NotAllowed, ScoringError
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import record_all

pytestmark = pytest.mark.django_db

#: a domino by E in which E still holds a tile: refused as finisher_has_tiles (seat E)
ILLEGAL = {"result": "domino", "by": "E", "hands": {"N": "1:1", "E": "2:2", "S": "3:3", "W": "4:4"}}


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def snapshot(match: Match) -> tuple[Any, ...]:
    m = fresh(match)
    return (
        m.version, m.status, m.totals, m.finished, list(m.deals.values_list("n", "record")),
        m.history.count(),
    )  # fmt: skip


def finished_and_submitted(match: Match, referee: User, deals: list[dict[str, Any]]) -> Match:
    record_all(match, referee, deals)
    return services.submit(match.pk, referee)


# --- create -----------------------------------------------------------------------------------


def test_create_copies_the_resolved_rules_and_writes_the_first_version(chief, referee, players):
    match = services.create_match(
        user=chief, rules_preset="sport", rules_options={"deals": 4}, seats=players,
        referee=referee,
    )  # fmt: skip
    assert match.status == Match.Status.DRAFT
    assert match.version == 1
    assert match.rules == make_rules("sport", {"deals": 4}).to_dict()
    assert match.totals == {"NS": 0, "EW": 0}
    assert match.next_leader == "N"
    assert match.seat_player_ids() == {seat: players[seat].pk for seat in "NESW"}
    [row] = match.history.all()
    assert (row.version, row.action, row.user) == (1, "create", chief)


def test_referee_who_creates_a_match_referees_it(referee):
    match = services.create_match(user=referee)
    assert match.referee == referee


def test_referee_cannot_assign_another_referee(referee, other_referee):
    with pytest.raises(NotAllowed):
        services.create_match(user=referee, referee=other_referee)
    assert not Match.objects.exists()


@pytest.mark.parametrize("who", ["stranger", "anonymous"])
def test_users_without_a_role_cannot_create_matches(who, stranger):
    user = stranger if who == "stranger" else AnonymousUser()
    with pytest.raises(NotAllowed):
        services.create_match(user=user)


@pytest.mark.parametrize(
    ("preset", "options", "field"),
    [("nope", {}, "rules_preset"), ("sport", {"deals": 6}, "rules_options"),
     ("sport", {"colour": 1}, "rules_options")],
)  # fmt: skip
def test_rules_the_engine_refuses_are_refused_with_the_field(chief, preset, options, field):
    with pytest.raises(ScoringError) as caught:
        services.create_match(user=chief, rules_preset=preset, rules_options=options)
    assert caught.value.codes == ["bad_option"]
    assert caught.value.errors[0]["field"] == field
    assert not Match.objects.exists()


def test_seats_are_checked(chief, players):
    with pytest.raises(ScoringError) as caught:
        services.create_match(
            user=chief, rules_preset="kozel", players=3, seats={"W": players["W"]}
        )
    assert caught.value.codes == ["seat_not_in_play"]
    with pytest.raises(ScoringError) as caught:
        services.create_match(user=chief, seats={"N": players["N"], "S": players["N"]})
    assert caught.value.codes == ["duplicate_player"]
    with pytest.raises(ScoringError) as caught:
        services.create_match(user=chief, seats={"N": 999999})
    assert caught.value.codes == ["unknown_player"]
    assert not Match.objects.exists()


def test_three_player_kozel_has_a_side_per_seat(chief, players):
    match = services.create_match(
        user=chief, rules_preset="kozel", players=3,
        seats={"N": players["N"], "E": players["E"], "S": players["S"]},
    )  # fmt: skip
    data = selectors.match_data(selectors.get_match(match.pk))
    assert data["sides"] == {"N": ["N"], "E": ["E"], "S": ["S"]}
    assert set(data["seats"]) == {"N", "E", "S"}


# --- record, preview --------------------------------------------------------------------------


def test_record_deal_stores_the_record_and_the_engines_verdict(match, referee, deals):
    preview = services.preview_deal(match.pk, deals[0])
    recorded = services.record_deal(match.pk, deals[0], referee)
    assert recorded.created
    deal = recorded.deal
    assert (deal.n, deal.record, deal.verdict) == (1, deals[0], preview.to_dict())
    m = fresh(match)
    assert m.status == Match.Status.IN_PLAY
    assert m.version == 2 == deal.match_version
    assert m.totals == preview.totals
    row = m.history.get(version=2)
    assert (row.action, row.user, row.after["n"]) == ("record_deal", referee, 1)


def test_preview_writes_nothing(match, referee, deals):
    before = snapshot(match)
    verdict = services.preview_deal(match.pk, deals[0])
    assert verdict.ok
    assert snapshot(match) == before


def test_illegal_deal_changes_nothing_and_names_the_seat(match, referee, deals):
    services.record_deal(match.pk, deals[0], referee)
    before = snapshot(match)
    with pytest.raises(DealRefused) as caught:
        services.record_deal(match.pk, ILLEGAL, referee, client_id=uuid.uuid4())
    [err] = caught.value.errors
    assert (err["code"], err["field"], err["seat"]) == ("finisher_has_tiles", "E", "E")
    assert "E" in err["message"]
    assert snapshot(match) == before


def test_a_full_match_leaves_the_totals_of_the_engines_fold(match, referee, deals):
    m = record_all(match, referee, deals)
    fold = Judge(make_rules("sport")).fold(deals)
    assert fold.ok
    assert m.totals == fold.state.totals
    assert (m.finished, m.end, m.winner) == (True, fold.state.end, fold.state.winner)
    assert [d.verdict for d in m.deals.order_by("n")] == [d.to_dict() for d in fold.deals]
    assert m.version == 1 + len(deals)


def test_deal_after_the_end_is_refused_by_the_engine(match, referee, deals):
    record_all(match, referee, deals)
    with pytest.raises(DealRefused) as caught:
        services.record_deal(match.pk, deals[0], referee)
    assert caught.value.codes == ["deal_after_end"]


def test_a_retried_client_id_returns_the_stored_deal(match, referee, deals):
    key = uuid.uuid4()
    first = services.record_deal(match.pk, deals[0], referee, client_id=key, expected_version=1)
    again = services.record_deal(match.pk, deals[0], referee, client_id=str(key),
                                 expected_version=1)  # fmt: skip
    assert first.created and not again.created
    assert again.deal.pk == first.deal.pk
    assert Deal.objects.filter(match=match).count() == 1
    assert fresh(match).version == 2


def test_stale_version_is_a_conflict_and_stores_nothing(match, referee, deals):
    services.record_deal(match.pk, deals[0], referee, expected_version=1)
    before = snapshot(match)
    with pytest.raises(Conflict) as caught:
        services.record_deal(match.pk, deals[1], referee, expected_version=1)
    assert caught.value.codes == ["stale_version"]
    assert caught.value.match.version == 2
    assert snapshot(match) == before


def test_only_the_assigned_referee_or_the_desk_records(match, other_referee, organiser, deals):
    with pytest.raises(NotAllowed):
        services.record_deal(match.pk, deals[0], other_referee)
    with pytest.raises(NotAllowed):
        services.record_deal(match.pk, deals[0], AnonymousUser())
    assert not match.deals.exists()
    assert services.record_deal(match.pk, deals[0], organiser).created


def test_bad_client_id_is_refused(match, referee, deals):
    with pytest.raises(ScoringError) as caught:
        services.record_deal(match.pk, deals[0], referee, client_id="not-a-uuid")
    assert caught.value.codes == ["bad_client_id"]


def test_missing_match_raises_does_not_exist(referee, deals):
    with pytest.raises(Match.DoesNotExist):
        services.record_deal(999999, deals[0], referee)


# --- amend, delete ----------------------------------------------------------------------------


def test_amend_last_deal_rejudges_it(match, referee, deals):
    services.record_deal(match.pk, deals[0], referee)
    wrong = {**deals[1], "declared": {"NS": 1, "EW": 1}}
    with pytest.raises(DealRefused) as caught:
        services.record_deal(match.pk, wrong, referee)
    assert caught.value.codes == ["declared_mismatch"]
    without = {k: v for k, v in deals[1].items() if k != "declared"}
    services.record_deal(match.pk, without, referee)
    amended = services.amend_last_deal(match.pk, deals[1], referee, n=2, expected_version=3)
    assert amended.record == deals[1]
    m = fresh(match)
    assert m.version == 4 == amended.match_version
    assert m.totals == Judge(make_rules("sport")).fold(deals[:2]).state.totals
    row = m.history.get(version=4)
    assert row.action == "amend_deal"
    assert row.before["record"] == without and row.after["record"] == deals[1]


def test_refused_amendment_changes_nothing(match, referee, deals):
    services.record_deal(match.pk, deals[0], referee)
    before = snapshot(match)
    with pytest.raises(DealRefused):
        services.amend_last_deal(match.pk, ILLEGAL, referee)
    assert snapshot(match) == before


def test_only_the_last_deal_can_be_amended_or_deleted(match, referee, deals):
    with pytest.raises(ScoringError) as caught:
        services.delete_last_deal(match.pk, referee)
    assert caught.value.codes == ["no_deals"]
    record_all(match, referee, deals[:2])
    with pytest.raises(ScoringError) as caught:
        services.amend_last_deal(match.pk, deals[0], referee, n=1)
    assert caught.value.codes == ["not_last_deal"]
    with pytest.raises(ScoringError) as caught:
        services.delete_last_deal(match.pk, referee, n=1)
    assert caught.value.codes == ["not_last_deal"]


def test_delete_last_deal_recomputes_and_returns_to_draft_when_empty(match, referee, deals):
    record_all(match, referee, deals[:2])
    m = services.delete_last_deal(match.pk, referee, n=2)
    assert m.totals == Judge(make_rules("sport")).fold(deals[:1]).state.totals
    assert m.status == Match.Status.IN_PLAY
    m = services.delete_last_deal(match.pk, referee)
    assert (m.status, m.totals, m.next_leader) == (Match.Status.DRAFT, {"NS": 0, "EW": 0}, "N")
    assert [r.action for r in m.history.order_by("version")][-2:] == ["delete_deal"] * 2
    assert m.history.last().before["n"] == 1


# --- submit -----------------------------------------------------------------------------------


def test_an_unfinished_match_cannot_be_submitted(match, referee, deals):
    record_all(match, referee, deals[:3])
    with pytest.raises(ScoringError) as caught:
        services.submit(match.pk, referee)
    assert caught.value.codes == ["not_finished"]
    assert fresh(match).status == Match.Status.IN_PLAY


def test_after_submission_deals_cannot_change(match, referee, chief, deals):
    finished_and_submitted(match, referee, deals)
    before = snapshot(match)
    for call in (
        lambda: services.record_deal(match.pk, deals[0], referee),
        lambda: services.amend_last_deal(match.pk, deals[-1], chief),
        lambda: services.delete_last_deal(match.pk, chief),
        lambda: services.submit(match.pk, referee),
    ):
        with pytest.raises(Conflict) as caught:
            call()
        assert caught.value.codes == ["not_editable"]
    assert snapshot(match) == before


def test_submit_records_who(referee, deals):
    match = services.create_match(user=referee)
    record_all(match, referee, deals)
    m = services.submit(match.pk, referee)
    assert (m.status, m.submitted_by) == (Match.Status.SUBMITTED, referee)
    assert m.history.last().action == "submit"


def test_only_the_desk_issues_the_captains_pin(chief, referee, deals):
    with pytest.raises(NotAllowed) as caught:
        services.create_match(user=referee, confirm_pin="8642")
    assert caught.value.codes == ["pin_desk_only"]
    match = services.create_match(user=referee)
    with pytest.raises(NotAllowed) as caught:
        services.set_confirm_pin(match.pk, referee, "8642")
    assert caught.value.codes == ["pin_desk_only"] and not fresh(match).confirm_pin
    with pytest.raises(ScoringError) as caught:
        services.set_confirm_pin(match.pk, chief, "12")
    assert caught.value.codes == ["bad_pin"]
    m = services.set_confirm_pin(match.pk, chief, "8642")
    assert m.confirm_pin and "8642" not in m.confirm_pin and m.pin_set_by == chief
    assert m.history.last().action == "set_pin"
    record_all(match, referee, deals)
    services.submit(match.pk, referee)
    assert services.confirm(match.pk, referee, pin="8642").status == Match.Status.CONFIRMED


def test_a_pin_issued_by_the_submitter_cannot_confirm_their_protocol(chief, deals):
    match = services.create_match(user=chief, referee=chief, confirm_pin="8642")
    record_all(match, chief, deals)
    services.submit(match.pk, chief)
    with pytest.raises(NotAllowed) as caught:
        services.confirm(match.pk, chief, pin="8642")
    assert caught.value.codes == ["pin_unavailable"]
    assert fresh(match).status == Match.Status.SUBMITTED


# --- confirm ----------------------------------------------------------------------------------


def test_the_submitter_cannot_confirm(match, referee, chief, deals):
    finished_and_submitted(match, referee, deals)
    with pytest.raises(NotAllowed) as caught:
        services.confirm(match.pk, referee)
    assert caught.value.codes == ["submitter_cannot_confirm"]
    assert fresh(match).status == Match.Status.SUBMITTED


def test_a_chief_referee_who_submitted_cannot_confirm_either(match, chief, deals):
    record_all(match, chief, deals)
    services.submit(match.pk, chief)
    with pytest.raises(NotAllowed) as caught:
        services.confirm(match.pk, chief)
    assert caught.value.codes == ["submitter_cannot_confirm"]


def test_someone_without_the_desk_role_or_pin_cannot_confirm(match, referee, other_referee, deals):
    finished_and_submitted(match, referee, deals)
    with pytest.raises(NotAllowed) as caught:
        services.confirm(match.pk, other_referee)
    assert caught.value.codes == ["not_allowed"]
    with pytest.raises(NotAllowed):
        services.confirm(match.pk, AnonymousUser(), pin="2468")


def test_chief_referee_confirms_and_the_protocol_is_kept(match, referee, chief, deals):
    finished_and_submitted(match, referee, deals)
    m = services.confirm(match.pk, chief)
    assert (m.status, m.confirmed_by, m.confirmed_with_pin) == ("confirmed", chief, False)
    row = m.history.get(confirmed=True)
    assert row.action == "confirm" and row.user == chief
    assert row.protocol["deals"] == deals
    assert row.protocol["totals"] == m.totals


def test_only_a_submitted_protocol_can_be_confirmed(match, referee, chief, deals):
    with pytest.raises(Conflict) as caught:
        services.confirm(match.pk, chief)
    assert caught.value.codes == ["not_submitted"]


def test_the_opposing_captain_confirms_with_the_pin_on_the_referees_phone(match, referee, deals):
    finished_and_submitted(match, referee, deals)
    m = services.confirm(match.pk, referee, pin="2468")
    assert (m.status, m.confirmed_with_pin) == ("confirmed", True)
    assert m.history.get(confirmed=True).after == {"status": "confirmed", "with_pin": True}


def test_a_wrong_pin_is_refused_and_counted_until_pins_are_locked(match, referee, deals):
    finished_and_submitted(match, referee, deals)
    for attempt in range(1, services.MAX_PIN_FAILURES + 1):
        with pytest.raises(NotAllowed) as caught:
            services.confirm(match.pk, referee, pin="0000")
        assert caught.value.codes == ["wrong_pin"]
        assert fresh(match).pin_failures == attempt
    with pytest.raises(NotAllowed) as caught:
        services.confirm(match.pk, referee, pin="2468")  # the right one, too late
    assert caught.value.codes == ["pin_unavailable"]
    m = fresh(match)
    assert m.status == Match.Status.SUBMITTED
    assert not m.history.filter(confirmed=True).exists()


def test_pin_confirmation_needs_a_pin_set(referee, deals):
    match = services.create_match(user=referee)
    finished_and_submitted(match, referee, deals)
    with pytest.raises(NotAllowed) as caught:
        services.confirm(match.pk, referee, pin="1234")
    assert caught.value.codes == ["pin_unavailable"]


# --- correct ----------------------------------------------------------------------------------


@pytest.fixture
def confirmed(match: Match, referee: User, chief: User, deals: list[dict[str, Any]]) -> Match:
    finished_and_submitted(match, referee, deals)
    return services.confirm(match.pk, chief)


def corrected_deals(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same match with the referee's announcements left out of the last deal."""
    return [*deals[:-1], {k: v for k, v in deals[-1].items() if k != "declared"}]


def test_correction_replaces_the_deals_and_keeps_the_previous_version(confirmed, chief, deals):
    new = corrected_deals(deals)
    m = services.correct(confirmed.pk, chief, new, "  declared amounts were not announced ")
    assert [d.record for d in m.deals.order_by("n")] == new
    assert m.totals == Judge(make_rules("sport")).fold(new).state.totals
    assert m.status == Match.Status.CONFIRMED
    old, current = m.history.filter(action__in=["confirm", "correct"]).order_by("version")
    assert (old.confirmed, old.protocol["deals"]) == (False, deals)
    assert (current.confirmed, current.protocol["deals"]) == (True, new)
    assert current.reason == "declared amounts were not announced"
    assert current.before["deals"] == deals and current.after["deals"] == new
    assert m.history.filter(confirmed=True).count() == 1


def test_correction_needs_a_reason(confirmed, chief, deals):
    before = snapshot(confirmed)
    with pytest.raises(ScoringError) as caught:
        services.correct(confirmed.pk, chief, corrected_deals(deals), "   ")
    assert (caught.value.codes, caught.value.errors[0]["field"]) == (["reason_required"], "reason")
    assert snapshot(confirmed) == before


@pytest.mark.parametrize("who", ["referee", "organiser"])
def test_only_a_chief_referee_corrects(confirmed, who, request, deals):
    user = request.getfixturevalue(who)
    with pytest.raises(NotAllowed) as caught:
        services.correct(confirmed.pk, user, corrected_deals(deals), "why not")
    assert caught.value.codes == ["not_chief_referee"]


def test_correction_with_an_illegal_deal_changes_nothing(confirmed, chief, deals):
    before = snapshot(confirmed)
    bad = [deals[0], ILLEGAL, *deals[2:]]
    with pytest.raises(DealRefused) as caught:
        services.correct(confirmed.pk, chief, bad, "typo")
    assert caught.value.errors[0]["field"] == "deals.1.E"
    assert snapshot(confirmed) == before
    assert MatchVersion.objects.get(match=confirmed, confirmed=True).action == "confirm"


def test_only_a_confirmed_protocol_is_corrected(match, chief, deals):
    with pytest.raises(Conflict) as caught:
        services.correct(match.pk, chief, deals, "early")
    assert caught.value.codes == ["not_confirmed"]


def test_a_correction_against_a_stale_version_is_a_conflict(confirmed, chief, deals):
    with pytest.raises(Conflict):
        services.correct(confirmed.pk, chief, deals, "x", expected_version=confirmed.version - 1)


def test_history_lists_every_change_in_order(confirmed, chief, deals):
    services.correct(confirmed.pk, chief, corrected_deals(deals), "typo")
    actions = [row.action for row in selectors.history(confirmed.pk)]
    assert actions == ["create"] + ["record_deal"] * len(deals) + ["submit", "confirm", "correct"]
    assert [row.version for row in selectors.history(confirmed.pk)] == list(
        range(1, len(actions) + 1)
    )


def _won_by_engine(records: list[dict[str, Any]]) -> dict[str, int]:
    won: dict[str, int] = {}
    for verdict in Judge(make_rules("sport")).fold(records).deals:
        if verdict.ok and verdict.winner:
            won[verdict.winner] = won.get(verdict.winner, 0) + 1
    return won


def test_deals_won_per_side_follow_every_change_of_the_deals(match, referee, chief, deals):
    for n, deal in enumerate(deals, start=1):
        services.record_deal(match.pk, deal, referee)
        assert fresh(match).deals_won == _won_by_engine(deals[:n])
    assert sum(fresh(match).deals_won.values()) >= 1
    services.delete_last_deal(match.pk, referee)
    assert fresh(match).deals_won == _won_by_engine(deals[:-1])
    services.record_deal(match.pk, deals[-1], referee)
    services.amend_last_deal(match.pk, deals[-1], referee)
    assert fresh(match).deals_won == _won_by_engine(deals)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    shorter = corrected_deals(deals)
    services.correct(match.pk, chief, shorter, "announcements dropped")
    assert fresh(match).deals_won == _won_by_engine(shorter)
    assert selectors.match_data(fresh(match))["deals_won"] == _won_by_engine(shorter)
