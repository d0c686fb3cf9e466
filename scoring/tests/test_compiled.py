"""The statements of a deal's write compiled once (``scoring.services.compiled``) read and write
what the ORM's own calls do: the same match with every field, the same deals, the same rows
stored, the same signals, the same errors."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, transaction
from django.db.models.signals import post_save, pre_save

from scoring.models import Deal, Match, MatchVersion
from scoring.services import compiled
from scoring.tests.helpers import record_all

pytestmark = pytest.mark.django_db


def fields(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_lock_reads_the_match_as_the_orm_does(match: Match, referee: Any, deals: Any) -> None:
    record_all(match, referee, deals[:3])
    for _ in range(2):  # compiled at the first call, reused at the second
        with transaction.atomic():
            locked = compiled.lock_match(match.pk)
        assert fields(locked) == fields(Match.objects.get(pk=match.pk))
        assert locked._state.adding is False and locked._state.db == "default"
    with pytest.raises(Match.DoesNotExist), transaction.atomic():
        compiled.lock_match(999_999)


def test_the_stored_deals_are_the_orms(match: Match, referee: Any, deals: Any) -> None:
    assert compiled.stored_deals(match) == []
    record_all(match, referee, deals[:4])
    expected = list(match.deals.order_by("n")
                    .values_list("client_id", "record", "time_up_by_clock"))  # fmt: skip
    assert compiled.stored_deals(match) == expected and len(expected) == 4


def test_a_save_of_some_fields_writes_them_and_says_so(match: Match) -> None:
    heard: list[tuple[str, Any, Any]] = []

    def listen(signal: str) -> Any:
        return lambda sender, instance, **kw: heard.append((signal, instance.pk,
                                                            kw.get("update_fields")))

    before, after = listen("pre"), listen("post")
    pre_save.connect(before, sender=Match)
    post_save.connect(after, sender=Match)
    try:
        stamp = match.updated_at
        match.totals, match.version, match.label = {"NS": 12, "EW": 0}, 7, "not saved"
        compiled.save_fields(match, ["totals", "version", "updated_at"])
    finally:
        pre_save.disconnect(before, sender=Match)
        post_save.disconnect(after, sender=Match)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.totals, stored.version) == ({"NS": 12, "EW": 0}, 7)
    assert stored.label != "not saved" and stored.updated_at > stamp  # auto_now
    frozen = frozenset({"totals", "version", "updated_at"})
    assert heard == [("pre", match.pk, frozen), ("post", match.pk, frozen)]
    gone = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=gone.pk).delete()
    with pytest.raises(DatabaseError):
        compiled.save_fields(gone, ["version"])


def test_an_insert_stores_the_row_and_reads_its_key(match: Match, referee: Any,
                                                    deals: Any) -> None:  # fmt: skip
    for n in (1, 2):
        deal = Deal(match=match, n=n, record=deals[n - 1], verdict={"ok": True},
                    match_version=n, created_by=referee)  # fmt: skip
        compiled.insert(deal)
        assert deal.pk is not None and deal._state.adding is False
        stored = Deal.objects.get(pk=deal.pk)
        assert fields(stored) == fields(deal) and stored.created_at is not None
    row = MatchVersion(match=match, version=99, action=MatchVersion.Action.RECORD_DEAL,
                       after={"n": 1, "client_id": None})  # fmt: skip
    compiled.insert(row)
    assert MatchVersion.objects.get(pk=row.pk).after == {"n": 1, "client_id": None}
