"""Handing in and confirming a protocol: the desk issues the captains' PIN
(``set_confirm_pin``), the referee submits a finished protocol (``submit``), and the desk (not
the submitter) or the opposing captain with the PIN confirms it (``confirm``).
"""

from __future__ import annotations

import re

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.people import person
from scoring.errors import Conflict, NotAllowed, ScoringError, error
from scoring.models import Match, MatchVersion
from scoring.services.guards import EDITABLE, _check_version, _lock, _require_writer
from scoring.services.history import _history_row, _log
from scoring.services.idempotency import change_after
from scoring.services.permissions import User, is_desk_for, may_try_pin
from scoring.services.state import _protocol

MAX_PIN_FAILURES = 5
PIN_PATTERN = re.compile(r"^\d{4,8}$")


def _valid_pin(pin: str | None) -> str:
    if pin is None or not PIN_PATTERN.match(str(pin)):
        raise ScoringError.one("bad_pin", _("The PIN must be 4 to 8 digits."), "confirm_pin")
    return str(pin)


def _pin_desk_only() -> NotAllowed:
    return NotAllowed.one(
        "pin_desk_only",
        _("Only the chief referee or an organiser issues the captains' PIN."),
        "confirm_pin",
    )


def set_confirm_pin(match_id: int, user: User, pin: str) -> Match:
    """Issue (or replace) the PIN the opposing captain types to confirm; the desk only.

    The PIN stands for the captain's signature, so whoever will submit the protocol must not be
    able to choose it: referees cannot set it, and a PIN issued by the submitter is not accepted.
    """
    with transaction.atomic():
        match = _lock(match_id)
        if not is_desk_for(user, match):
            raise _pin_desk_only()
        if match.status == Match.Status.CONFIRMED:
            raise Conflict([error("not_editable", _("The protocol is already confirmed."))], match)
        match.confirm_pin = make_password(_valid_pin(pin))
        match.pin_set_by = user  # type: ignore[assignment]
        match.pin_failures = 0
        _log(match, user, MatchVersion.Action.SET_PIN, None, {"pin": "set"})
    return match


def submit(match_id: int, user: User, expected_version: int | None = None) -> Match:
    """Hand in a finished protocol for confirmation.

    Sent again with ``expected_version``, it is answered as done when the change made on top of
    that version was the submission; otherwise a protocol already handed in is 409
    ``not_editable``, saying who submitted (and confirmed) it.
    """
    with transaction.atomic():
        match = _lock(match_id)
        _require_writer(user, match)
        if change_after(match, expected_version, MatchVersion.Action.SUBMIT) is not None:
            return match
        if match.status not in EDITABLE:
            raise Conflict([error("not_editable", _already_handed_in(match))], match)
        _check_version(match, expected_version)
        if not match.finished:
            raise ScoringError.one(
                "not_finished",
                _("The match is not over yet; record the remaining deals (or time) first."),
            )
        before = {"status": match.status}
        match.status = Match.Status.SUBMITTED
        match.submitted_by = user if user.is_authenticated else None  # type: ignore[assignment]
        match.submitted_at = timezone.now()
        _log(match, user, MatchVersion.Action.SUBMIT, before, {"status": match.status})
    return match


def confirm(match_id: int, user: User, pin: str | None = None) -> Match:
    """Confirm a submitted protocol: the desk (not the submitter) or the opposing captain's PIN.

    Without a PIN the user must be at the match's desk and not the one who submitted. With a PIN
    the confirmation is the captain's, typed on the table referee's phone or at the desk; nobody
    else may try it, so that nobody else can spend its attempts: after ``MAX_PIN_FAILURES``
    wrong PINs only the desk can confirm.
    """
    wrong_pin = False
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.SUBMITTED:
            # A confirmation sent again lands here too: say who confirmed it.
            message = (_already_handed_in(match) if match.status == Match.Status.CONFIRMED
                       else _("Only a submitted protocol can be confirmed."))  # fmt: skip
            raise Conflict([error("not_submitted", message)], match)
        if not user.is_authenticated:
            raise NotAllowed.one("not_allowed", _("Sign in to confirm a protocol."))
        if pin:
            if not may_try_pin(user, match):
                raise NotAllowed.one(
                    "pin_not_allowed",
                    _("The captain's PIN is typed on the table referee's phone or at the desk."),
                    "pin",
                )
            issued_by_submitter = (
                match.pin_set_by_id is not None and match.pin_set_by_id == match.submitted_by_id
            )
            if not match.confirm_pin or match.pin_failures >= MAX_PIN_FAILURES \
                    or issued_by_submitter:
                raise NotAllowed.one(
                    "pin_unavailable",
                    _("Confirmation by PIN is not available for this match; ask the chief "
                      "referee."),
                    "pin",
                )  # fmt: skip
            if not check_password(str(pin), match.confirm_pin):
                match.pin_failures += 1
                match.save(update_fields=["pin_failures"])
                wrong_pin = True
        else:
            if match.submitted_by_id == user.pk:
                raise NotAllowed.one(
                    "submitter_cannot_confirm",
                    _("The protocol must be confirmed by someone other than who submitted it."),
                )
            if not is_desk_for(user, match):
                raise NotAllowed.one(
                    "not_allowed",
                    _("Only the chief referee, an organiser or the opposing captain with the "
                      "PIN may confirm."),
                )  # fmt: skip
        if not wrong_pin:
            match.status = Match.Status.CONFIRMED
            match.confirmed_by = user  # type: ignore[assignment]
            match.confirmed_with_pin = bool(pin)
            match.confirmed_at = timezone.now()
            match.version += 1
            match.save()
            _history_row(
                match, user, MatchVersion.Action.CONFIRM,
                {"status": Match.Status.SUBMITTED},
                {"status": match.status, "with_pin": bool(pin)},
                protocol=_protocol(match), confirmed=True,
            )  # fmt: skip
    # Outside the transaction, so that the failed attempt stays counted.
    if wrong_pin:
        left = MAX_PIN_FAILURES - match.pin_failures
        if left > 0:
            message = ngettext("Wrong PIN. %(left)s try left.", "Wrong PIN. %(left)s tries left.",
                               left) % {"left": left}
        else:
            message = _("Wrong PIN. No tries are left: the chief referee confirms the protocol "
                        "at the desk.")
        raise NotAllowed.one("wrong_pin", message, "pin")
    return match


def _who(user: User | None) -> str:
    return person(user)


def _already_handed_in(match: Match) -> str:
    if match.status == Match.Status.CONFIRMED:
        return _("The protocol has already been confirmed by %(who)s.") % {
            "who": _who(match.confirmed_by)
        }
    return _("The protocol has already been submitted by %(who)s.") % {
        "who": _who(match.submitted_by)
    }
