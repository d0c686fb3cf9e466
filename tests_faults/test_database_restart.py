"""PostgreSQL stopped and started while referees record deals through the API (gunicorn).

While the database is away every write answers 503 with the code ``database_unavailable`` and
``Retry-After`` (JSON, never a 500 page); a transaction cut off mid-way leaves nothing behind;
the referees' phones send the same deal again with the same ``Idempotency-Key`` until it is
stored, and in the end every deal is stored exactly once, in order, with the match's totals
equal to the engine's fold and one history row per deal.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from typing import Any

import httpx
from django.db import connections

from accounts import roles
from rules import Judge
from rules.simulate import play_match
from scoring import services
from scoring.models import Deal, Match, MatchVersion
from tests_faults.conftest import Cluster, Processes, wait_for
from tournaments.tests.conftest import make_user

MATCHES = 3


class Referee(threading.Thread):
    """Records a whole match deal by deal, as the scoresheet page does: the same key until the
    server answers 201, whatever happens in between."""

    def __init__(self, url: str, token: str, match: Match, seed: int) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=url, timeout=30,
                                   headers={"Authorization": f"Token {token}"})  # fmt: skip
        self.match_id = match.pk
        self.records = play_match(match.get_rules(), random.Random(seed))
        self.keys = [str(uuid.uuid4()) for _ in self.records]
        self.answers: Counter[str] = Counter()
        self.unavailable: list[httpx.Response] = []
        self.failures: list[str] = []
        self.pace = 0.05

    def run(self) -> None:
        try:
            for n, (key, record) in enumerate(zip(self.keys, self.records, strict=True), 1):
                self.deliver(n, key, record)
                time.sleep(self.pace)
        except Exception as exc:  # reported by the test, not lost in the thread
            self.failures.append(repr(exc))
        finally:
            self.client.close()

    def deliver(self, n: int, key: str, record: dict[str, Any]) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                answer = self.client.post(f"/api/v1/matches/{self.match_id}/deals/", json=record,
                                          headers={"Idempotency-Key": key})  # fmt: skip
            except httpx.TransportError as exc:
                self.answers[type(exc).__name__] += 1
                time.sleep(0.2)
                continue
            self.answers[str(answer.status_code)] += 1
            if answer.status_code == 201:
                if answer.json()["n"] != n:
                    self.failures.append(f"deal {n} stored as {answer.json()['n']}")
                return
            if answer.status_code == 503:
                self.unavailable.append(answer)
                time.sleep(0.2)  # Retry-After says more; the test has no time to wait
                continue
            self.failures.append(f"deal {n}: {answer.status_code} {answer.text[:500]}")
            return
        self.failures.append(f"deal {n}: not stored within 90 s")


def test_postgres_restart_during_deal_submissions(
    fault_services: Processes, postgres_cluster: Cluster
) -> None:
    from accounts.tokens import issue

    chief = make_user("fault-chief", roles.CHIEF_REFEREE)
    referee = make_user("fault-referee", roles.REFEREE)
    _, token = issue(referee)
    matches = [services.create_match(user=chief, referee=referee, table=str(i + 1))
               for i in range(MATCHES)]  # fmt: skip
    url = fault_services.app()
    referees = [Referee(url, token, m, seed=i) for i, m in enumerate(matches)]
    for r in referees:
        r.start()

    # a few deals in, the database goes away (fast shutdown: open transactions are cut off)
    wait_for(lambda: Deal.objects.count() >= 2 * MATCHES, 60, "the first deals")
    connections.close_all()
    postgres_cluster.ctl("stop")
    try:
        probe = httpx.post(f"{url}/api/v1/matches/{matches[0].pk}/deals/", json={},
                           headers={"Authorization": f"Token {token}"}, timeout=30)  # fmt: skip
        assert probe.status_code == 503, probe.text[:2000]
        assert probe.headers["content-type"].startswith("application/json")
        assert [e["code"] for e in probe.json()["errors"]] == ["database_unavailable"]
        assert int(probe.headers["Retry-After"]) > 0
        time.sleep(1.5)  # the referees keep trying meanwhile
    finally:
        postgres_cluster.ensure_online()
    connections.close_all()

    for r in referees:
        r.join(timeout=120)
        assert not r.is_alive(), "a referee is still trying"
    for r in referees:
        assert r.failures == [], r.failures
        assert "500" not in r.answers, r.answers
        for answer in r.unavailable:
            assert answer.json()["errors"][0]["code"] == "database_unavailable"
            assert answer.headers["Retry-After"]
    assert sum(len(r.unavailable) for r in referees) > 0, "the outage was never seen"

    # exactly the deals sent, each once, and nothing half-written
    for r in referees:
        match = Match.objects.get(pk=r.match_id)
        deals = list(match.deals.order_by("n"))
        assert [d.n for d in deals] == list(range(1, len(r.records) + 1))
        assert [str(d.client_id) for d in deals] == r.keys
        assert [d.record for d in deals] == r.records
        state = Judge(match.get_rules()).fold(r.records).state
        assert match.totals == state.totals and match.finished == state.finished
        assert match.winner == (state.winner or "")
        history = MatchVersion.objects.filter(match=match, action="record_deal")
        assert history.count() == len(deals)
        assert match.version == MatchVersion.objects.filter(match=match).count()
        assert [d.match_version for d in deals] == sorted(history.values_list("version", flat=True))
