"""The standings snapshot of a finished round always counts every confirmed correction, even one
made while the round is being finished (PostgreSQL, real connections and row locks).

In each try a round's tables are all confirmed with real protocols; one thread corrects table
1 (the chief referee replaces its deals with a match the other side wins) while another one
finishes the round (its snapshot taken), the finish from 20 ms before the correction to 25 ms
after it (5 ms more each try, so the tries sweep the interleavings). Afterwards the snapshot,
the one pairing and the public pages read, must be the standings computed from the protocols
as they are, and the public standings of the round must show the corrected result. The same
for a later round's snapshot, which counts the corrected round too, and for a sanction
recorded while the round is finished.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuditEntry
from rules import Judge, make_rules
from rules.simulate import play_match
from scoring import services as scoring
from scoring.tests.test_concurrency import run_together
from tournaments import discipline, rounds
from tournaments.models import Round, Standing, Tournament
from tournaments.results.ledger import load
from tournaments.results.tables import entry_rows, row_dict
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.rounds.test_rounds import trivial_swiss  # noqa: F401 - autouse fixture

TRIES = 10
STEP = 0.005


def simulated(seed: int) -> tuple[list[dict[str, Any]], str]:
    deals = play_match(make_rules("sport"), random.Random(seed), style="tiles", declare=True)
    return deals, Judge(make_rules("sport")).fold(deals).state.winner or ""


def simulated_winner(deals: list[dict[str, Any]]) -> str:
    return Judge(make_rules("sport")).fold(deals).state.winner or ""


def two_matches() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two legal sports matches with different winners: played, then the correction."""
    played, winner = simulated(0)
    seed = next(s for s in range(1, 100) if simulated(s)[1] not in ("", winner))
    return played, simulated(seed)[0]


@pytest.fixture
def staff(require_postgres: None, transactional_db: None) -> dict[str, Any]:
    played, corrected = two_matches()
    return {"org": make_user("org_s", "Organiser"), "chief": make_user("chief_s", "Chief referee"),
            "played": played, "corrected": corrected}  # fmt: skip


def confirmed_round(staff: dict[str, Any], tournament: Tournament) -> Round:
    """The next round paired and published, every table confirmed with the same protocol."""
    tournament.chief_referees.add(staff["chief"])  # the chief judges (and corrects) this event
    round_ = rounds.start_pairing(staff["org"], tournament.pk)  # the eager job runs on commit
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    for table in round_.pairings.filter(table__isnull=False):
        for deal in staff["played"]:
            scoring.record_deal(table.match_id, deal, staff["chief"])
        scoring.submit(table.match_id, staff["chief"])
        scoring.confirm(table.match_id, staff["org"])
    return rounds.publish(staff["org"], round_.pk)


def new_tournament(staff: dict[str, Any], n: int) -> Tournament:
    tournament = Tournament.objects.create(name=f"Гонка {n}", rounds=3, public=True)
    tournament.organisers.add(staff["org"])
    add_pairs(tournament, 4)
    return tournament


def stale(round_: Round) -> list[str]:
    """How the stored snapshot of ``round_`` differs from the standings computed now."""
    expected = {row.participant: row_dict(row)
                for row in entry_rows(load(round_.tournament, round_.number))}  # fmt: skip
    stored = {s.entry_id: s.metrics for s in
              Standing.objects.filter(round=round_, scope=Standing.Scope.ENTRIES)}  # fmt: skip
    return [f"entry {pk}: {stored.get(pk)} != {row}" for pk, row in expected.items()
            if stored.get(pk) != row]  # fmt: skip


def race(n: int, change: Callable[[], Any], finish: Callable[[], Any]) -> list[Any]:
    """``change`` and ``finish`` at once, one of them ``STEP`` × (n % 10 − 4) later: the
    finish first in the first tries, the change in the last ones."""
    offset = (n % 10 - 4) * STEP

    def delayed(call: Callable[[], Any], wait: float) -> Callable[[], Any]:
        return lambda: (time.sleep(max(wait, 0)), call())[1]

    answers = run_together([delayed(change, -offset), delayed(finish, offset)])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    return answers


@pytest.mark.django_db(transaction=True)
def test_a_correction_made_while_the_round_is_finished_is_in_its_snapshot(staff) -> None:
    problems = []
    for n in range(TRIES):
        tournament = new_tournament(staff, n)
        round_ = confirmed_round(staff, tournament)
        table1 = round_.pairings.get(table=1)
        race(n, partial(scoring.correct, table1.match_id, staff["chief"], staff["corrected"],
                        "перепутаны стороны"),
             partial(rounds.finish_round, staff["org"], round_.pk))  # fmt: skip
        round_.refresh_from_db()
        assert round_.status == Round.Status.FINISHED
        problems += [f"try {n}: {p}" for p in stale(round_)]
        # what a visitor sees: the round's standings count table 1 as corrected
        shown = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/?round=1")
        points = {row["entry"]["id"]: row["match_points"] for row in shown.json()["rows"]}
        ns = table1.places.get(side="NS", position=0).entry_id
        corrected_winner = simulated_winner(staff["corrected"])
        if (points[ns] > 0) != (corrected_winner == "NS"):
            problems.append(f"try {n}: the public standings show table 1 uncorrected")
    assert problems == []



@pytest.mark.django_db(transaction=True)
def test_a_correction_of_an_earlier_round_is_in_the_snapshot_of_a_round_finished_meanwhile(
    staff,
) -> None:
    problems = []
    for n in range(TRIES):
        tournament = new_tournament(staff, n)
        first = confirmed_round(staff, tournament)
        rounds.finish_round(staff["org"], first.pk)
        second = confirmed_round(staff, tournament)
        table1 = first.pairings.get(table=1)
        race(n, partial(scoring.correct, table1.match_id, staff["chief"], staff["corrected"],
                        "перепутаны стороны"),
             partial(rounds.finish_round, staff["org"], second.pk))  # fmt: skip
        problems += [f"try {n}, round 1: {p}" for p in stale(first)]
        problems += [f"try {n}, round 2: {p}" for p in stale(second)]
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_a_sanction_recorded_while_the_round_is_finished_is_in_its_snapshot(staff) -> None:
    problems = []
    for n in range(TRIES):
        tournament = new_tournament(staff, n)
        round_ = confirmed_round(staff, tournament)
        entry = round_.places.order_by("pk").first().entry_id
        race(n, partial(discipline.record_sanction, staff["chief"], tournament.pk,
                        entry_id=entry, round_number=1, kind="deduction", match_points=1,
                        reason="опоздание"),
             partial(rounds.finish_round, staff["org"], round_.pk))  # fmt: skip
        problems += [f"try {n}: {p}" for p in stale(round_)]
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_a_round_finished_twice_at_once_is_finished_and_logged_once(staff) -> None:
    """Two organisers press "Finish round" at once: both answers show it finished, one audit
    entry says so (the status read for the log was not under the round's lock)."""
    problems = []
    for n in range(TRIES):
        tournament = new_tournament(staff, n)
        round_ = confirmed_round(staff, tournament)
        finish = partial(rounds.finish_round, staff["org"], round_.pk)
        answers = run_together([finish, finish])
        if [getattr(a, "status", a) for a in answers] != [Round.Status.FINISHED] * 2:
            problems.append(f"try {n}: {answers}")
        logged = AuditEntry.objects.filter(tournament_id=tournament.pk, action="round.finish")
        if logged.count() != 1:
            problems.append(f"try {n}: {logged.count()} audit entries")
    assert problems == []
