"""The pairing task on PostgreSQL with a live Celery worker: a round is paired exactly once even
when the task is sent again, and a pairing that cannot be made returns the round to ``new`` with
the error. The worker reads the test database, so these tests commit (``transaction=True``)."""

from __future__ import annotations

import time

import pytest

from scoring.models import Match
from tournaments import rounds
from tournaments.models import EntryAbsence, Pairing, PairingEntry, Round
from tournaments.rounds import pair_round

TIMEOUT = 60.0


def wait_for(round_id: int, *statuses: str) -> Round:
    started = time.monotonic()
    while time.monotonic() - started < TIMEOUT:
        round_ = Round.objects.get(pk=round_id)
        if round_.status in statuses:
            return round_
        time.sleep(0.2)
    pytest.fail(f"round {round_id} stayed {Round.objects.get(pk=round_id).status}")


@pytest.mark.django_db(transaction=True)
def test_a_round_is_paired_once_even_when_the_task_is_sent_three_times(
    require_postgres, require_worker, tournament, organiser, pairs
) -> None:
    entries = pairs(tournament, 9)
    round_ = rounds.start_pairing(organiser, tournament.pk)  # sent on commit
    results = [pair_round.apply_async(args=[round_.pk]) for _ in range(2)]
    assert wait_for(round_.pk, Round.Status.PAIRED, Round.Status.NEW).status == "paired"
    outcomes = sorted(r.get(timeout=TIMEOUT) for r in results)
    assert outcomes in (["skipped", "skipped"], ["paired", "skipped"])
    places = PairingEntry.objects.filter(round=round_)
    assert sorted(places.values_list("entry_id", flat=True)) == sorted(e.pk for e in entries)
    assert Pairing.objects.filter(round=round_, table__isnull=False).count() == 4
    assert places.filter(side="BYE").count() == 1
    assert Match.objects.count() == 4
    # and once more after the fact: nothing changes
    before = list(Pairing.objects.order_by("pk").values_list("pk", "table", "match_id"))
    assert pair_round.apply_async(args=[round_.pk]).get(timeout=TIMEOUT) == "skipped"
    assert list(Pairing.objects.order_by("pk").values_list("pk", "table", "match_id")) == before


@pytest.mark.django_db(transaction=True)
def test_a_failing_pairing_returns_the_round_to_new_with_the_error(
    require_postgres, require_worker, tournament, organiser, pairs
) -> None:
    first, second = pairs(tournament, 2)
    EntryAbsence.objects.create(entry=first, round_number=1)
    round_ = rounds.start_pairing(organiser, tournament.pk)
    failed = wait_for(round_.pk, Round.Status.NEW, Round.Status.PAIRED)
    assert failed.status == Round.Status.NEW
    assert failed.error == "Нужны хотя бы две заявки."
    assert (failed.step, failed.progress) == ("failed", 0)
    assert not Pairing.objects.exists() and not Match.objects.exists()
