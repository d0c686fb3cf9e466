"""Operations on a match's protocol. Each is one transaction with the match row locked.

Every change is judged by ``rules`` and leaves the match's cached totals equal to the engine's
fold of the stored deals, bumps ``Match.version`` and writes one ``MatchVersion`` history row.
Views, the API, the admin and the tournaments app call these and nothing else to write.

    create_match(*, user, rules_preset="sport", rules_options=None, players=None,
                 seats=None, referee=None, label="", table="", confirm_pin=None) -> Match
        seats: {"N": Player | player id | None, …}; referee: a user or None.
    create_matches(user, [MatchSpec(...), …]) -> [Match]     a round's tables in bulk
    record_deal(match_id, deal, user, client_id=None, expected_version=None) -> RecordedDeal
        a retry with the same client_id returns the stored deal (``created`` False).
    preview_deal(match_id, deal) -> DealVerdict        what would be written; nothing stored
    amend_last_deal(match_id, deal, user, n=None, expected_version=None) -> Deal
    delete_last_deal(match_id, user, n=None, expected_version=None) -> Match
    set_confirm_pin(match_id, user, pin) -> Match            (desk only)
    submit(match_id, user, expected_version=None) -> Match
    confirm(match_id, user, pin=None) -> Match
    correct(match_id, user, deals, reason, expected_version=None) -> Match

Refusals raise ``scoring.errors``: ``DealRefused`` (400, the engine's codes), ``ScoringError``
(400), ``NotAllowed`` (403), ``Conflict`` (409, with the current match); a missing match raises
``Match.DoesNotExist``. Who may do what is decided here (``can_write``, ``can_confirm`` …), so
every caller enforces the same permissions.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.roles import CHIEF_REFEREE, ORGANISER, REFEREE, has_role
from rules import DealVerdict, Judge, MatchState, Rules, RulesError, make_rules
from scoring.errors import (
    Conflict,
    DealRefused,
    NotAllowed,
    ScoringError,
    error,
    problem_item,
)
from scoring.models import SEATS, Deal, Match, MatchVersion
from scoring.signals import protocol_corrected

User: TypeAlias = AbstractBaseUser | AnonymousUser

MAX_PIN_FAILURES = 5
PIN_PATTERN = re.compile(r"^\d{4,8}$")
EDITABLE = (Match.Status.DRAFT, Match.Status.IN_PLAY)


@dataclass(frozen=True)
class RecordedDeal:
    deal: Deal
    created: bool


# --- permissions ------------------------------------------------------------------------------


def is_desk(user: User) -> bool:
    """Chief referees and organisers: they may write, confirm and oversee any match."""
    return has_role(user, CHIEF_REFEREE) or has_role(user, ORGANISER)


def can_create(user: User) -> bool:
    return is_desk(user) or has_role(user, REFEREE)


#: Apps that group matches into events (tournaments) add ``(user, match) -> bool | None`` here:
#: ``False`` when the user organises other events but not this match's one. Scoring knows no
#: events; without an answer every organiser is at the desk for the match (a standalone match).
ORGANISER_SCOPE: list[Callable[[Any, Match], bool | None]] = []


def is_desk_for(user: User, match: Match) -> bool:
    """The desk of this match: chief referees, and organisers of the match's event."""
    if has_role(user, CHIEF_REFEREE):
        return True
    if not has_role(user, ORGANISER):
        return False
    return all(check(user, match) is not False for check in ORGANISER_SCOPE)


def can_write(user: User, match: Match) -> bool:
    """Record, amend, delete deals and submit: the assigned referee, or the match's desk."""
    if not user.is_authenticated or not user.is_active:
        return False
    return match.referee_id == user.pk or is_desk_for(user, match)


def can_correct(user: User) -> bool:
    return has_role(user, CHIEF_REFEREE)


# --- helpers ----------------------------------------------------------------------------------


def _lock(match_id: int) -> Match:
    return Match.objects.select_for_update().get(pk=match_id)


def _judge(match: Match) -> Judge:
    return Judge(match.get_rules())


def _records(match: Match, upto: int | None = None) -> list[dict[str, Any]]:
    queryset = match.deals.order_by("n")
    if upto is not None:
        queryset = queryset.filter(n__lte=upto)
    return [deal.record for deal in queryset]


def _state_after(judge: Judge, records: Sequence[Any]) -> MatchState:
    return _fold(judge, records).state


@dataclass
class _Fold:
    """The engine's state after some deals, and how many deals each side won."""

    state: MatchState
    won: dict[str, int] = field(default_factory=dict)

    def count(self, verdict: DealVerdict) -> DealVerdict:
        if verdict.ok and verdict.winner:
            self.won[verdict.winner] = self.won.get(verdict.winner, 0) + 1
        return verdict


def _fold(judge: Judge, records: Sequence[Any]) -> _Fold:
    fold = _Fold(judge.start())
    for record in records:
        fold.count(judge.judge(fold.state, record))
    return fold


def _apply_state(match: Match, state: MatchState, won: dict[str, int] | None = None) -> None:
    match.deals_won = dict(won or {})
    match.totals = dict(state.totals)
    match.finished = state.finished
    match.end = state.end or ""
    match.winner = state.winner or ""
    match.unclaimed_eggs = state.eggs
    match.next_leader = state.leader or ""


#: what ``_apply_state`` and a deal's recording change on the match row
_STATE_FIELDS = ["deals_won", "totals", "finished", "end", "winner", "unclaimed_eggs",
                 "next_leader", "status", "version", "updated_at"]  # fmt: skip


def _check_version(match: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != match.version:
        raise Conflict(
            [error("stale_version",
                   _("The protocol was changed on another device (version %(current)s, "
                     "you had %(yours)s). Reload it and try again.")
                   % {"current": match.version, "yours": expected_version},
                   "expected_version")],
            match,
        )  # fmt: skip


def _lock_for_edit(match_id: int, user: User, expected_version: int | None) -> Match:
    """The match, locked, after the checks every change of a protocol in play needs."""
    match = _lock(match_id)
    _require_writer(user, match)
    _check_version(match, expected_version)
    _require_editable(match)
    return match


def _require_editable(match: Match) -> None:
    if match.status not in EDITABLE:
        raise Conflict(
            [error("not_editable",
                   _("The protocol has been submitted; deals can no longer be changed."))],
            match,
        )  # fmt: skip


def _require_writer(user: User, match: Match) -> None:
    if not can_write(user, match):
        raise NotAllowed.one(
            "not_referee", _("Only the match's referee or the chief referee may change it.")
        )


def _refused(verdict: DealVerdict, prefix: str | None = None) -> DealRefused:
    return DealRefused([problem_item(p, prefix) for p in verdict.errors])


def _clean_record(deal: Any) -> dict[str, Any]:
    if not isinstance(deal, Mapping):
        raise DealRefused.one("bad_deal", _("A deal must be an object."), "deal")
    return {k: v for k, v in deal.items() if k not in ("client_id", "expected_version")}


def _deal_json(deal: Deal | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    return {"n": deal.n, "record": deal.record, "verdict": deal.verdict}


def _protocol(match: Match) -> dict[str, Any]:
    return {
        "deals": _records(match),
        "totals": match.totals,
        "finished": match.finished,
        "end": match.end or None,
        "winner": match.winner or None,
    }


def _log(
    match: Match,
    user: User,
    action: Any,  # a MatchVersion.Action (seen as a tuple without the Django mypy plugin)
    before: Any = None,
    after: Any = None,
    reason: str = "",
    protocol: Any = None,
    confirmed: bool = False,
) -> MatchVersion:
    """Bump the version, save the match and write its history row."""
    match.version += 1
    match.save()
    return _history_row(match, user, action, before, after, reason, protocol, confirmed)


def _history_row(
    match: Match,
    user: User,
    action: Any,  # a MatchVersion.Action (seen as a tuple without the Django mypy plugin)
    before: Any,
    after: Any,
    reason: str = "",
    protocol: Any = None,
    confirmed: bool = False,
) -> MatchVersion:
    return MatchVersion.objects.create(
        match=match,
        version=match.version,
        action=action,
        user=user if user.is_authenticated else None,
        before=before,
        after=after,
        reason=reason,
        protocol=protocol,
        confirmed=confirmed,
    )


def _valid_pin(pin: str | None) -> str:
    if pin is None or not PIN_PATTERN.match(str(pin)):
        raise ScoringError.one("bad_pin", _("The PIN must be 4 to 8 digits."), "confirm_pin")
    return str(pin)


def _parse_client_id(client_id: Any) -> uuid.UUID | None:
    if client_id in (None, ""):
        return None
    try:
        return client_id if isinstance(client_id, uuid.UUID) else uuid.UUID(str(client_id))
    except ValueError as err:
        raise ScoringError.one(
            "bad_client_id", _("The client id must be a UUID."), "client_id"
        ) from err


# --- services ---------------------------------------------------------------------------------


def create_match(
    *,
    user: User,
    rules_preset: str = "sport",
    rules_options: Mapping[str, Any] | None = None,
    players: int | None = None,
    seats: Mapping[str, Any] | None = None,
    referee: AbstractBaseUser | None = None,
    label: str = "",
    table: str = "",
    confirm_pin: str | None = None,
) -> Match:
    """A new match in ``draft`` with the rules resolved and copied in.

    A referee who creates a match referees it (and cannot assign someone else); the desk may
    assign any referee. Seats not in play must be empty; one player cannot sit twice.
    """
    spec = MatchSpec(rules_preset, dict(rules_options or {}), players, dict(seats or {}),
                     referee, label, table, confirm_pin)  # fmt: skip
    return create_matches(user, [spec])[0]


@dataclass(frozen=True)
class MatchSpec:
    """What ``create_matches`` needs for one match (the arguments of ``create_match``)."""

    rules_preset: str = "sport"
    rules_options: Mapping[str, Any] = field(default_factory=dict)
    players: int | None = None
    seats: Mapping[str, Any] = field(default_factory=dict)
    referee: AbstractBaseUser | None = None
    label: str = ""
    table: str = ""
    confirm_pin: str | None = None


def create_matches(user: User, specs: Sequence[MatchSpec]) -> list[Match]:
    """Many new matches at once (a round's tables), checked as ``create_match`` checks one.

    One transaction and a fixed number of queries however many matches: the rules of each
    distinct preset are resolved once, the players are looked up together, and the matches and
    their history rows are inserted in bulk.
    """
    if not can_create(user):
        raise NotAllowed.one("not_allowed", _("Only referees and organisers create matches."))
    desk = is_desk(user)
    resolved: dict[str, tuple[Rules, dict[str, Any]]] = {}
    prepared: list[tuple[Match, dict[str, int | None]]] = []
    for spec in specs:
        options = dict(spec.rules_options)
        key = json.dumps([spec.rules_preset, options, spec.players], sort_keys=True, default=str)
        if key not in resolved:
            try:
                found = make_rules(spec.rules_preset, options, spec.players)
                resolved[key] = (found, found.to_dict())  # the stored copy, built once
            except RulesError as err:
                field_name = ("rules_preset" if err.problem.extra.get("option") == "preset"
                              else "rules_options")  # fmt: skip
                raise ScoringError([problem_item(err.problem) | {"field": field_name}]) from err
        rules, stored = resolved[key]
        referee = spec.referee
        if not desk:
            if referee is not None and referee.pk != user.pk:
                raise NotAllowed.one(
                    "not_allowed", _("Only the chief referee assigns another referee."), "referee"
                )
            referee = user  # type: ignore[assignment]
        if spec.confirm_pin and not desk:
            raise _pin_desk_only()
        seat_ids = _seat_ids(rules, spec.seats)
        pin_hash = make_password(_valid_pin(spec.confirm_pin)) if spec.confirm_pin else ""
        match = Match(
            label=spec.label,
            table=spec.table,
            rules_preset=rules.preset,
            rules_options=options,
            rules=stored,
            referee=referee,
            confirm_pin=pin_hash,
            pin_set_by=user if pin_hash else None,
            created_by=user if user.is_authenticated else None,
            **{f"seat_{seat.lower()}_id": pid for seat, pid in seat_ids.items()},
        )
        _apply_state(match, Judge(rules).start())
        prepared.append((match, seat_ids))
    # The seats' foreign keys are the only link to another app; no import of its models.
    player_model = Match._meta.get_field("seat_n").related_model
    wanted = {pid for _m, ids in prepared for pid in ids.values()}
    found = set(player_model._default_manager.filter(pk__in=wanted).values_list("pk", flat=True))
    for _match, ids in prepared:
        for seat, player_id in ids.items():
            if player_id not in found:
                raise ScoringError.one("unknown_player", _("No such player."), f"seats.{seat}")
    with transaction.atomic():
        matches = Match.objects.bulk_create([m for m, _ids in prepared])
        MatchVersion.objects.bulk_create(
            MatchVersion(match=m, version=m.version, action=MatchVersion.Action.CREATE,
                         user=user if user.is_authenticated else None, before=None,
                         after=_summary(m))
            for m in matches
        )  # fmt: skip
    return matches


def _seat_ids(rules: Rules, seats: Mapping[str, Any]) -> dict[str, int | None]:
    seat_ids: dict[str, int | None] = {}
    for seat, value in seats.items():
        if seat not in SEATS:
            raise ScoringError.one("bad_seat", _("Unknown seat %(seat)s.") % {"seat": seat},
                                   f"seats.{seat}")  # fmt: skip
        player_id = getattr(value, "pk", value)
        if player_id is None:
            continue
        if seat not in rules.seats:
            raise ScoringError.one(
                "seat_not_in_play",
                _("Seat %(seat)s is not in play with %(n)s players.")
                % {"seat": seat, "n": rules.players},
                f"seats.{seat}",
            )
        if player_id in seat_ids.values():
            raise ScoringError.one(
                "duplicate_player", _("A player cannot take two seats."), f"seats.{seat}"
            )
        seat_ids[seat] = int(player_id)
    return seat_ids


def _summary(match: Match) -> dict[str, Any]:
    return {
        "label": match.label,
        "table": match.table,
        "seats": match.seat_player_ids(),
        "referee": match.referee_id,
        "rules": match.rules,
        "status": match.status,
    }


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
    """Hand in a finished protocol for confirmation."""
    with transaction.atomic():
        match = _lock_for_edit(match_id, user, expected_version)
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

    Without a PIN the user must be a chief referee or organiser and not the one who submitted.
    With a PIN the confirmation is the captain's, typed on whatever device is at hand (often the
    referee's phone); after ``MAX_PIN_FAILURES`` wrong PINs only the desk can confirm.
    """
    wrong_pin = False
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.SUBMITTED:
            raise Conflict(
                [error("not_submitted", _("Only a submitted protocol can be confirmed."))], match
            )
        if not user.is_authenticated:
            raise NotAllowed.one("not_allowed", _("Sign in to confirm a protocol."))
        if pin:
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
        raise NotAllowed.one("wrong_pin", _("Wrong PIN."), "pin")
    return match


def correct(
    match_id: int,
    user: User,
    deals: Sequence[Any],
    reason: str,
    expected_version: int | None = None,
) -> Match:
    """Replace a confirmed protocol's deals (chief referee only, with a reason).

    Every deal must be legal; the previous confirmed version stays in the history with its
    protocol, and the new one becomes the confirmed version.
    """
    reason = (reason or "").strip()
    with transaction.atomic():
        match = _lock(match_id)
        if not can_correct(user):
            raise NotAllowed.one(
                "not_chief_referee", _("Only the chief referee may correct a protocol.")
            )
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
        records = [_clean_record(d) for d in deals]
        judge = _judge(match)
        state = judge.start()
        verdicts = [judge.judge(state, record) for record in records]
        problems = [problem_item(p, f"deals.{i}") for i, v in enumerate(verdicts) for p in v.errors]
        if problems:
            raise DealRefused(problems)
        before = _protocol(match)
        previous = MatchVersion.objects.filter(match=match, confirmed=True)
        previous.update(confirmed=False)
        match.deals.all().delete()
        won = _Fold(state)
        for verdict in verdicts:
            won.count(verdict)
        _apply_state(match, state, won.won)
        match.version += 1
        match.save()
        Deal.objects.bulk_create(
            Deal(
                match=match,
                n=i,
                record=record,
                verdict=verdict.to_dict(),
                match_version=match.version,
                created_by=user if user.is_authenticated else None,
            )
            for i, (record, verdict) in enumerate(zip(records, verdicts, strict=True), start=1)
        )
        after = _protocol(match)
        _history_row(
            match, user, MatchVersion.Action.CORRECT, before, after, reason,
            protocol=after, confirmed=True,
        )  # fmt: skip
        protocol_corrected.send(sender=Match, match=match)
    return match
