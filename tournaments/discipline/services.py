"""The chief referee's sanctions: recording and revoking them. Each is one transaction.

    record_sanction(user, tournament_id, *, entry_id, round_number, kind, reason, ...)
    revoke_sanction(user, sanction_id, reason) -> Sanction     kept, with who, when and why
    sanctions_of(tournament) -> QuerySet

Only ``access.can_judge`` (chief referees and the tournament's organisers) may. A sanction of a
finished round retakes that round's and later standings snapshots (``results.snapshots``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.access import User, can_judge
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import (
    MAX_SANCTION_GAME_POINTS,
    MAX_SANCTION_MATCH_POINTS,
    Entry,
    PairingEntry,
    Sanction,
    Tournament,
)
from tournaments.results import COUNTED, refresh_snapshots


def record_sanction(
    user: User, tournament_id: int, *, entry_id: int, round_number: int, kind: str,
    reason: str, player_id: int | None = None, match_points: int = 0, game_points: int = 0,
    table: int | None = None,
) -> Sanction:  # fmt: skip
    """Record a deduction, a card or a forfeit; it flows into the standings at once."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not can_judge(user, tournament):
            raise NotAllowed.one("not_allowed", _("Only the chief referee records sanctions."))
        problems = []
        entry = tournament.entries.filter(pk=entry_id).first()
        if entry is None:
            problems.append(("bad_entry", _("No such entry in this tournament."), "entry"))
        if kind not in Sanction.Kind.values:
            problems.append(("bad_kind", _("Unknown kind of sanction."), "kind"))
        if not (reason or "").strip():
            problems.append(("reason_required", _("Say why."), "reason"))
        if not 1 <= round_number <= tournament.rounds:
            problems.append(("bad_round", _("The round must be between 1 and %(n)s.")
                             % {"n": tournament.rounds}, "round_number"))  # fmt: skip
        if match_points < 0 or game_points < 0:
            problems.append(("bad_points", _("A deduction cannot be negative."), "game_points"))
        # checked here, not by the database: a number past the column's range is a 400
        for name, value, most in (("match_points", match_points, MAX_SANCTION_MATCH_POINTS),
                                  ("game_points", game_points, MAX_SANCTION_GAME_POINTS)):
            if value > most:
                problems.append(("bad_points", _("A deduction is at most %(n)s.") % {"n": most},
                                 name))  # fmt: skip
        if kind == Sanction.Kind.DEDUCTION and not (match_points or game_points):
            problems.append(("bad_points", _("Give the points to deduct."), "game_points"))
        player = None
        if player_id is not None and entry is not None:
            player = entry.players.filter(pk=player_id).first()
            if player is None:
                problems.append(("bad_player", _("The player does not play for this entry."),
                                 "player"))  # fmt: skip
        pairing = None
        if kind == Sanction.Kind.FORFEIT and entry is not None:
            place = (
                PairingEntry.objects.select_related("pairing")
                .filter(entry=entry, round__number=round_number, round__status__in=COUNTED,
                        pairing__table__isnull=False)
                .first()
            )  # fmt: skip
            if place is None:
                problems.append(("no_table", _("The entry has no table in round %(n)s.")
                                 % {"n": round_number}, "round_number"))  # fmt: skip
            elif table is not None and place.pairing.table != table:
                problems.append(("bad_table", _("The entry plays at table %(t)s.")
                                 % {"t": place.pairing.table}, "table"))  # fmt: skip
            else:
                pairing = place.pairing
        if problems:
            raise TournamentError([{"code": c, "message": str(m), "field": f}
                                   for c, m, f in problems])  # fmt: skip
        if kind == Sanction.Kind.YELLOW:
            game_points = game_points or tournament.yellow_card_points
        elif kind == Sanction.Kind.RED:
            game_points = game_points or tournament.red_card_points
        sanction = Sanction.objects.create(
            tournament=tournament, entry=entry, player=player, round_number=round_number,
            kind=kind, match_points=match_points, game_points=game_points, pairing=pairing,
            reason=reason.strip(), created_by=user if user.is_authenticated else None,
        )  # fmt: skip
        if kind == Sanction.Kind.BLACK and entry is not None:
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])
        refresh_snapshots(tournament, round_number)
    return sanction


def revoke_sanction(user: User, sanction_id: int, reason: str) -> Sanction:
    with transaction.atomic():
        sanction = (
            Sanction.objects.select_for_update().select_related("tournament").get(pk=sanction_id)
        )
        if not can_judge(user, sanction.tournament):
            raise NotAllowed.one("not_allowed", _("Only the chief referee revokes sanctions."))
        if not (reason or "").strip():
            raise TournamentError.one("reason_required", _("Say why."), "reason")
        if sanction.revoked_at is not None:
            raise Conflict.one("already_revoked", _("The sanction was already revoked."))
        sanction.revoked_at = timezone.now()
        sanction.revoked_by = user if user.is_authenticated else None  # type: ignore[assignment]
        sanction.revoke_reason = reason.strip()
        sanction.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
        refresh_snapshots(sanction.tournament, sanction.round_number)
    return sanction


def sanctions_of(tournament: Tournament) -> Iterable[Sanction]:
    return tournament.sanctions.select_related("entry", "player", "pairing", "created_by",
                                               "revoked_by")  # fmt: skip
