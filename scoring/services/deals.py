"""The deals of a protocol in play: previewing the next deal, recording it (idempotent: a retry
with the same ``client_id`` returns the stored deal), amending or deleting the last one.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rules import DealVerdict
from scoring.errors import ScoringError
from scoring.models import Deal, Match, MatchVersion
from scoring.services.guards import (
    _check_version,
    _lock,
    _lock_for_edit,
    _require_editable,
    _require_writer,
)
from scoring.services.history import _history_row, _log
from scoring.services.permissions import User
from scoring.services.state import (
    _STATE_FIELDS,
    _apply_state,
    _clean_record,
    _deal_json,
    _fold,
    _judge,
    _records,
    _refused,
    _state_after,
)


@dataclass(frozen=True)
class RecordedDeal:
    deal: Deal
    created: bool


def _parse_client_id(client_id: Any) -> uuid.UUID | None:
    if client_id in (None, ""):
        return None
    try:
        return client_id if isinstance(client_id, uuid.UUID) else uuid.UUID(str(client_id))
    except ValueError as err:
        raise ScoringError.one(
            "bad_client_id", _("The client id must be a UUID."), "client_id"
        ) from err


def preview_deal(match_id: int, deal: Any) -> DealVerdict:
    """The verdict ``deal`` would get as the match's next deal. Writes nothing."""
    match = Match.objects.get(pk=match_id)
    judge = _judge(match)
    state = _state_after(judge, _records(match))
    return judge.judge(state, _clean_record(deal), apply=False)


def record_deal(
    match_id: int,
    deal: Any,
    user: User,
    client_id: Any = None,
    expected_version: int | None = None,
) -> RecordedDeal:
    """Judge ``deal`` as the next deal and store it when legal; refused deals store nothing."""
    key = _parse_client_id(client_id)
    record = _clean_record(deal)
    with transaction.atomic():
        match = _lock(match_id)
        _require_writer(user, match)
        # The stored deals' keys and records in one query: a retry is found among them, and a
        # new deal is judged after them (no model instances, the verdicts are not read).
        stored_deals = list(match.deals.order_by("n").values_list("client_id", "record"))
        if key is not None and any(client_id == key for client_id, _r in stored_deals):
            # a retry: the same answer, nothing new
            return RecordedDeal(match.deals.get(client_id=key), created=False)
        _check_version(match, expected_version)
        _require_editable(match)
        judge = _judge(match)
        records = [r for _client_id, r in stored_deals]
        fold = _fold(judge, records)
        state = fold.state
        verdict = fold.count(judge.judge(state, record))
        if not verdict.ok:
            raise _refused(verdict)
        _apply_state(match, state, fold.won)
        if match.status == Match.Status.DRAFT:
            match.status = Match.Status.IN_PLAY
        match.version += 1
        match.save(update_fields=_STATE_FIELDS)
        stored = Deal.objects.create(
            match=match,
            n=len(records) + 1,
            record=record,
            verdict=verdict.to_dict(),
            client_id=key,
            match_version=match.version,
            created_by=user if user.is_authenticated else None,
        )
        _history_row(match, user, MatchVersion.Action.RECORD_DEAL, None, _deal_json(stored))
    return RecordedDeal(stored, created=True)


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
    """Replace the last deal's record (``n``, when given, must be the last) before submission."""
    record = _clean_record(deal)
    with transaction.atomic():
        match = _lock_for_edit(match_id, user, expected_version)
        last = _last_deal(match, n)
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
    """Remove the last deal before submission; with no deals left the match is a draft again."""
    with transaction.atomic():
        match = _lock_for_edit(match_id, user, expected_version)
        last = _last_deal(match, n)
        before = _deal_json(last)
        last.delete()
        records = _records(match)
        fold = _fold(_judge(match), records)
        _apply_state(match, fold.state, fold.won)
        if not records:
            match.status = Match.Status.DRAFT
        _log(match, user, MatchVersion.Action.DELETE_DEAL, before, None)
    return match
