"""Setting and removing a substitute.

    set_substitute(user, tournament_id, *, replaced, player, from_round, to_round=None,
                   entry=None, reason="") -> Substitute
        ``to_round`` None: from ``from_round`` on; equal to it: that round only. ``entry``: the
        replaced player's entry (found when omitted)
    remove_substitute(user, substitute_id) -> None

Each is one transaction with the tournament and the rounds concerned locked (the pairing job
locks its round too, so a table written meanwhile seats the substitute or is reseated here).
Refused (nothing changed) with a translated reason naming the field: the replaced player not of
an active entry of the tournament, the substitute already playing in it, rounds out of range or
overlapping another substitute of that player, and — the rule of the day — a round whose table
of that entry has a deal recorded, or is finished (``protocol_started``, 409): a substitute is
set before the round's protocols start. The tables of the rounds concerned already paired are
reseated in place (their matches' seats show who plays). Audited as ``entry.substitute`` and
``entry.substitute_remove``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import audit
from scoring.models import Match
from tournaments.access import User, locked_tournament
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Entry, Pairing, PairingEntry, Player, Round, Substitute, Tournament
from tournaments.rounds.tables import reseat_table

_FIELDS = ("entry", "replaced", "player", "from_round", "to_round", "reason")


def _int(value: Any, field: str, lowest: int, highest: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if not lowest <= number <= highest:
        raise TournamentError.one(
            "round", _("Give a round from %(low)s to %(high)s.") % {"low": lowest,
                                                                  "high": highest}, field)
    return number


def _rounds(tournament: Tournament, first: int, last: int | None) -> list[Round]:
    """The rounds concerned that exist, locked (the pairing job takes the same lock)."""
    rounds = tournament.round_set.select_for_update().filter(number__gte=first)
    if last is not None:
        rounds = rounds.filter(number__lte=last)
    return list(rounds.order_by("number"))


def _tables_before_play(entry: Entry, rounds: list[Round]) -> list[Pairing]:
    """The entry's tables in ``rounds``, each with nothing recorded yet; else ``Conflict``."""
    for round_ in rounds:
        if round_.status == Round.Status.FINISHED:
            raise Conflict.one("protocol_started", _(
                "Round %(n)s is finished; a substitute is set before the round's protocols "
                "start.") % {"n": round_.number})  # fmt: skip
    pairings = list(Pairing.objects.filter(
        pk__in=PairingEntry.objects.filter(entry=entry, round__in=rounds).values("pairing_id"),
        table__isnull=False).select_related("round", "match"))  # fmt: skip
    for pairing in pairings:
        match = pairing.match
        if match is not None and (match.status != Match.Status.DRAFT or match.deals.exists()):
            raise Conflict.one("protocol_started", _(
                "Table %(table)s of round %(n)s has deals recorded already; a substitute is set "
                "before the round's protocols start.") % {"table": pairing.table,
                                                          "n": pairing.round.number})  # fmt: skip
    return pairings


def _reseat(user: User, pairings: list[Pairing]) -> None:
    for pairing in pairings:
        reseat_table(pairing, user)


def set_substitute(user: User, tournament_id: int, *, replaced: Any, player: Any,
                   from_round: Any, to_round: Any = None, entry: Any = None,
                   reason: str = "") -> Substitute:  # fmt: skip
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        active = tournament.entries.filter(status=Entry.Status.ACTIVE)
        entries = active.filter(players=replaced) if str(replaced).isdigit() else active.none()
        if entry not in (None, ""):
            entries = entries.filter(pk=entry)
        found = entries.first()
        if found is None:
            raise TournamentError.one("replaced", _(
                "Choose a player of an active entry of this tournament."), "replaced")
        substitute = Player.objects.filter(pk=player).first() if str(player).isdigit() else None
        if substitute is None:
            raise TournamentError.one("player", _("No such player."), "player")
        if tournament.entries.filter(players=substitute, status=Entry.Status.ACTIVE).exists():
            raise TournamentError.one("player", _(
                "%(name)s already plays in this tournament; a substitute is a reserve or "
                "another player of the club.") % {"name": substitute.full_name}, "player")
        from tournaments.substitutes.forms import candidates

        if not candidates(tournament, user).filter(pk=substitute.pk).exists():
            raise TournamentError.one("player", _(
                "A substitute is a reserve of this tournament's clubs (or of no club)."),
                "player")  # fmt: skip
        first = _int(from_round, "from_round", 1, tournament.rounds)
        last = None if to_round in (None, "") else _int(to_round, "to_round", first,
                                                        tournament.rounds)
        for other in Substitute.objects.filter(entry=found, replaced_id=int(replaced)):
            if (last is None or other.from_round <= last) and (
                    other.to_round is None or first <= other.to_round):  # fmt: skip
                raise Conflict.one("overlap", _(
                    "%(name)s already has a substitute from round %(n)s; remove it first.")
                    % {"name": Player.objects.get(pk=replaced).full_name,
                       "n": other.from_round}, "from_round")  # fmt: skip
        # one player, one seat per round: not a substitute for two players in the same rounds
        # (the tournament's row is locked, so two requests cannot both pass this)
        for other in Substitute.objects.filter(tournament=tournament, player=substitute):
            if (last is None or other.from_round <= last) and (
                    other.to_round is None or first <= other.to_round):  # fmt: skip
                raise Conflict.one("seat_taken", _(
                    "%(name)s already substitutes from round %(n)s: one player sits at one "
                    "table a round.") % {"name": substitute.full_name, "n": other.from_round},
                    "player")  # fmt: skip
        pairings = _tables_before_play(found, _rounds(tournament, first, last))
        row = Substitute.objects.create(
            tournament=tournament, entry=found, replaced_id=int(replaced), player=substitute,
            from_round=first, to_round=last, reason=reason.strip()[:200],
            created_by=user if user.is_authenticated else None,
        )  # fmt: skip
        _reseat(user, pairings)
        audit.record(user, "entry.substitute", found, tournament_id=tournament.pk,
                     after=audit.snapshot(row, _FIELDS))  # fmt: skip
    return row


def remove_substitute(user: User, substitute_id: int) -> None:
    with transaction.atomic():
        row = Substitute.objects.select_related("entry").get(pk=substitute_id)
        tournament = locked_tournament(user, row.tournament_id)
        pairings = _tables_before_play(row.entry, _rounds(tournament, row.from_round,
                                                          row.to_round))  # fmt: skip
        before = audit.snapshot(row, _FIELDS)
        row.delete()
        _reseat(user, pairings)
        audit.record(user, "entry.substitute_remove", row.entry, tournament_id=tournament.pk,
                     before=before)  # fmt: skip
