"""«Морской козёл» as seed 003 tells it (``kozel_morskoy``, RULES.md sections 27–30).

Only the loser of a deal records (the highest value other than the finisher's side; in a fish,
of all sides) and reaching ``target`` (125) loses the match. The opening: three deals led with
the opening double (the ladder or the day of the week), then quick 6:6 deals until a record.
After it, quick leads (6:6 for 50, 0:0 for 75) and the «внеочередной» 6:6 0:0 lead, each only
when every other side has a record; a quick lead ending in a fish is replayed. Going out on 6:6
gives the loser 100 and wipes the finisher's total; on 0:0 («сопливый») or 0:0 with 6:6
(«адмирал») the match ends at once.
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import Problem
from ..judge import ClubJudge, Parts, lead_problem
from ..types import ClubRecord, ClubState

ZZ, SS = T.ZERO_ZERO, T.SIX_SIX
QUICK: dict[tuple[int, ...], str] = {(SS,): "quick6", (ZZ,): "quick0"}
AMOUNT = {"quick6": 50, "quick0": 75}


class KozelMorskoyJudge(ClubJudge):
    def opening_double(self) -> int:
        rules = self.rules
        if rules.first_lead == "weekday" and rules.weekday is not None:
            day = rules.weekday % 7  # Sunday (7) is 0:0
            return T.INDEX[(day, day)]
        return T.INDEX[(1, 1)]

    def kind(self, state: ClubState, r: ClubRecord) -> str:
        """``plain``, ``quick6``, ``quick0``, ``vneo`` or ``bad`` (two other tiles)."""
        if state.replay is not None:
            tiles = state.replay[0]
        elif not any(state.totals.values()):
            return "quick6" if state.opening >= 3 else "plain"
        else:
            tiles = r.lead_tiles
        if len(tiles) == 2:
            return "vneo" if set(tiles) == {SS, ZZ} else "bad"
        return QUICK.get(tiles, "plain")

    def leads(self, state: ClubState, r: ClubRecord) -> tuple[str | None, list[Problem]]:
        leader, problems = super().leads(state, r)
        if r.result == "redeal":
            return leader, problems
        lead = r.lead_tiles
        opening = not any(state.totals.values())
        if state.replay is not None:
            tiles, seat = state.replay  # the same leader: state.leader, checked above
            if lead and set(lead) != set(tiles):
                problems.append(lead_problem(lead, "a replay is led with the same tile",
                                             "переигровка — с того же заходного камня"))
            return (r.leader or seat), problems
        if opening:
            if state.opening >= 3:
                if lead and lead != (SS,):
                    problems.append(lead_problem(lead, "no record after three deals: the "
                                                 "fourth is led with 6:6", "после трёх заходов "
                                                 "без записи четвёртый — «быстрый» с 6:6"))
            elif len(lead) == 2:
                problems.append(lead_problem(lead, "no «внеочередной» lead in the opening",
                                             "«внеочередной» заход до записи невозможен"))
            elif lead and self.no_boneyard and lead != (self.opening_double(),):
                name = T.NAMES[self.opening_double()]
                problems.append(lead_problem(lead, f"the opening is led with {name}",
                                             f"до записи заходят с {name}"))
            return leader, problems
        kind = self.kind(state, r)
        if kind == "bad":
            problems.append(lead_problem(lead, "two lead tiles are only 6:6 and 0:0",
                                         "два заходных камня — только 6:6 и 0:0"))
        elif kind != "plain":
            empty = [s for s in self.sides if not state.totals[s]]
            mine = self.side_of[leader] if leader is not None else None
            if (mine is not None and any(s != mine for s in empty)) or (
                    mine is None and len(empty) > 1):
                problems.append(lead_problem(lead, "a quick lead needs a record for every "
                                             "other side", "«быстрый» заход — только когда у "
                                             "всех остальных есть запись"))
        return leader, problems

    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        sides, recorded = self.sides, dict.fromkeys(self.sides, 0)
        opening = not any(new.totals.values())
        if r.result == "redeal":
            return Parts(None, recorded, None if opening else leader)
        kind = self.kind(new, r)
        values = self.values(r, in_play)
        extra = {"values": values}
        domino = r.result == "domino"
        finisher = self.side_of[r.by] if domino and r.by is not None else None
        if not domino and kind != "plain":  # «рыбачить не допускается»: replayed
            new.replay = (new.replay[0] if new.replay else r.lead_tiles or (SS,), leader)
            return Parts(None, recorded, leader, void=True, extra=extra)
        new.replay = None
        field = [s for s in sides if s != finisher]
        top = max(values[s] for s in field)
        losers = [s for s in field if values[s] == top]
        low = min(values.values())
        lowest = [s for s in sides if values[s] == low]
        winner = finisher if domino else (lowest[0] if len(lowest) == 1 else None)
        last = r.last_tiles or () if domino else ()
        titles: list[dict[str, str]] = []
        if ZZ in last:  # «сопливый» or «адмирал»: the match ends, nothing recorded
            self._title(new, titles, "admiral" if SS in last else "soplivy", losers)
            self._lose(new, losers, finisher, "instant")
            return Parts(winner, recorded, None, titles, extra=extra)
        if domino and kind == "vneo":
            self._title(new, titles, "vneocherednoy", losers)
            if self.rules.vneocherednoy == "ends_match":
                self._lose(new, losers, finisher, "instant")
                return Parts(winner, recorded, None, titles, extra=extra)
            return Parts(winner, recorded, leader, titles, void=True, extra=extra)
        if opening:
            new.opening += 1
        wipe = domino and SS in last
        if wipe:  # «у закончившего на 6:6 все очки списываются до 0», whoever loses
            assert finisher is not None
            new.totals[finisher] = 0
        if len(losers) > 1:  # «яйца»: the tied values wait for the next deal with one loser
            new.eggs += sum(values[s] for s in losers)
            return Parts(winner, recorded, r.by if domino else leader, extra=extra)
        loser = losers[0]
        before = new.totals[loser]
        if wipe:
            amount = 100
        else:
            amount = AMOUNT.get(kind, values[loser])
        amount += new.eggs
        new.eggs = 0
        rules = self.rules
        if (rules.min_record_scope == "always" or not before) and amount < rules.min_record:
            amount = 0  # «менее 25 — очки не записываются»
        recorded[loser] = amount
        new.totals[loser] += amount
        reached = [s for s in sides if new.totals[s] >= rules.target]
        if reached:
            if kind in AMOUNT and not opening and before == rules.target - 1:
                self._title(new, titles, "podvesnoy", [loser])
            self._title(new, titles, "kozel", reached)
            self._lose(new, reached, None, "target")
        still_opening = not any(new.totals.values())
        nxt = None if still_opening else r.by
        return Parts(winner, recorded, nxt, titles, extra=extra)

    def _title(self, new: ClubState, titles: list[dict[str, str]], title: str,
               sides: list[str]) -> None:
        for side in sides:
            titles.append({"title": title, "side": side})
            new.titles.append({"deal": new.n, "title": title, "side": side})

    def _lose(self, new: ClubState, losers: list[str], finisher: str | None, end: str) -> None:
        new.finished, new.end, new.losers = True, end, list(losers)
        if finisher is not None:
            new.winner = finisher
            return
        others = [s for s in self.sides if s not in losers]
        best = min(new.totals[s] for s in others) if others else None
        ahead = [s for s in others if new.totals[s] == best]
        new.winner = ahead[0] if len(ahead) == 1 else "draw"
