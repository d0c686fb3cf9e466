"""Nothing lost under concurrency, on PostgreSQL with real connections and row locks.

Each thread has its own database connection (Django gives one per thread), so these tests commit
for real: ``transaction=True``. The last test also runs on SQLite: the one-confirmed-version rule
is a partial unique index in both databases.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction

from rules import Judge, make_rules
from scoring import services
from scoring.errors import Conflict
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import make_user, sport_deals


def run_together(workers: list[Callable[[], Any]]) -> list[Any]:
    """Start every worker at once (a barrier) and return each one's result or exception."""
    barrier = threading.Barrier(len(workers))
    results: list[Any] = [None] * len(workers)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = workers[i]()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def setup(require_postgres: None) -> tuple[Match, User]:
    referee = make_user("referee_c", "Referee")
    return services.create_match(user=referee), referee


def pips_deal(by: str) -> dict[str, Any]:
    """A pip-only domino, legal as any deal of the match (no leader written)."""
    others = [s for s in "NESW" if s != by]
    return {"result": "domino", "by": by, "pips": dict(zip(others, (10, 5, 3), strict=True))}


@pytest.mark.django_db(transaction=True)
def test_deals_added_at_once_are_each_stored_once_in_order(setup):
    match, referee = setup
    records = [pips_deal(by) for by in "NESWNE"]
    results = run_together(
        [lambda r=r: services.record_deal(match.pk, r, referee) for r in records]
    )
    assert all(isinstance(r, services.RecordedDeal) for r in results), results
    stored = list(Deal.objects.filter(match=match).order_by("n"))
    assert [d.n for d in stored] == [1, 2, 3, 4, 5, 6]
    assert sorted(d.record["by"] for d in stored) == sorted("NESWNE")
    m = Match.objects.get(pk=match.pk)
    fold = Judge(make_rules("sport")).fold([d.record for d in stored])
    assert [d.verdict for d in stored] == [v.to_dict() for v in fold.deals]
    assert m.totals == fold.state.totals
    assert m.version == 7
    assert list(m.history.values_list("version", flat=True)) == list(range(1, 8))


@pytest.mark.django_db(transaction=True)
def test_two_devices_syncing_the_same_deals_store_each_once_in_order(setup):
    match, referee = setup
    deals = sport_deals()
    keys = [uuid.uuid4() for _ in deals]

    def device() -> int:
        created = 0
        for deal, key in zip(deals, keys, strict=True):
            created += services.record_deal(match.pk, deal, referee, client_id=key).created
        return created

    results = run_together([device, device])
    assert all(isinstance(r, int) for r in results), results
    assert sum(results) == len(deals)
    stored = list(Deal.objects.filter(match=match).order_by("n"))
    assert [d.record for d in stored] == deals
    assert [d.client_id for d in stored] == keys
    assert (
        Match.objects.get(pk=match.pk).totals == Judge(make_rules("sport")).fold(deals).state.totals
    )


@pytest.mark.django_db(transaction=True)
def test_the_same_client_id_sent_at_once_is_stored_once(setup):
    match, referee = setup
    deal = sport_deals()[0]
    key = uuid.uuid4()
    results = run_together(
        [lambda: services.record_deal(match.pk, deal, referee, client_id=key)] * 4
    )
    assert all(isinstance(r, services.RecordedDeal) for r in results), results
    assert sorted(r.created for r in results) == [False, False, False, True]
    assert len({r.deal.pk for r in results}) == 1
    assert Deal.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 2


@pytest.mark.django_db(transaction=True)
def test_two_edits_against_the_same_version_one_wins_one_gets_409(setup):
    match, referee = setup
    results = run_together(
        [lambda b=b: services.record_deal(match.pk, pips_deal(b), referee, expected_version=1)
         for b in "NE"]
    )  # fmt: skip
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "RecordedDeal"]
    assert next(r for r in results if isinstance(r, Conflict)).codes == ["stale_version"]
    assert Deal.objects.filter(match=match).count() == 1


def _second_confirmed_row(match: Match) -> None:
    MatchVersion.objects.create(
        match=match, version=99, action="correct", protocol={"deals": []}, confirmed=True
    )


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_second_confirmed_version_on_postgres(setup):
    match, referee = setup
    MatchVersion.objects.create(
        match=match, version=50, action="confirm", protocol={"deals": []}, confirmed=True
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        _second_confirmed_row(match)
    assert MatchVersion.objects.filter(match=match, confirmed=True).count() == 1


@pytest.mark.django_db
def test_the_database_refuses_a_second_confirmed_version(referee):
    match = services.create_match(user=referee)
    MatchVersion.objects.create(
        match=match, version=50, action="confirm", protocol={"deals": []}, confirmed=True
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        _second_confirmed_row(match)
    with pytest.raises(IntegrityError), transaction.atomic():  # a confirmed row needs a protocol
        MatchVersion.objects.create(match=match, version=51, action="confirm", confirmed=True)
    # Another match has its own confirmed version.
    other = services.create_match(user=referee)
    _second_confirmed_row(other)
