"""Teams of pairs: team against team by the Swiss system, then pair against pair.

The teams are paired as Swiss entries, by ``swiss`` and its objective over the teams' match
points (no rematch, the bye to the lowest eligible team, the smallest worst table, the smallest
total score difference, clubs, seats, order). In each team match the pairs meet board by board,
strongest against strongest (``members`` lists a team's pairs strongest first), and seats
alternate along the boards: the team the Swiss gave NS sits NS on boards 1, 3, 5… and EW on 2, 4,
6…, so both teams hold each side equally. Every board is a table (``ns`` and ``ew`` hold one pair
id each) carrying the team match's flags; a team match's boards get consecutive table numbers,
the leaders' match first.

A team's bye is a ``Bye`` with the team's id. If one team has more pairs than the other, the extra
pairs do not play that round and are named in the notes. Pure: no database.
"""

from __future__ import annotations

from collections.abc import Sequence

from .swiss import swiss
from .types import Bye, Competitor, RoundPairing, SwissOptions, Table


def teams(teams: Sequence[Competitor], options: SwissOptions) -> RoundPairing:
    """Pair one round of a team event (ids in tables are pair ids; byes name teams)."""
    by_id = {team.id: team for team in teams}
    if len(by_id) != len(teams):
        raise ValueError("team ids must be unique")
    empty = [team.id for team in teams if not team.members and team.id not in options.ids_excluded]
    if empty:
        raise ValueError(f"teams without pairs: {empty}")
    matches = swiss(teams, options)
    tables: list[Table] = []
    notes = list(matches.notes)
    number = options.first_table
    for match in matches.tables:
        home, away = by_id[match.ns[0]], by_id[match.ew[0]]
        boards = min(len(home.members), len(away.members))
        for board in range(boards):
            ours, theirs = home.members[board], away.members[board]
            ns, ew = (ours, theirs) if board % 2 == 0 else (theirs, ours)
            tables.append(Table(number=number, ns=(ns,), ew=(ew,), flags=match.flags))
            number += 1
        notes.append(f"Team {home.id} v team {away.id}: tables {number - boards}–{number - 1}")
        for team in (home, away):
            if len(team.members) > boards:
                extra = ", ".join(str(p) for p in team.members[boards:])
                notes.append(f"Team {team.id}: pairs {extra} sit out (the other team is smaller)")
    byes = tuple(Bye(bye.id, bye.flags) for bye in matches.byes)
    return RoundPairing(tables=tuple(tables), byes=byes, notes=tuple(notes))
