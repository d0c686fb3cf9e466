"""The pairing job against a dying worker and a missing broker.

* A worker killed (SIGKILL) inside the pairing task's writing transaction: nothing of the round
  is committed; once a worker runs again the message is delivered again (``acks_late``, the
  broker's visibility timeout) and the round is paired exactly once; a further delivery of the
  same task finds it paired and writes nothing.
* The broker unreachable when the organiser asks for the pairing: a 503 with the code
  ``queue_unavailable`` and ``Retry-After``, and the round back in ``new`` with the reason, so
  the organiser can ask again.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from django.db import connection

from accounts import roles
from scoring.models import Match
from tests_faults.conftest import Processes, tasks_to, wait_for
from tournaments.models import Pairing, PairingEntry, Round, Tournament
from tournaments.tests.conftest import add_pairs, make_user

PAIRS = 24
VISIBILITY = 3  # seconds before an unacknowledged message is handed out again


def tournament_of(pairs: int) -> tuple[Any, Tournament]:
    organiser = make_user("fault-organiser", roles.ORGANISER)
    tournament = Tournament.objects.create(name="Сбой", rounds=3, public=True)
    tournament.organisers.add(organiser)
    add_pairs(tournament, pairs)
    return organiser, tournament


def idle_in_transaction() -> bool:
    """The worker sits inside its writing transaction (every table inserted, not committed)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND state = 'idle in transaction' AND pid <> pg_backend_pid()"
        )
        return bool(cursor.fetchone()[0])


def assert_paired_once(round_: Round, pairs: int) -> None:
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, (round_.status, round_.error)
    tables = Pairing.objects.filter(round=round_, table__isnull=False)
    assert tables.count() == pairs // 2
    assert sorted(tables.values_list("table", flat=True)) == list(range(1, pairs // 2 + 1))
    matches = Match.objects.filter(pairing__round=round_)
    assert matches.count() == pairs // 2
    # no orphan matches of an aborted attempt: every match of the tournament has its table
    assert Match.objects.count() == pairs // 2
    places = Counter(PairingEntry.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert len(places) == pairs and set(places.values()) == {1}


def test_worker_killed_mid_pairing_pairs_the_round_exactly_once(
    fault_services: Processes,
) -> None:
    from tournaments import rounds
    from tournaments.rounds.tasks import pair_round

    organiser, tournament = tournament_of(PAIRS)
    queue = f"faults-{tournament.pk}-{id(fault_services)}"
    # The first worker stops inside the writing transaction, where it is killed.
    doomed = fault_services.worker(queue, PAIRING_FAULT_TEST_PAUSE="60",
                                   CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY))  # fmt: skip
    with tasks_to(queue):
        round_ = rounds.start_pairing(organiser, tournament.pk)

        def writing() -> bool:
            if not doomed.alive():
                pytest.fail(f"the worker exited:\n{doomed.log()}")
            round_.refresh_from_db()
            return round_.step == "writing" and idle_in_transaction()

        wait_for(writing, 60, "the task to be inside its writing transaction")
        doomed.kill()
        round_.refresh_from_db()
        assert round_.status == Round.Status.PAIRING
        # the killed transaction left nothing behind
        wait_for(lambda: not idle_in_transaction(), 30, "PostgreSQL to end the dead session")
        assert not Pairing.objects.filter(round=round_).exists()
        assert not Match.objects.exists()

        # A worker comes back (as systemd or the orchestrator restarts it). A starting worker
        # hands out again the unacknowledged messages older than the visibility timeout (3 s
        # here, 300 s in production); a running one sweeps for them every ~100 s.
        time.sleep(VISIBILITY + 1)
        fault_services.worker(queue, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY))
        wait_for(lambda: Round.objects.get(pk=round_.pk).status != Round.Status.PAIRING, 90,
                 "the restarted worker to pair the round", step=0.3)  # fmt: skip
        assert_paired_once(round_, PAIRS)
        assert "Task tournaments.pair_round" in doomed.log()

        # The same task delivered once more (a second worker, a duplicate message): nothing new.
        outcome = pair_round.apply_async(args=[round_.pk], queue=queue).get(timeout=60)
        assert outcome == "skipped"
        assert_paired_once(round_, PAIRS)


def test_broker_down_answers_503_and_the_round_stays_new(fault_services: Processes) -> None:
    import httpx

    from accounts.tokens import issue

    organiser, tournament = tournament_of(8)
    _, token = issue(organiser)
    # Nothing listens on this port: the app cannot hand the job to a broker.
    with __import__("socket").socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    url = fault_services.app(CELERY_BROKER_URL=f"redis://127.0.0.1:{closed}/0")
    api = httpx.Client(base_url=f"{url}/api/v1", timeout=60,
                       headers={"Authorization": f"Token {token}"})  # fmt: skip

    answer = api.post(f"/tournaments/{tournament.pk}/rounds/")
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert [e["code"] for e in answer.json()["errors"]] == ["queue_unavailable"]
    assert int(answer.headers["Retry-After"]) > 0
    round_ = Round.objects.get(tournament=tournament)
    assert round_.status == Round.Status.NEW
    assert round_.error and round_.step == "failed"
    assert not Pairing.objects.filter(round=round_).exists()

    # The organiser may ask again at once: the same round, refused the same way, not stuck.
    again = api.post(f"/tournaments/{tournament.pk}/rounds/")
    assert again.status_code == 503
    assert list(Round.objects.filter(tournament=tournament).values_list("number", "status")) == [
        (1, Round.Status.NEW)
    ]
