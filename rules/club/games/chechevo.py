"""«Чечевэ» («человек человеку волк»; ``chechevo``, RULES.md sections 27–30): each for himself.

0:0 counts 25 and 6:6 50 in any hand (``held_doubles``). The loser with the highest value records
every loser's value («Алёне записывают 25+23=48»); ties are eggs. Going out on 6:6 writes 50 to
every other player; on 0:0 every other player is a «козёл» at once. A player above ``target``
(101) is a «козёл»; the lowest of the others wins.
"""

from __future__ import annotations

from ... import tiles as T
from ..judge import Parts
from ..types import ClubRecord, ClubState
from .winner_leads import WinnerLeads


class ChechevoJudge(WinnerLeads):
    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        sides, recorded = self.sides, dict.fromkeys(self.sides, 0)
        if r.result == "redeal":
            return Parts(None, recorded, self.next_leader(new, r, leader, False))
        values = self.values(r, in_play)
        extra = {"values": values}
        titles: list[dict[str, str]] = []
        if r.result == "domino":
            assert r.by is not None
            winner: str | None = r.by
            last = r.last_tiles or ()
            others = [s for s in sides if s != r.by]
            if T.ZERO_ZERO in last:  # «все, кроме него, становятся «козлами»»
                self._kozel(new, titles, others)
                new.finished, new.end, new.winner, new.losers = True, "instant", r.by, others
                return Parts(winner, recorded, None, titles, extra=extra)
            if T.SIX_SIX in last:  # «всем кроме него записывается 50 очков»
                for side in others:
                    recorded[side] = 50
                    new.totals[side] += 50
                self._target(new, titles)
                return Parts(winner, recorded, self.next_leader(new, r, leader, False), titles,
                             extra=extra)
        else:
            low = min(values.values())
            lowest = [s for s in sides if values[s] == low]
            if len(lowest) > 1:
                new.eggs += sum(values.values())
                return Parts(None, recorded, self.next_leader(new, r, leader, True), extra=extra)
            winner = lowest[0]
        losers = [s for s in sides if s != winner]
        top = max(values[s] for s in losers)
        tops = [s for s in losers if values[s] == top]
        amount = sum(values[s] for s in losers)
        if len(tops) > 1:
            new.eggs += amount
            return Parts(winner, recorded, self.next_leader(new, r, leader, False), extra=extra)
        recorded[tops[0]] = amount + new.eggs
        new.totals[tops[0]] += amount + new.eggs
        new.eggs = 0
        self._target(new, titles)
        return Parts(winner, recorded, self.next_leader(new, r, leader, False), titles,
                     extra=extra)

    def _kozel(self, new: ClubState, titles: list[dict[str, str]], sides: list[str]) -> None:
        for side in sides:
            titles.append({"title": "kozel", "side": side})
            new.titles.append({"deal": new.n, "title": "kozel", "side": side})

    def _target(self, new: ClubState, titles: list[dict[str, str]]) -> None:
        above = [s for s in self.sides if new.totals[s] > self.rules.target]
        if not above:
            return
        self._kozel(new, titles, above)
        rest = [s for s in self.sides if s not in above]
        best = min((new.totals[s] for s in rest), default=None)
        ahead = [s for s in rest if new.totals[s] == best]
        new.finished, new.end, new.losers = True, "target", above
        new.winner = ahead[0] if len(ahead) == 1 else "draw"
