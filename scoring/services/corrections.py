"""Correcting a confirmed protocol: the chief referee replaces its deals, with a reason; the
previous confirmed version stays in the history and ``protocol_corrected`` is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import Conflict, DealRefused, NotAllowed, ScoringError, error
from scoring.games import deal_keys
from scoring.models import Deal, Match, MatchVersion
from scoring.services.guards import _check_version, _lock
from scoring.services.history import _history_row
from scoring.services.idempotency import change_after, same_deal
from scoring.services.permissions import User, can_correct
from scoring.services.review import numbered, review
from scoring.services.state import _apply_state, _check_deal_count, _protocol, clean_records
from scoring.signals import protocol_corrected


def correct(
    match_id: int,
    user: User,
    deals: Sequence[Any],
    reason: str,
    expected_version: int | None = None,
) -> Match:
    """Replace a confirmed protocol's deals (its chief referee only, with a reason).

    Every deal must be legal (and what was written for it, ``declared``, the rules' amount); a
    refusal names each wrong deal, judged as ``scoring.services.review`` does, so that one wrong
    deal does not make the later ones look wrong. The previous confirmed version stays in the
    history with its protocol, and the new one becomes the confirmed version.

    Sent again, it corrects nothing more: with ``expected_version`` when the change made on top
    of it was this correction (the same deals and reason); without a version when the last
    change was.
    """
    reason = (reason or "").strip()
    with transaction.atomic():
        match = _lock(match_id)
        if not can_correct(user, match):
            raise NotAllowed.one(
                "not_chief_referee", _("Only the chief referee may correct a protocol.")
            )
        if _corrected_already(match, deals, reason, expected_version):
            return match
        _check_version(match, expected_version)
        if match.status != Match.Status.CONFIRMED:
            raise Conflict(
                [error("not_confirmed", _("Only a confirmed protocol is corrected; this one "
                                          "can still be edited or confirmed."))],
                match,
            )  # fmt: skip
        if not reason:
            raise ScoringError.one(
                "reason_required", _("Say why the protocol is corrected."), "reason"
            )
        if not isinstance(deals, Sequence) or isinstance(deals, str | bytes) or not deals:
            raise ScoringError.one("bad_deals", _("Give the corrected list of deals."), "deals")
        rules = match.get_rules()
        _check_deal_count(rules, len(deals), "deals")
        records = clean_records(deals, deal_keys(rules))
        # Judged as the page showed it: one wrong deal does not make the later ones look wrong.
        checked = review(rules, records)
        if not checked.ok:
            raise DealRefused(numbered(checked.errors))
        before = _protocol(match)
        previous = MatchVersion.objects.filter(match=match, confirmed=True)
        previous.update(confirmed=False)
        match.deals.all().delete()
        match.deals_removed += 1
        _apply_state(match, checked.state, checked.won)
        match.version += 1
        match.save()
        Deal.objects.bulk_create(
            Deal(
                match=match,
                n=deal.n,
                record=deal.record,
                verdict=deal.verdict.to_dict(),
                match_version=match.version,
                created_by=user if user.is_authenticated else None,
            )
            for deal in checked.deals
        )
        after = _protocol(match)
        _history_row(
            match, user, MatchVersion.Action.CORRECT, before, after, reason,
            protocol=after, confirmed=True,
        )  # fmt: skip
        protocol_corrected.send(sender=Match, match=match)
    return match


def _corrected_already(
    match: Match, deals: Any, reason: str, expected_version: int | None
) -> bool:
    """Whether the change this request asks for is the one made on top of its version (without
    a version: the last change of the protocol)."""
    if expected_version is not None:
        done = change_after(match, expected_version, MatchVersion.Action.CORRECT)
    else:
        done = match.history.order_by("-version").first()
        if done is not None and done.action != MatchVersion.Action.CORRECT:
            done = None
    if done is None or done.reason != reason:
        return False
    made = (done.after or {}).get("deals")
    if not isinstance(deals, Sequence) or isinstance(deals, str | bytes) \
            or not isinstance(made, list) or len(made) != len(deals):
        return False
    return all(same_deal(a, b) for a, b in zip(made, deals, strict=True))
