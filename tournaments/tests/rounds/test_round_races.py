"""Nothing recorded at a table is lost when the organiser changes the table meanwhile.

On PostgreSQL, with real connections and row locks: in each try one thread records the table's
first deal over HTTP as its referee (``POST /api/v1/matches/{id}/deals/``) while another one
reassigns the table's referee, swaps two entries or pairs the round's unlocked tables again.
The deal is sent 0–57 ms after the organiser's request (3 ms more each try), so the tries sweep
every interleaving of the two. Whatever the order, every deal answered 201 is still in the
table's match afterwards with its history row, the table keeps its match, and nobody gets a 500
(or an exception, which the test client would raise instead). Each thread has its own
connection, so the tests commit for real (``transaction=True``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import services as scoring
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import sport_deals
from scoring.tests.test_concurrency import run_together
from tournaments import rounds
from tournaments.models import EntryAbsence, Pairing, PairingEntry, Round, Tournament
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.rounds.test_rounds import trivial_swiss  # noqa: F401 - autouse fixture

TRIES = 20
STEP = 0.003  # seconds the deal waits more in each try


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def staff(require_postgres: None, transactional_db: None) -> dict[str, Any]:
    return {"org": make_user("org_r", "Organiser"), "a": make_user("ref_a", "Referee"),
            "b": make_user("ref_b", "Referee")}  # fmt: skip


def paired_round(staff: dict[str, Any], n: int) -> tuple[Round, list[Pairing]]:
    """A new tournament with round 1 paired (two tables), table 1 refereed by ``a``."""
    tournament = Tournament.objects.create(name=f"Гонка {n}", rounds=3)
    tournament.organisers.add(staff["org"])
    add_pairs(tournament, 4)
    round_ = rounds.start_pairing(staff["org"], tournament.pk)  # the eager job runs on commit
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    rounds.assign_referee(staff["org"], round_.pairings.get(table=1).pk, staff["a"])
    return round_, list(round_.pairings.filter(table__isnull=False).order_by("table"))


def race(staff: dict[str, Any], n: int, match_id: int, key: uuid.UUID,
         organiser_request: Callable[[], Any]) -> list[Any]:  # fmt: skip
    """[the referee's answer, the organiser's answer] (or the exception each raised)."""

    def first_deal() -> Any:
        time.sleep((n % 20) * STEP)
        return client_of(staff["a"]).post(
            f"/api/v1/matches/{match_id}/deals/", sport_deals()[0], format="json",
            HTTP_IDEMPOTENCY_KEY=str(key),
        )  # fmt: skip

    return run_together([first_deal, organiser_request])


def problems_of(n: int, answers: list[Any], key: uuid.UUID, match_id: int) -> list[str]:
    """What the referee or the organiser would see go wrong in try ``n``: a 500, or a deal
    answered 201 that is not in the table's match with its history."""
    problems = []
    for answer in answers:
        if isinstance(answer, Exception):
            problems.append(f"try {n}: {type(answer).__name__}: {answer}")
        elif answer.status_code >= 500:
            problems.append(f"try {n}: {answer.status_code}")
    deal = answers[0]
    if not isinstance(deal, Exception) and deal.status_code == 201:
        stored = Deal.objects.filter(client_id=key).first()
        if stored is None:
            problems.append(f"try {n}: the deal was answered 201 and then vanished")
        elif stored.match_id != match_id or not MatchVersion.objects.filter(
            match_id=match_id, action=MatchVersion.Action.RECORD_DEAL
        ).exists():
            problems.append(f"try {n}: the deal moved or lost its history")
    return problems


def status(answer: Any) -> int | None:
    return None if isinstance(answer, Exception) else answer.status_code


@pytest.mark.django_db(transaction=True)
def test_reassigning_the_referee_while_the_first_deal_is_recorded_keeps_the_deal(staff) -> None:
    problems, stored = [], 0
    for n in range(TRIES):
        round_, tables = paired_round(staff, n)
        match_id, key = tables[0].match_id, uuid.uuid4()
        url = f"/api/v1/rounds/{round_.pk}/referee/"
        answers = race(staff, n, match_id, key, lambda url=url: client_of(staff["org"]).post(
            url, {"table": 1, "referee": staff["b"].pk}, format="json"))  # fmt: skip
        problems += problems_of(n, answers, key, match_id)
        # the reassignment goes through whichever came first, and the table keeps its match
        table = Pairing.objects.get(pk=tables[0].pk)
        if status(answers[1]) != 200 or table.match_id != match_id:
            problems.append(f"try {n}: reassignment {status(answers[1])}, match {table.match_id}")
        elif Match.objects.get(pk=match_id).referee_id != staff["b"].pk:
            problems.append(f"try {n}: the match kept the old referee")
        # the old referee, second, is refused as no longer the table's referee: 403, or 404 as
        # the round is not published and its match is now hidden from him (tournaments.access)
        if status(answers[0]) not in (201, 403, 404):
            problems.append(f"try {n}: the deal answered {status(answers[0])}")
        stored += status(answers[0]) == 201
    assert problems == []
    assert Match.objects.count() == 2 * TRIES  # none was deleted or re-created
    assert Deal.objects.count() == stored


@pytest.mark.django_db(transaction=True)
def test_swapping_entries_while_the_first_deal_is_recorded_keeps_the_deal(staff) -> None:
    problems, stored = [], 0
    for n in range(TRIES):
        round_, (table, other) = paired_round(staff, n)
        match_id, key = table.match_id, uuid.uuid4()
        ew = [p.entry_id for p in table.places.all() if p.side == "EW"]
        seats = Match.objects.get(pk=match_id).seat_player_ids()
        moving = [ew[0], next(p.entry_id for p in other.places.all() if p.side == "EW")]
        url = f"/api/v1/rounds/{round_.pk}/swap/"
        answers = race(staff, n, match_id, key, lambda url=url, moving=moving: client_of(
            staff["org"]).post(url, {"entries": moving}, format="json"))  # fmt: skip
        problems += problems_of(n, answers, key, match_id)
        table = Pairing.objects.get(pk=table.pk)
        now = Match.objects.filter(pk=match_id).first()
        if table.match_id != match_id or now is None:
            problems.append(f"try {n}: the table's match was replaced")
        elif status(answers[1]) == 200:
            # swapped first: the same match with its seats moved (and the deal after it)
            if now.seat_player_ids() == seats:
                problems.append(f"try {n}: swapped, but the match kept its seats")
        elif status(answers[1]) == 409:
            # the deal came first: the table cannot change any more, and nothing did
            if answers[1].json()["errors"][0]["code"] != "match_started":
                problems.append(f"try {n}: {answers[1].json()}")
            if now.seat_player_ids() != seats or status(answers[0]) != 201 or ew != [
                p.entry_id for p in table.places.all() if p.side == "EW"
            ]:
                problems.append(f"try {n}: refused, but something changed")
        stored += status(answers[0]) == 201
    assert problems == []
    assert Match.objects.count() == 2 * TRIES
    assert Deal.objects.count() == stored


@pytest.mark.django_db(transaction=True)
def test_pairing_the_round_again_while_the_first_deal_is_recorded_keeps_the_deal(staff) -> None:
    problems = []
    for n in range(TRIES):
        round_, tables = paired_round(staff, n)
        match_id, key = tables[0].match_id, uuid.uuid4()
        url = f"/api/v1/rounds/{round_.pk}/regenerate/"
        answers = race(staff, n, match_id, key,
                       lambda url=url: client_of(staff["org"]).post(url))  # fmt: skip
        problems += problems_of(n, answers, key, match_id)
        round_.refresh_from_db()
        if status(answers[0]) == 201:
            # the deal came first: nothing is paired again, and the refusal names the table
            if status(answers[1]) != 409:
                problems.append(f"try {n}: the deal stored, regeneration {status(answers[1])}")
            else:
                error = answers[1].json()["errors"][0]
                if error["code"] != "match_started" or "1" not in error["message"]:
                    problems.append(f"try {n}: {error}")
                if round_.status != Round.Status.PAIRED or not Match.objects.filter(
                    pk=match_id, pairing__round=round_
                ).exists():
                    problems.append(f"try {n}: refused, but the round changed")
        elif status(answers[0]) == 404:
            # paired again first: the old, blank match is gone, so the deal found no table
            if status(answers[1]) != 202 or round_.status != Round.Status.PAIRED:
                problems.append(f"try {n}: regeneration {status(answers[1])}, {round_.status}")
        else:
            problems.append(f"try {n}: the deal answered {status(answers[0])}")
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_reassigning_the_referee_of_a_table_being_corrected_neither_waits_nor_deadlocks(
    staff,
) -> None:
    """The correction holds the match and then locks the rounds (its snapshots); the
    reassignment holds the round and then would lock the match. A handed-in protocol is
    refused without its lock, so the two never wait for each other: no deadlock (which
    PostgreSQL would end by killing one of them, a 503)."""
    chief = make_user("chief_r", "Chief referee")
    deals = sport_deals()
    problems = []
    for n in range(TRIES):
        round_, tables = paired_round(staff, n)
        round_.tournament.chief_referees.add(chief)  # he corrects this event's protocols
        match_id = tables[0].match_id
        for deal in deals:
            scoring.record_deal(match_id, deal, staff["a"])
        scoring.submit(match_id, staff["a"])
        scoring.confirm(match_id, chief)
        rounds.publish(staff["org"], round_.pk)
        urls = (f"/api/v1/matches/{match_id}/corrections/",
                f"/api/v1/rounds/{round_.pk}/referee/")  # fmt: skip

        def correct(url: str = urls[0], n: int = n) -> Any:
            time.sleep((n % 10) * STEP)
            return client_of(chief).post(url, {"deals": deals, "reason": "опечатка"},
                                         format="json")  # fmt: skip

        def reassign(url: str = urls[1], n: int = n) -> Any:
            time.sleep((9 - n % 10) * STEP)
            return client_of(staff["org"]).post(url, {"table": 1, "referee": staff["b"].pk},
                                                format="json")  # fmt: skip

        answers = run_together([correct, reassign])
        statuses = [status(a) for a in answers]
        if statuses != [200, 409]:
            problems.append(f"try {n}: {statuses}")
        elif answers[1].json()["errors"][0]["code"] != "not_editable":
            problems.append(f"try {n}: {answers[1].json()}")
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_an_entry_marked_absent_while_the_round_is_paired_is_absent_or_refused(staff) -> None:
    """The organiser marks an entry absent for round 1 while round 1 is being paired: either
    the absence is refused (409, already paired) or the entry has no place in round 1."""
    problems = []
    for n in range(2 * TRIES):  # a narrow window: more tries, 1 ms apart
        tournament = Tournament.objects.create(name=f"Неявка {n}", rounds=3)
        tournament.organisers.add(staff["org"])
        entry = add_pairs(tournament, 4)[0]
        urls = (f"/api/v1/entries/{entry.pk}/absences/",
                f"/api/v1/tournaments/{tournament.pk}/rounds/")  # fmt: skip

        def absent(url: str = urls[0], n: int = n) -> Any:
            time.sleep((n % 20) * 0.001)
            return client_of(staff["org"]).post(url, {"round": 1, "reason": "болеет"},
                                                format="json")  # fmt: skip

        answers = run_together([absent, lambda url=urls[1]: client_of(staff["org"]).post(url)])
        statuses = [status(a) for a in answers]
        placed = PairingEntry.objects.filter(round__tournament=tournament, entry=entry).exists()
        marked = EntryAbsence.objects.filter(entry=entry, round_number=1).exists()
        if statuses[1] != 202 or statuses[0] not in (200, 201, 409):
            problems.append(f"try {n}: {statuses}")
        elif statuses[0] == 409 and (marked or not placed):
            problems.append(f"try {n}: refused, but marked {marked}, placed {placed}")
        elif statuses[0] != 409 and (placed or not marked):
            problems.append(f"try {n}: absent, but marked {marked}, placed {placed}")
    assert problems == []
