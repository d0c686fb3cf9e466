"""«Осёл» («Крест», «закрывашки»; ``osel``, RULES.md sections 27–30): scored as Козёл.

Each losing side records its own value; below 13 with an empty record it hangs and is added to
the side's next deal, or dropped when that deal gives the side nothing; a tied fish is eggs for
the next loser. Reaching ``target`` (101) loses. The cross and the closed doubles matter only to
section 31's tile checks: closing the last open ends is a fish.
"""

from __future__ import annotations

from ..judge import Parts
from ..types import ClubRecord, ClubState
from .winner_leads import WinnerLeads


class OselJudge(WinnerLeads):
    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        sides, recorded = self.sides, dict.fromkeys(self.sides, 0)
        if r.result == "redeal":  # void: what hangs keeps hanging
            return Parts(None, recorded, self.next_leader(new, r, leader, False))
        values = self.values(r, in_play)
        winner: str | None
        if r.result == "domino":
            assert r.by is not None
            winner = self.side_of[r.by]
        else:
            low = min(values.values())
            lowest = [s for s in sides if values[s] == low]
            winner = lowest[0] if len(lowest) == 1 else None
        extra = {"values": values}
        if winner is None:  # eggs: nobody records, so every hanging amount drops
            new.eggs += sum(values.values())
            new.hanging = dict.fromkeys(sides, 0)
            return Parts(None, recorded, self.next_leader(new, r, leader, True), extra=extra)
        losers = [s for s in sides if s != winner]
        eggs_to = max(losers, key=lambda s: values[s])  # the first in seat order on a tie
        rules = self.rules
        hanging = dict.fromkeys(sides, 0)
        for side in losers:
            amount = values[side] + new.hanging[side]
            if side == eggs_to:
                amount += new.eggs
            if (rules.min_record_scope == "always" or not new.totals[side]) and \
                    amount < rules.min_record:
                if rules.below_min == "hang":
                    hanging[side] = amount  # «запоминается»
                continue
            recorded[side] = amount
            new.totals[side] += amount
        new.eggs = 0
        new.hanging = hanging
        reached = [s for s in sides if new.totals[s] >= rules.target]
        if reached:
            others = [s for s in sides if s not in reached]
            best = min((new.totals[s] for s in others), default=None)
            ahead = [s for s in others if new.totals[s] == best]
            new.finished, new.end, new.losers = True, "target", reached
            new.winner = ahead[0] if len(ahead) == 1 else "draw"
        return Parts(winner, recorded, self.next_leader(new, r, leader, False), extra=extra)
