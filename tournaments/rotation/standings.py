"""Each team's record in a «Генерал» rotation and the ranking (RULES.md section 35): the
generals it was given, the deals it lost, the stints it played and survived — read from the
confirmed stints' protocols (a general is a title the score sheet counts in the totals).

Ranked by the fewest generals, then the fewest lost deals, then the most stints won, then the
seed: a general is the shame the evening remembers, a lost deal the smaller one.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.models import Match
from tournaments.models import PairingEntry, Tournament
from tournaments.rotation.tables import current_queue


@dataclass
class TeamLine:
    entry_id: int
    name: str
    seed: int
    stints: int = 0
    won: int = 0
    generals: int = 0
    lost_deals: int = 0
    rank: int = 0
    #: where the team is now: 0 at the table, 1 next, … (None: withdrawn)
    place_in_queue: int | None = None


def table(tournament: Tournament) -> list[TeamLine]:
    """Every team's line, ranked."""
    lines = {pk: TeamLine(pk, name, seed or 0) for pk, name, seed in
             tournament.entries.values_list("pk", "name", "seed")}  # fmt: skip
    places = PairingEntry.objects.filter(
        round__tournament=tournament, pairing__table__isnull=False,
        pairing__match__status=Match.Status.CONFIRMED,
    ).values_list("entry_id", "side", "pairing__match_id")  # fmt: skip
    rows = list(places)
    matches = Match.objects.in_bulk({m for _e, _s, m in rows})
    for entry_id, side, match_id in rows:
        match, line = matches[match_id], lines[entry_id]
        line.stints += 1
        line.generals += int((match.totals or {}).get(side, 0))
        line.lost_deals += int((match.outcome or {}).get("losses", {}).get(side, 0))
        if match.winner == side:
            line.won += 1
    for i, entry_id in enumerate(current_queue(tournament)):
        lines[entry_id].place_in_queue = i
    ranked = sorted(lines.values(), key=lambda t: (t.generals, t.lost_deals, -t.won, t.seed,
                                                   t.entry_id))
    for i, line in enumerate(ranked, 1):
        line.rank = i
    return ranked
