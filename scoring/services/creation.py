"""Creating matches: one (``create_match``) or a round's tables in bulk (``create_matches``),
with the rules resolved and copied in, the seats checked, the referee assigned (a referee referees
the matches they create; the desk assigns anyone) and the desk's captains' PIN, if given, issued.
A creation with a key (``client_id``) sent again finds the match it created.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.inputs import validate_name
from rules import RulesError
from scoring.errors import Conflict, NotAllowed, ScoringError, error, problem_item
from scoring.games import AnyRules, judge_for, make_match_rules
from scoring.models import SEATS, CreationKey, Match, MatchVersion
from scoring.services.confirmation import _pin_desk_only, _valid_pin
from scoring.services.idempotency import parse_key
from scoring.services.permissions import User, can_create, is_desk
from scoring.services.state import _apply_state


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
    client_id: Any = None,
) -> Match:
    """A new match in ``draft`` with the rules resolved and copied in.

    A referee who creates a match referees it (and cannot assign someone else); the desk may
    assign any referee. Seats not in play must be empty; one player cannot sit twice.

    ``client_id`` (the ``Idempotency-Key``) makes the creation safe to send again: the same
    user sending the same key with the same match (label, table, rules, seats, referee, PIN)
    gets the match the key created; with another match, 409 ``idempotency_conflict``.
    """
    spec = MatchSpec(rules_preset, dict(rules_options or {}), players, dict(seats or {}),
                     referee, label, table, confirm_pin)  # fmt: skip
    key = parse_key(client_id)
    if key is None or not user.is_authenticated:
        return create_matches(user, [spec])[0]
    _require_creator(user)
    existing = _created_with(user, key)
    if existing is None:
        try:
            with transaction.atomic():  # a savepoint: the insert may lose a race
                return create_matches(user, [spec], client_id=key)[0]
        except IntegrityError:
            # The same key sent at the same moment was inserted first (the unique constraint).
            existing = _created_with(user, key)
            if existing is None:
                raise
    return _created_before(existing, user, spec)


def _created_with(user: User, key: Any) -> Match | None:
    return Match.objects.filter(creation_key__user=user, creation_key__key=key).first()


def _require_creator(user: User) -> None:
    if not can_create(user):
        raise NotAllowed.one("not_allowed", _("Only referees and organisers create matches."))


def _created_before(existing: Match, user: User, spec: MatchSpec) -> Match:
    """``existing`` when ``spec`` describes it (a retry); 409 when it is another match."""
    wanted, _seats = _prepare(user, [spec], is_desk(user))[0]
    fields = ("label", "table", "rules_preset", "rules_options", "rules", "referee_id",
              "seat_n_id", "seat_e_id", "seat_s_id", "seat_w_id")  # fmt: skip
    same = all(getattr(existing, f) == getattr(wanted, f) for f in fields)
    if spec.confirm_pin:
        same = same and check_password(str(spec.confirm_pin), existing.confirm_pin)
    if same:
        return existing
    raise Conflict([error(
        "idempotency_conflict",
        _("This key (client_id or Idempotency-Key) already created match %(id)s, which is a "
          "different match. Nothing was created; a new match needs a new key.")
        % {"id": existing.pk},
        "client_id",
    )], existing)  # fmt: skip


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
    #: the round of the event (``label``) this match is a table of
    round: int | None = None


def create_matches(
    user: User, specs: Sequence[MatchSpec], client_id: Any = None
) -> list[Match]:
    """Many new matches at once (a round's tables), checked as ``create_match`` checks one.

    One transaction and a fixed number of queries however many matches: the rules of each
    distinct preset are resolved once, the players are looked up together, and the matches and
    their history rows are inserted in bulk.
    """
    _require_creator(user)
    prepared = _prepare(user, specs, is_desk(user))
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
        if client_id is not None:  # one match (create_match): its key, in the same transaction
            CreationKey.objects.create(user=user, key=client_id, match=matches[0])
    return matches


def _prepare(
    user: User, specs: Sequence[MatchSpec], desk: bool
) -> list[tuple[Match, dict[str, int | None]]]:
    """Unsaved matches for ``specs``, with their seats' player ids (not checked yet)."""
    resolved: dict[str, tuple[AnyRules, dict[str, Any]]] = {}
    prepared: list[tuple[Match, dict[str, int | None]]] = []
    for spec in specs:
        options = dict(spec.rules_options)
        key = json.dumps([spec.rules_preset, options, spec.players], sort_keys=True, default=str)
        if key not in resolved:
            try:
                found = make_match_rules(spec.rules_preset, options, spec.players)
                resolved[key] = (found, found.to_dict())  # the stored copy, built once
            except RulesError as err:
                field_name = ("rules_preset" if err.problem.extra.get("option") == "preset"
                              else "rules_options")  # fmt: skip
                raise ScoringError([problem_item(err.problem) | {"field": field_name}]) from err
        rules, stored = resolved[key]
        _check_names(spec)
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
            round=spec.round,
            rules_preset=rules.preset,
            rules_options=options,
            rules=stored,
            referee=referee,
            confirm_pin=pin_hash,
            pin_set_by=user if pin_hash else None,
            created_by=user if user.is_authenticated else None,
            **{f"seat_{seat.lower()}_id": pid for seat, pid in seat_ids.items()},
        )
        _apply_state(match, judge_for(rules).start())
        prepared.append((match, seat_ids))
    return prepared


def _check_names(spec: MatchSpec) -> None:
    """The label and table are shown on every page and printed: no invisible characters."""
    for name in ("label", "table"):
        try:
            validate_name(getattr(spec, name))
        except ValidationError as err:
            raise ScoringError.one(err.code or "invalid", err.messages[0], name) from err


def _seat_ids(rules: AnyRules, seats: Mapping[str, Any]) -> dict[str, int | None]:
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
