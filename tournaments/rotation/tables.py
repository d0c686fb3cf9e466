"""The stints a «Генерал» rotation played, read from its rounds (one round, one table, one
stint), and the next round's table: the first two teams of the queue (``queue``).

A stint counts once its protocol is confirmed; the next one is paired only then, since who
stays depends on it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.models import Match
from tournaments.errors import PairingFailed
from tournaments.models import Entry, PairingEntry, Tournament
from tournaments.pairing import RoundPairing, Table
from tournaments.rotation.queue import Stint, queue_after


def entries_by_seed(tournament: Tournament) -> list[int]:
    return list(tournament.entries.order_by("seed", "pk").values_list("pk", flat=True))


def stints(tournament: Tournament, before: int | None = None) -> tuple[list[Stint], int | None]:
    """The confirmed stints of the rounds before ``before`` (all: None), in order; and the
    number of the first round whose stint is not confirmed yet (None when every one is)."""
    places = PairingEntry.objects.filter(round__tournament=tournament,
                                         pairing__table__isnull=False)
    if before is not None:
        places = places.filter(round__number__lt=before)
    seats: dict[int, dict[str, int]] = {}
    match_of: dict[int, int | None] = {}
    for number, side, entry_id, match_id in places.order_by("round__number").values_list(
            "round__number", "side", "entry_id", "pairing__match_id"):
        seats.setdefault(number, {})[side] = entry_id
        match_of[number] = match_id
    matches = Match.objects.in_bulk([m for m in match_of.values() if m])
    played: list[Stint] = []
    for number in sorted(seats):
        match = matches.get(match_of[number] or 0)
        if match is None or match.status != Match.Status.CONFIRMED or not match.winner:
            return played, number
        sides = seats[number]
        loser = None if match.winner == "draw" else sides.get(
            "EW" if match.winner == "NS" else "NS")
        played.append(Stint(sides["NS"], sides["EW"], loser))
    return played, None


def current_queue(tournament: Tournament, before: int | None = None) -> list[int]:
    """The queue after the confirmed stints (the active teams only)."""
    played, _open = stints(tournament, before)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    return queue_after(entries_by_seed(tournament), played, active)


def next_table(tournament: Tournament, number: int) -> RoundPairing:
    """Round ``number``'s one table: the team that stayed at N–S, the next one at E–W."""
    _played, unfinished = stints(tournament, number)
    if unfinished is not None:
        raise PairingFailed.one("stint_open", _(
            "The stint of round %(number)s is not confirmed yet: who stays at the table "
            "depends on it.") % {"number": unfinished})
    queue = current_queue(tournament, number)
    if len(queue) < 2:
        raise PairingFailed.one("too_few", _("At least two teams are needed."))
    names = dict(tournament.entries.values_list("pk", "name"))
    note = _("Waiting: %(names)s") % {"names": ", ".join(names[e] for e in queue[2:]) or "—"}
    return RoundPairing(tables=(Table(1, (queue[0],), (queue[1],), frozenset({"rotation"})),),
                        notes=(note,))
