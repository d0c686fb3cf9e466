"""The deals of a protocol in play: previewing the next deal, recording it, amending or deleting
the last one. Each recognises its own retry (``scoring.services.idempotency``): recording by the
deal's key, amending and deleting by the version they were made against or by their contents.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rules import DealVerdict
from scoring.errors import DealRefused, ScoringError
from scoring.games import ALL_DEAL_KEYS
from scoring.models import Deal, Match, MatchVersion
from scoring.services import compiled
from scoring.services.clock import refuse_early_time_up, stamp_time_up
from scoring.services.guards import _check_version, _lock, _require_editable, _require_writer
from scoring.services.history import _history_row, _log
from scoring.services.idempotency import (
    change_after,
    key_conflict,
    key_history,
    parse_key,
    same_deal,
)
from scoring.services.permissions import User
from scoring.services.state import (
    _STATE_FIELDS,
    _apply_state,
    _clean_record,
    _deal_json,
    _fold,
    _game_record,
    _judge,
    _records,
    _refused,
    _state_after,
)


@dataclass(frozen=True)
class RecordedDeal:
    deal: Deal
    created: bool


def preview_deal(match_id: int, deal: Any, amend: bool = False) -> DealVerdict:
    """The verdict ``deal`` would get as the match's next deal, or with ``amend`` as the
    replacement of its last deal (judged after the deals before it, as ``amend_last_deal``
    judges it). Writes nothing."""
    match = Match.objects.get(pk=match_id)
    judge = _judge(match)
    record = _game_record(match, deal)
    last = match.deals.order_by("-n").first() if amend else None
    if last is not None:
        if last.time_up_by_clock:
            record["time_up"] = True
        elif last.record.get("time_up") is not True:
            refuse_early_time_up(match, record)
        state = _state_after(judge, _records(match, upto=last.n - 1))
    else:
        refuse_early_time_up(match, record)
        state = _state_after(judge, _records(match))
    return judge.judge(state, record, apply=False)  # type: ignore[arg-type]


def record_deal(
    match_id: int,
    deal: Any,
    user: User,
    client_id: Any = None,
    expected_version: int | None = None,
    reason: str = "",
    clock: bool = True,
) -> RecordedDeal:
    """Judge ``deal`` as the next deal and store it when legal; refused deals store nothing.
    ``reason`` goes into its history row (a deal copied from paper: what the paper said).
    With ``clock`` (not for a paper protocol) a deal recorded after the match's clock ran out
    gets ``time_up`` from the server (``scoring.services.clock``).

    ``client_id`` is the deal's key: sent again with the same deal it answers the stored deal
    (``created`` False) before any other check, so a phone's retry never turns into a 409; with
    a different deal, or after its deal was deleted, it is 409 ``idempotency_conflict``.
    """
    key = parse_key(client_id)
    record = _clean_record(deal, ALL_DEAL_KEYS)
    with transaction.atomic():
        # The row lock serialises every write of the match: two requests with one key are
        # answered one after the other, and the second finds the first's deal.
        match = _lock(match_id)
        record = _game_record(match, record)
        _require_writer(user, match)
        # The stored deals' keys and records in one query: a retry is found among them, and a
        # new deal is judged after them (no model instances, the verdicts are not read).
        stored_deals = compiled.stored_deals(match)
        if key is not None and _is_retry(match, key, record, stored_deals):
            # a retry: the same answer, nothing new
            return RecordedDeal(match.deals.get(client_id=key), created=False)
        _check_version(match, expected_version)
        _require_editable(match)
        judge = _judge(match)
        records = [r for _client_id, r, _stamped in stored_deals]
        if clock:
            refuse_early_time_up(match, record)
        stamped = clock and stamp_time_up(match, record, records)
        fold = _fold(judge, records)
        state = fold.state
        verdict = fold.count(judge.judge(state, record))
        if not verdict.ok:
            raise _refused(verdict)
        _apply_state(match, state, fold.won)
        if match.status == Match.Status.DRAFT:
            match.status = Match.Status.IN_PLAY
        match.version += 1
        # ``match.save(update_fields=…)`` and ``Deal.objects.create(…)``, compiled once
        compiled.save_fields(match, _STATE_FIELDS)
        stored = Deal(
            match=match,
            n=len(records) + 1,
            record=record,
            verdict=verdict.to_dict(),
            client_id=key,
            match_version=match.version,
            time_up_by_clock=stamped,
            created_by=user if user.is_authenticated else None,
        )
        compiled.insert(stored)
        _history_row(match, user, MatchVersion.Action.RECORD_DEAL, None, _deal_json(stored),
                     reason=reason)
    return RecordedDeal(stored, created=True)


@dataclass(frozen=True)
class DealToRecord:
    """One deal of a protocol copied from paper: the record, its key, and a note for its
    history row (where the desk accepted the rules' amount instead of the paper's)."""

    deal: Any
    client_id: Any = None
    note: str = ""


def record_deals(match_id: int, rows: list[DealToRecord], user: User,
                 expected_version: int | None = None) -> list[RecordedDeal]:
    """Record ``rows`` one after another as the next deals, all or none (one transaction).

    Each goes through ``record_deal`` (so each is judged, and a row sent again with its key is
    answered with the stored deal: the whole batch sent twice stores each deal once);
    ``expected_version`` is the version the first row was made against. A refusal names the
    deal's number in the protocol (``n``, «Раздача 6: …») and stores nothing of the batch.
    """
    done: list[RecordedDeal] = []
    with transaction.atomic():
        match = _lock(match_id)
        _require_writer(user, match)
        stored = match.deals.count()
        for i, row in enumerate(rows):
            try:
                done.append(record_deal(match_id, row.deal, user, client_id=row.client_id,
                                        expected_version=expected_version if i == 0 else None,
                                        reason=row.note, clock=False))
            except DealRefused as err:
                n = stored + len([d for d in done if d.created]) + 1
                raise DealRefused([
                    {**item, "n": n, "field": f"deals.{i}" + (f".{item['field']}"
                                                             if item.get("field") else ""),
                     "message": _("Deal %(n)s: %(message)s") % {"n": n,
                                                                "message": item["message"]}}
                    for item in err.errors
                ]) from err
    return done


def _is_retry(match: Match, key: uuid.UUID, record: dict[str, Any],
              stored_deals: list[tuple[Any, Any, bool]]) -> bool:
    """True when ``key`` is stored with this deal; False when the key is new; else 409. A deal
    the clock stamped is the same deal sent again without the ``time_up`` the server added."""
    stored = next(((n, r, stamped) for n, (k, r, stamped) in enumerate(stored_deals, start=1)
                   if k == key), None)  # fmt: skip
    if stored is not None and (same_deal(stored[1], record) or (
            stored[2] and same_deal({**stored[1], "time_up": None}, record))):
        return True
    if stored is None and not match.deals_removed:
        # no deal ever left this protocol: a key not stored was never used (the common case,
        # answered without reading the history)
        return False
    used = key_history(match, key)
    if stored is not None:
        # Amended since: the deal as it was first recorded under the key is still a retry.
        if any(same_deal((row.after or {}).get("record"), record) for row in used):
            return True
        raise key_conflict(match, stored[0])
    if used:
        raise key_conflict(match, (used[-1].after or {}).get("n", "?"), deleted=True)
    return False


def _last_deal(match: Match, n: int | None) -> Deal:
    last = match.deals.order_by("-n").first()
    if last is None:
        raise ScoringError.one("no_deals", _("The protocol has no deals yet."))
    if n is not None and n != last.n:
        raise ScoringError.one(
            "not_last_deal", _("Only the last deal (%(n)s) can be changed.") % {"n": last.n}, "n"
        )
    return last


def amend_last_deal(
    match_id: int,
    deal: Any,
    user: User,
    n: int | None = None,
    expected_version: int | None = None,
) -> Deal:
    """Replace the last deal's record (``n``, when given, must be the last) before submission.

    Sent again, it changes nothing: with ``expected_version`` when the change made on top of it
    was this amendment (answered before the version check); in any case when the last deal
    already is this deal (no new version, no history row).
    """
    record = _clean_record(deal, ALL_DEAL_KEYS)
    with transaction.atomic():
        match = _lock(match_id)
        record = _game_record(match, record)
        _require_writer(user, match)
        done = change_after(match, expected_version, MatchVersion.Action.AMEND_DEAL)
        after = (done.after or {}) if done is not None else {}
        if done is not None and same_deal(after.get("record"), record) \
                and n in (None, after.get("n")):
            amended = match.deals.filter(n=after.get("n")).first()
            if amended is not None:
                return amended
        _check_version(match, expected_version)
        _require_editable(match)
        last = _last_deal(match, n)
        if last.time_up_by_clock:
            # the clock's mark is the server's: an amendment of what was played keeps it
            record["time_up"] = True
        elif last.record.get("time_up") is not True:
            refuse_early_time_up(match, record)
        if same_deal(last.record, record):
            return last
        before = _deal_json(last)
        judge = _judge(match)
        fold = _fold(judge, _records(match, upto=last.n - 1))
        verdict = fold.count(judge.judge(fold.state, record))
        if not verdict.ok:
            raise _refused(verdict)
        _apply_state(match, fold.state, fold.won)
        match.version += 1
        match.save()
        last.record = record
        last.verdict = verdict.to_dict()
        last.match_version = match.version
        last.save(update_fields=["record", "verdict", "match_version"])
        _history_row(match, user, MatchVersion.Action.AMEND_DEAL, before, _deal_json(last))
    return last


def delete_last_deal(
    match_id: int, user: User, n: int | None = None, expected_version: int | None = None
) -> Match:
    """Remove the last deal before submission; with no deals left the match is a draft again.

    Sent again, it deletes nothing more: with ``expected_version`` when the change made on top
    of it was the deletion (of deal ``n``, when given); without a version when deal ``n`` is
    gone and the protocol's last change deleted it. Without either, every call deletes the last.
    """
    with transaction.atomic():
        match = _lock(match_id)
        _require_writer(user, match)
        if _deleted_already(match, n, expected_version):
            return match
        _check_version(match, expected_version)
        _require_editable(match)
        last = _last_deal(match, n)
        before = _deal_json(last)
        last.delete()
        match.deals_removed += 1
        records = _records(match)
        fold = _fold(_judge(match), records)
        _apply_state(match, fold.state, fold.won)
        if not records:
            match.status = Match.Status.DRAFT
        _log(match, user, MatchVersion.Action.DELETE_DEAL, before, None)
    return match


def _deleted_already(match: Match, n: int | None, expected_version: int | None) -> bool:
    if expected_version is not None:
        done = change_after(match, expected_version, MatchVersion.Action.DELETE_DEAL)
        return done is not None and n in (None, (done.before or {}).get("n"))
    if n is None or match.deals.filter(n=n).exists():
        return False
    latest = match.history.order_by("-version").first()
    return (latest is not None and latest.action == MatchVersion.Action.DELETE_DEAL
            and (latest.before or {}).get("n") == n)  # fmt: skip
