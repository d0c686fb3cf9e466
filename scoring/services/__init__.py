"""Operations on a match's protocol. Each is one transaction with the match row locked.

Every change is judged by ``rules`` and leaves the match's cached totals equal to the engine's
fold of the stored deals, bumps ``Match.version`` and writes one ``MatchVersion`` history row.
Views, the API, the admin and the tournaments app call these and nothing else to write.

    create_match(*, user, rules_preset="sport", rules_options=None, players=None,
                 seats=None, referee=None, label="", table="", confirm_pin=None) -> Match
        seats: {"N": Player | player id | None, …}; referee: a user or None.
    create_matches(user, [MatchSpec(...), …]) -> [Match]     a round's tables in bulk
    record_deal(match_id, deal, user, client_id=None, expected_version=None, reason="")
        -> RecordedDeal; a retry with the same client_id returns the stored deal (``created``
        False); the key with a different deal (or after its deal was deleted) is 409
        idempotency_conflict.
    record_deals(match_id, [DealToRecord(deal, client_id, note), …], user,
                 expected_version=None) -> [RecordedDeal]      a paper protocol, all or none
    preview_deal(match_id, deal) -> DealVerdict        what would be written; nothing stored
    amend_last_deal(match_id, deal, user, n=None, expected_version=None) -> Deal
    delete_last_deal(match_id, user, n=None, expected_version=None) -> Match
    set_confirm_pin(match_id, user, pin) -> Match            (desk only)
    submit(match_id, user, expected_version=None) -> Match
    confirm(match_id, user, pin=None) -> Match
    correct(match_id, user, deals, reason, expected_version=None) -> Match
    reseat(match_id, user, *, seats=KEEP, referee=KEEP) -> Match
        players and referee moved in place (the seats only while nothing is recorded)
    discard_blank(user, match_ids)          delete matches nothing was recorded in, or none
    set_clock(match_ids, ends_at=None, paused_left=None)     an event's clock on its matches
    clock_state(match) -> ClockState | None  the clock as the pages show it

A write sent again (a phone that did not see the answer) changes nothing twice: see
``scoring.services.idempotency`` for what makes a request the same as one already done.

Refusals raise ``scoring.errors``: ``DealRefused`` (400, the engine's codes), ``ScoringError``
(400), ``NotAllowed`` (403), ``Conflict`` (409, with the current match); a missing match raises
``Match.DoesNotExist``. Who may do what is decided here (``can_see``, ``can_write``,
``is_desk_for``, ``can_correct`` …), so every caller enforces the same permissions; views and
the API answer 404 for a match the user may not see (``can_see``, ``visible_matches``).

The package owns a match's protocol from creation to correction; this module is its interface
(callers use ``from scoring import services``) and re-exports the public names of its modules:

    permissions     who may see, create, write, confirm at the desk, try the PIN, correct;
                    ``EVENT_SCOPES``, where apps that group matches into events rule theirs
    creation        ``create_match``, ``create_matches`` and ``MatchSpec``
    deals           ``preview_deal``, ``record_deal`` (idempotent by ``client_id``),
                    ``record_deals`` (a paper protocol), ``amend_last_deal``,
                    ``delete_last_deal``
    review          a whole protocol judged as the desk reads it (a correction, a paper one)
    clock           the match's clock and the ``time_up`` the server stamps when it ran out
    idempotency     when a write is a retry: the same deal, a key's history, the change
                    made on top of a version
    confirmation    ``set_confirm_pin``, ``submit``, ``confirm`` (the desk or the captain's PIN)
    corrections     ``correct``
    seating         ``reseat`` (seats and referee in place) and ``discard_blank``
    guards          the match locked and the checks before a change (version, editable, writer)
    history         the version bump and the ``MatchVersion`` rows; ``recount_removals``
    state           the engine's fold of the stored deals and the match's cached totals
"""

from __future__ import annotations

from scoring.services.clock import ClockState, clock_state, set_clock
from scoring.services.confirmation import (
    MAX_PIN_FAILURES,
    PIN_PATTERN,
    confirm,
    set_confirm_pin,
    submit,
)
from scoring.services.corrections import correct
from scoring.services.creation import MatchSpec, create_match, create_matches
from scoring.services.deals import (
    DealToRecord,
    RecordedDeal,
    amend_last_deal,
    delete_last_deal,
    preview_deal,
    record_deal,
    record_deals,
)
from scoring.services.guards import EDITABLE
from scoring.services.history import recount_removals
from scoring.services.permissions import (
    EVENT_SCOPES,
    EventScope,
    User,
    can_correct,
    can_create,
    can_see,
    can_write,
    is_desk,
    is_desk_for,
    may_try_pin,
    overseen_matches,
    visible_matches,
)
from scoring.services.seating import KEEP, discard_blank, reseat
from scoring.services.state import DEAL_KEYS

__all__ = [
    "ClockState",
    "clock_state",
    "set_clock",
    "DEAL_KEYS",
    "EDITABLE",
    "EVENT_SCOPES",
    "KEEP",
    "MAX_PIN_FAILURES",
    "PIN_PATTERN",
    "DealToRecord",
    "EventScope",
    "MatchSpec",
    "RecordedDeal",
    "User",
    "amend_last_deal",
    "can_correct",
    "can_create",
    "can_see",
    "can_write",
    "confirm",
    "correct",
    "create_match",
    "create_matches",
    "delete_last_deal",
    "discard_blank",
    "is_desk",
    "is_desk_for",
    "may_try_pin",
    "overseen_matches",
    "preview_deal",
    "record_deal",
    "record_deals",
    "recount_removals",
    "reseat",
    "set_confirm_pin",
    "submit",
    "visible_matches",
]
