"""Which entries get virtual points in an accelerated Swiss round, and how many (the rule itself
is the pure ``tournaments.pairing.acceleration``: FIDE C.04.5.1, the Baku acceleration).

    virtual_points(tournament, number, present) -> {entry id: match points}

The list is every entry of the Swiss (the teams, in a team event) by pairing number: seed order,
or rating order with ``Tournament.seed_by_rating`` (``planning.seed_by_rating``), late entries in
their places. Round 1's list is the entries paired in round 1 (the ones being paired, when
round 1 is the one being paired): it fixes the last entry of group A for every later round.
Empty when the tournament is not accelerated, is not a Swiss, or the round is past the
accelerated ones. Reads three queries at most (and the ratings' with ``seed_by_rating``).
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments import selectors
from tournaments.models import Entry, PairingEntry, Tournament
from tournaments.pairing import acceleration


def _by_pairing_number(tournament: Tournament) -> list[Entry]:
    # a team's pairs are members, not entries of the Swiss; in other formats team is empty
    everyone = sorted(tournament.entries.filter(team__isnull=True),
                      key=lambda e: (e.seed is None, e.seed or 0, e.pk))  # fmt: skip
    if not tournament.seed_by_rating:
        return everyone
    # as ``planning.seed_by_rating`` seeds round 1
    return list(selectors.by_rating(everyone, selectors.entry_ratings(tournament),
                                    selectors.imported_ratings(tournament)))  # fmt: skip


def _round_one(tournament: Tournament) -> set[int] | None:
    """The entries (teams) that round 1 paired, or None before round 1 is paired."""
    rows = PairingEntry.objects.filter(round__tournament=tournament, round__number=1,
                                       round__stage__isnull=True)  # fmt: skip
    ids = set(rows.values_list("entry_id", flat=True))
    if not ids:
        return None
    # a team event seats pairs: their teams were the list
    teams = dict(Entry.objects.filter(pk__in=ids, team__isnull=False)
                 .values_list("pk", "team_id"))  # fmt: skip
    return {teams.get(i, i) for i in ids}


def virtual_points(tournament: Tournament, number: int,
                   present: Iterable[int] | None = None) -> dict[int, float]:  # fmt: skip
    """Group A's virtual points (in match points) for round ``number``; ``present``: the
    entries (teams) being paired, round 1's list when round 1 is the one paired (None: a round
    already paired, round 1's list is read)."""
    if (tournament.acceleration != Tournament.Acceleration.BAKU
            or tournament.system != Tournament.System.SWISS
            or tournament.format not in (Tournament.Format.PAIRS, Tournament.Format.SINGLES,
                                         Tournament.Format.TEAMS)):  # fmt: skip
        return {}
    points = acceleration.virtual_points(number, tournament.rounds, tournament.points_win)
    if not points:
        return {}
    if present is None or number > 1:
        roster = _round_one(tournament) or set(present or ())
    else:
        roster = set(present)
    order = [e.pk for e in _by_pairing_number(tournament)]
    return dict.fromkeys(acceleration.group_a(order, roster), float(points))
