"""Judging deals and folding them into a match.

``Judge(rules)`` checks one referee record at a time against a ``MatchState`` and, when the record is
legal, applies it. ``Judge.fold(deals)`` judges a whole match. The engine takes plain data (the deal
shape of RULES.md section 13) and returns plain data; it never touches a database or a web request.
A refused deal changes nothing in the state, so the deals after it are judged as if it were absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import tiles as T
from .errors import Problem
from .presets import Rules

RESULTS = frozenset({"domino", "fish", "redeal"})
_NUMBERS_ALL = (1 << (T.MAX_PIP + 1)) - 1
_ZZ = 1 << T.ZERO_ZERO
_SS = 1 << T.SIX_SIX
_LADDER_FIRST = T.INDEX[(1, 1)]


@dataclass(slots=True)
class MatchState:
    """Everything the next deal's judgement depends on."""

    totals: dict[str, int]
    hanging: dict[str, int]
    eggs: int = 0
    counted: int = 0
    n: int = 0
    leader: str | None = None
    finished: bool = False
    end: str | None = None
    winner: str | None = None
    overtime: bool = False
    #: eggs that went into a recorded amount, and amounts lost below the minimum (bookkeeping)
    eggs_claimed: int = 0

    def copy(self) -> MatchState:
        return MatchState(
            dict(self.totals), dict(self.hanging), self.eggs, self.counted, self.n, self.leader,
            self.finished, self.end, self.winner, self.overtime, self.eggs_claimed,
        )


@dataclass(slots=True)
class DealVerdict:
    """The engine's answer for one deal, in the shape of the contract's ``deals[]`` entry."""

    n: int
    ok: bool
    errors: list[Problem]
    winner: str | None
    values: dict[str, int] | None
    recorded: dict[str, int]
    eggs: int
    hanging: dict[str, int]
    totals: dict[str, int]
    next_leader: str | None
    #: not in the contract: facts the apps show (eggs taken this deal, points lost to the minimum)
    eggs_claimed: int = 0
    discarded: dict[str, int] = field(default_factory=dict)

    def to_dict(self, lang: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "ok": self.ok, "errors": [p.to_dict() for p in self.errors],
            "winner": self.winner,
        }
        if self.values is not None:
            out["values"] = self.values
        out["recorded"] = self.recorded
        out["eggs"] = self.eggs
        out["hanging"] = self.hanging
        out["totals"] = self.totals
        out["next_leader"] = self.next_leader
        return out


@dataclass(slots=True)
class MatchVerdict:
    rules: Rules
    deals: list[DealVerdict]
    state: MatchState

    @property
    def ok(self) -> bool:
        return all(d.ok for d in self.deals)

    def to_dict(self) -> dict[str, Any]:
        s = self.state
        return {
            "ok": self.ok, "preset": self.rules.preset,
            "deals": [d.to_dict() for d in self.deals],
            "totals": dict(s.totals), "finished": s.finished, "end": s.end, "winner": s.winner,
            "unclaimed_eggs": s.eggs,
        }


@dataclass(slots=True)
class _Record:
    """A deal record after reading: tiles as masks, seats checked."""

    result: str
    by: str | None
    leader: str | None
    masks: dict[str, int]
    counts: dict[str, int]
    pips: dict[str, int]
    boneyard: int | None
    lead_tile: int | None
    last_tiles: list[int] | None
    declared: dict[str, int] | None
    time_up: bool


class _Refused(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].code)
        self.problems = problems


class Judge:
    """Judges deals under one set of rules. Cheap to keep; build once per match or per batch."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.seat_set = frozenset(self.seats)
        self.sides = rules.sides
        if rules.partnership:
            self.side_of = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
        else:
            self.side_of = {s: s for s in self.seats}
        self.members = {side: [s for s in self.seats if self.side_of[s] == side]
                        for side in self.sides}
        self.next_seat = {s: self.seats[(i + 1) % len(self.seats)]
                          for i, s in enumerate(self.seats)}
        self.boneyard_start = 28 - rules.players * rules.hand_size
        self.lower_wins = rules.scoring == "losers_record_own" or rules.end == "target_loses"
        lead = rules.first_lead
        self.first_leader = lead[5:] if lead.startswith("seat_") else None

    # ----------------------------------------------------------------- state
    def start(self) -> MatchState:
        zeros = dict.fromkeys(self.sides, 0)
        return MatchState(totals=zeros, hanging=dict(zeros), leader=self.first_leader)

    def fold(self, deals: Iterable[Any]) -> MatchVerdict:
        state = self.start()
        verdicts = [self.judge(state, deal) for deal in deals]
        return MatchVerdict(self.rules, verdicts, state)

    def judge(self, state: MatchState, deal: Any, apply: bool = True) -> DealVerdict:
        """Judge ``deal`` as the next deal after ``state``; apply it when legal and ``apply``."""
        n = state.n + 1
        if apply:
            state.n = n
        try:
            if state.finished:
                raise _Refused([Problem("deal_after_end", {"end": state.end})])
            record = self._read(deal)
            self._check_structure(record)
            leader = self._check_consistency(state, record)
            return self._score(state, record, leader, n, apply)
        except _Refused as refused:
            return DealVerdict(
                n, False, refused.problems, None, None, dict.fromkeys(self.sides, 0),
                state.eggs, dict(state.hanging), dict(state.totals), state.leader,
            )

    # ------------------------------------------------------------- reading
    def _read(self, deal: Any) -> _Record:
        if not isinstance(deal, Mapping):
            raise _Refused([_bad("a deal must be an object")])
        result = deal.get("result")
        if result not in RESULTS:
            raise _Refused([_bad("result must be domino, fish or redeal")])
        by = self._seat(deal.get("by"), "by")
        leader = self._seat(deal.get("leader"), "leader")
        if result == "domino" and by is None:
            raise _Refused([_bad("a domino needs «by», the seat that went out")])
        problems: list[Problem] = []
        masks: dict[str, int] = {}
        counts: dict[str, int] = {}
        seen = 0
        hands = deal.get("hands")
        if hands is not None:
            if not isinstance(hands, Mapping):
                raise _Refused([_bad("hands must be an object of seat: tiles")])
            for seat, text in hands.items():
                if seat not in self.seat_set:
                    raise _Refused([_bad(f"hands names seat {seat!r}, which is not in play")])
                if text is None:
                    continue
                try:
                    items = _tiles_from(text)
                except T.TileError as err:
                    problems.append(_tile_problem(err, seat))
                    continue
                mask = 0
                for t in items:
                    bit = 1 << t
                    if mask & bit or seen & bit:
                        problems.append(_dup(t, seat))
                    mask |= bit
                seen |= mask
                masks[seat] = mask
                counts[seat] = len(items)
        boneyard: int | None = None
        raw_boneyard = deal.get("boneyard")
        if raw_boneyard is not None:
            try:
                items = _tiles_from(raw_boneyard)
            except T.TileError as err:
                problems.append(_tile_problem(err, "boneyard"))
                items = []
            boneyard = 0
            for t in items:
                bit = 1 << t
                if boneyard & bit or seen & bit:
                    problems.append(_dup(t, "boneyard"))
                boneyard |= bit
            seen |= boneyard
        lead_tile: int | None = None
        if deal.get("lead_tile") is not None:
            try:
                lead_tile = _one_tile(deal["lead_tile"])
            except T.TileError as err:
                problems.append(_tile_problem(err, "lead_tile"))
        last_tiles: list[int] | None = None
        if deal.get("last_tiles") is not None:
            try:
                last_tiles = _tiles_from(deal["last_tiles"])
            except T.TileError as err:
                problems.append(_tile_problem(err, "last_tiles"))
        if problems:
            raise _Refused(problems)
        pips: dict[str, int] = {}
        raw_pips = deal.get("pips")
        if raw_pips is not None:
            if not isinstance(raw_pips, Mapping):
                raise _Refused([_bad("pips must be an object of seat: number")])
            for seat, value in raw_pips.items():
                if seat not in self.seat_set:
                    raise _Refused([_bad(f"pips names seat {seat!r}, which is not in play")])
                if value is None:
                    continue
                if not isinstance(value, int) or isinstance(value, bool):
                    raise _Refused([_bad(f"pips of seat {seat} must be a whole number")])
                pips[seat] = value
        declared: dict[str, int] | None = None
        raw_declared = deal.get("declared")
        if raw_declared is not None:
            if not isinstance(raw_declared, Mapping):
                raise _Refused([_bad("declared must be an object of side: points")])
            declared = {}
            for side, value in raw_declared.items():
                if not isinstance(value, int) or isinstance(value, bool):
                    raise _Refused([_bad(f"declared points of {side} must be a whole number")])
                declared[str(side)] = value
        if boneyard is not None and not self.boneyard_start and boneyard:
            raise _Refused([_bad("this game has no boneyard: all 28 tiles are dealt")])
        return _Record(result, by, leader, masks, counts, pips, boneyard, lead_tile, last_tiles,
                       declared, deal.get("time_up") is True)

    def _seat(self, value: Any, name: str) -> str | None:
        if value is None:
            return None
        if value not in self.seat_set:
            raise _Refused([_bad(f"{name} must be one of {', '.join(self.seats)}")])
        return str(value)

    # ----------------------------------------------------------- structure
    def _check_structure(self, r: _Record) -> None:
        rules = self.rules
        problems: list[Problem] = []
        if r.result == "redeal":
            limit = rules.hand_size
        elif rules.draw and self.boneyard_start:
            left = r.boneyard.bit_count() if r.boneyard is not None else 0
            limit = rules.hand_size + self.boneyard_start - max(left, rules.boneyard_keep)
        else:
            limit = rules.hand_size
        for seat in self.seats:
            count = r.counts.get(seat)
            if count is not None and count > limit:
                problems.append(Problem("hand_too_large", {"seat": seat, "count": count,
                                                           "limit": limit}, {"seat": seat}))
        for seat in self.seats:
            value = r.pips.get(seat)
            if value is None:
                continue
            count = r.counts.get(seat)
            high = T.max_pips(limit if count is None else count)
            if value < 0 or value > high:
                problems.append(Problem("pips_out_of_range",
                                        {"seat": seat, "pips": value, "limit": high},
                                        {"seat": seat}))
            elif count is not None:
                actual = _pips(r.masks[seat])
                if actual != value:
                    problems.append(Problem("pips_mismatch",
                                            {"seat": seat, "pips": value, "actual": actual},
                                            {"seat": seat, "expected": actual}))
        if r.result != "redeal":
            finisher = r.by if r.result == "domino" else None
            for seat in self.seats:
                if seat != finisher and seat not in r.masks and seat not in r.pips:
                    problems.append(Problem("missing_hand", {"seat": seat}, {"seat": seat}))
            if finisher is not None:
                if r.masks.get(finisher, 0) or r.pips.get(finisher, 0):
                    problems.append(Problem("finisher_has_tiles", {"seat": finisher},
                                            {"seat": finisher}))
                for seat in self.seats:
                    if seat != finisher and seat in r.masks and not r.masks[seat]:
                        problems.append(Problem("two_empty_hands", {"seat": seat},
                                                {"seat": seat}))
        if problems:
            raise _Refused(problems)

    # --------------------------------------------------------- consistency
    def _check_consistency(self, state: MatchState, r: _Record) -> str | None:
        """Line, block, redeal, lead and finishing checks; returns who led this deal."""
        rules = self.rules
        problems: list[Problem] = []
        in_hands = 0
        for mask in r.masks.values():
            in_hands |= mask
        if r.result == "redeal":
            if not any(self._redeal_hand(m) for m in r.masks.values()):
                problems.append(Problem("not_a_redeal", {"doubles": rules.redeal_doubles,
                                                         "suit": rules.redeal_suit}))
        else:
            # The finisher's hand is known to be empty: the structure check refused anything else.
            finisher = r.by if r.result == "domino" else None
            table_known = all(s in r.masks or s == finisher for s in self.seats) and (
                not self.boneyard_start or r.boneyard is not None
            )
            off_table = in_hands | (r.boneyard or 0)
            if table_known:
                problem = self._line_problem(r, off_table, in_hands)
                if problem is not None:
                    problems.append(problem)
            if r.result == "fish":
                for seat, mask in r.masks.items():
                    if not mask:
                        problems.append(Problem("not_blocked", {
                            "detail": f"seat {seat} has no tiles left: that is a domino",
                        }, {"seat": seat}))
                        break
        leader = r.leader if r.leader is not None else state.leader
        if r.leader is not None and state.leader is not None and r.leader != state.leader:
            problems.append(Problem("wrong_leader", {"seat": r.leader,
                                                     "expected_seat": state.leader},
                                    {"seat": r.leader, "expected": state.leader}))
        if r.lead_tile is not None and r.result != "redeal":
            problem = self._lead_tile_problem(state, r, in_hands)
            if problem is not None:
                problems.append(problem)
        if r.last_tiles is not None and r.result != "redeal":
            problem = self._last_tiles_problem(r, in_hands)
            if problem is not None:
                problems.append(problem)
        if problems:
            raise _Refused(problems)
        return leader

    def _redeal_hand(self, mask: int) -> bool:
        rules = self.rules
        if (mask & T.DOUBLE_MASK).bit_count() >= rules.redeal_doubles:
            return True
        return any((mask & suit).bit_count() >= rules.redeal_suit for suit in T.SUIT_MASK)

    def _line_problem(self, r: _Record, off_table: int, in_hands: int) -> Problem | None:
        """``not_a_line`` or ``not_blocked`` for a deal whose table is known tile by tile."""
        odd = 0
        removed = [0] * (T.MAX_PIP + 1)
        tiles, parity = T.TILES, T.PARITY
        m = off_table
        while m:
            low = m & -m
            t = low.bit_length() - 1
            m ^= low
            odd ^= parity[t]
            a, b = tiles[t]
            removed[a] |= 1 << b
            removed[b] |= 1 << a
        adjacency = [_NUMBERS_ALL & ~x for x in removed]
        present = 0
        for v, adj in enumerate(adjacency):
            if adj:
                present |= 1 << v
        if not present:
            return Problem("not_a_line", {"detail": "no tile is on the table"})
        reach = present & -present
        frontier = reach
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            new = adjacency[low.bit_length() - 1] & ~reach
            reach |= new
            frontier |= new
        odd_count = odd.bit_count()
        if reach != present:
            return Problem("not_a_line", {"detail": "the tiles fall into separate groups"})
        if odd_count > 2:
            numbers = ", ".join(str(v) for v in range(T.MAX_PIP + 1) if odd >> v & 1)
            return Problem("not_a_line", {
                "detail": f"{numbers} appear an odd number of times; a line has at most two ends",
            })
        if r.result != "fish":
            return None
        rules = self.rules
        if rules.draw and self.boneyard_start and r.boneyard is not None \
                and r.boneyard.bit_count() > rules.boneyard_keep:
            return Problem("not_blocked", {"detail": "tiles are left in the boneyard to draw"})
        suit = T.SUIT_MASK
        if odd_count == 2:
            a = (odd & -odd).bit_length() - 1
            b = odd.bit_length() - 1
            if in_hands & (suit[a] | suit[b]):
                return Problem("not_blocked", {"detail": f"the ends {a} and {b} can still be "
                                                         f"matched from a hand"})
            return None
        for v in range(T.MAX_PIP + 1):
            if present >> v & 1 and not in_hands & suit[v]:
                return None
        return Problem("not_blocked", {
            "detail": "no number is played out at both ends (with four players a fish needs all "
                      "seven tiles of the end number on the table)",
        })

    def _lead_tile_problem(self, state: MatchState, r: _Record, in_hands: int) -> Problem | None:
        t = r.lead_tile
        assert t is not None
        bit = 1 << t
        name = T.NAMES[t]
        if in_hands & bit:
            holder = next(s for s, m in r.masks.items() if m & bit)
            return Problem("bad_lead_tile", {
                "tile": name, "detail": f"it is still in seat {holder}'s hand",
                "detail_ru": f"она ещё на руках у места {holder}",
            }, {"tile": name, "seat": holder})
        if r.boneyard is not None and r.boneyard & bit:
            return Problem("bad_lead_tile", {
                "tile": name, "detail": "it is in the boneyard", "detail_ru": "она в базаре",
            }, {"tile": name})
        if (self.rules.first_lead == "ladder" and state.counted == 0 and not self.boneyard_start
                and t != _LADDER_FIRST):
            return Problem("bad_lead_tile", {
                "tile": name, "detail": "the first deal is led with 1:1 under the ladder rule",
                "detail_ru": "первую раздачу начинают с 1:1",
            }, {"tile": name, "expected": T.NAMES[_LADDER_FIRST]})
        return None

    def _last_tiles_problem(self, r: _Record, in_hands: int) -> Problem | None:
        last = r.last_tiles
        assert last is not None
        names = " ".join(T.NAMES[t] for t in last)
        if not last:
            return Problem("bad_last_tiles", {"tile": "—", "detail": "no tile given",
                                              "detail_ru": "кость не указана"})
        if len(last) > 1 and not (
            self.rules.two_doubles and len(last) == 2 and all(T.IS_DOUBLE[t] for t in last)
            and last[0] != last[1]
        ):
            return Problem("bad_last_tiles", {
                "tile": names, "detail": "one move plays one tile (or two doubles where allowed)",
                "detail_ru": "за ход ставится одна кость (или два дубля, где это разрешено)",
            }, {"tile": names})
        for t in last:
            if in_hands & (1 << t) or (r.boneyard or 0) & (1 << t):
                return Problem("bad_last_tiles", {
                    "tile": names, "detail": f"{T.NAMES[t]} is not on the table",
                    "detail_ru": f"{T.NAMES[t]} не на столе",
                }, {"tile": T.NAMES[t]})
        return None

    # ------------------------------------------------------------- scoring
    def _values(self, r: _Record) -> dict[str, int]:
        rules = self.rules
        bonus = r.result == "domino" or (r.result == "fish" and rules.bonus_on_fish)
        values = dict.fromkeys(self.sides, 0)
        side_of = self.side_of
        for seat in self.seats:
            mask = r.masks.get(seat)
            if mask is None:
                value = r.pips.get(seat, 0)
            else:
                value = _pips(mask)
                if bonus and mask & (_ZZ | _SS) == mask and mask:
                    special = (rules.bonus_zero if mask == _ZZ else
                               rules.bonus_six if mask == _SS else rules.bonus_both)
                    if special is not None:
                        value = special
            values[side_of[seat]] += value
        return values

    def _score(self, state: MatchState, r: _Record, leader: str | None, n: int,
               apply: bool) -> DealVerdict:
        rules = self.rules
        sides = self.sides
        values = self._values(r)
        recorded = dict.fromkeys(sides, 0)
        if r.result == "redeal":
            if r.declared and any(r.declared.values()):
                _declared_refusal(r.declared, recorded)
            if self.rules.first_lead == "ladder" and state.counted == 0:
                next_leader = None  # a new shuffle: the ladder names the first leader again
            else:
                next_leader = leader
            verdict = DealVerdict(n, True, [], None, values, recorded, state.eggs,
                                  dict(state.hanging), dict(state.totals), next_leader)
            if apply:
                state.leader = next_leader
                self._time(state, r)
            return verdict

        winner: str | None
        if r.result == "domino":
            assert r.by is not None
            winner = self.side_of[r.by]
        else:
            low = min(values.values())
            lowest = [s for s in sides if values[s] == low]
            winner = lowest[0] if len(lowest) == 1 else None

        totals = dict(state.totals)
        hanging = dict(state.hanging)
        eggs = state.eggs
        eggs_claimed = 0
        discarded: dict[str, int] = {}
        if winner is None:
            if rules.fish_tie == "eggs":
                eggs += sum(values.values())
            for s in sides:
                hanging[s] = 0
        else:
            base = dict.fromkeys(sides, 0)
            diff = r.result == "fish" and rules.fish_scoring == "difference"
            losers = [s for s in sides if s != winner]
            own = values[winner] if diff else 0
            if rules.scoring == "winner_takes_losers":
                base[winner] = sum(values[s] for s in losers) - own
            elif rules.scoring == "winner_takes_all":
                base[winner] = sum(values.values()) - values[winner] - own \
                    if diff else sum(values.values())
            else:
                for s in losers:
                    base[s] = values[s] - own
            if eggs:
                receiver = winner if rules.scoring != "losers_record_own" else max(
                    losers, key=lambda s: values[s])
                base[receiver] += eggs
                eggs_claimed = eggs
                eggs = 0
            hang = rules.below_min == "hang"
            minimum = rules.min_record
            for s in sides:
                amount = base[s]
                if hanging[s]:
                    if amount > 0:
                        amount += hanging[s]
                    hanging[s] = 0
                if amount > 0 and minimum and amount < minimum and (
                    rules.min_record_scope == "always" or totals[s] == 0
                ):
                    if hang:
                        hanging[s] = amount
                    else:
                        discarded[s] = amount
                    amount = 0
                recorded[s] = amount
                totals[s] += amount
            if rules.one_scorer:
                scorers = [s for s in sides if recorded[s] > 0]
                if scorers:
                    for s in sides:
                        if s not in scorers:
                            totals[s] = 0

        if r.declared is not None:
            if any(r.declared.get(s, 0) != recorded[s] for s in sides) or any(
                k not in recorded for k in r.declared
            ):
                _declared_refusal(r.declared, recorded)

        next_leader = self._next_leader(r, leader, winner)
        instant = None
        if winner is not None:
            instant = self._instant(state, r, leader, winner, totals)
        verdict = DealVerdict(n, True, [], winner, values, recorded, eggs, hanging, totals,
                              next_leader, eggs_claimed, discarded)
        if apply:
            state.totals = dict(totals)
            state.hanging = dict(hanging)
            state.eggs = eggs
            state.eggs_claimed += eggs_claimed
            state.leader = next_leader
            state.counted += 1
            if instant is not None:
                state.finished, state.end, state.winner = True, "instant", instant
            else:
                self._end(state, r)
        return verdict

    def _next_leader(self, r: _Record, leader: str | None, winner: str | None) -> str | None:
        if self.rules.next_lead == "rotate":
            return self.next_seat[leader] if leader is not None else None
        if r.result == "domino":
            return r.by
        if winner is None and self.rules.fish_tie == "eggs":
            return leader
        return r.by

    def _instant(self, state: MatchState, r: _Record, leader: str | None, winner: str,
                 totals: dict[str, int]) -> str | None:
        """Морской козёл: out on 0:0 / 6:6, and «на сто». May zero ``totals`` of a failed «сто»."""
        rules = self.rules
        if rules.na_sto and r.lead_tile == T.SIX_SIX and leader is not None:
            side = self.side_of[leader]
            if state.totals[side] > 0:
                if r.result == "domino" and winner == side:
                    return side
                totals[side] = 0
        if (rules.instant_doubles and r.result == "domino" and r.last_tiles
                and (T.ZERO_ZERO in r.last_tiles or T.SIX_SIX in r.last_tiles)):
            return winner
        return None

    def _end(self, state: MatchState, r: _Record) -> None:
        rules = self.rules
        totals = state.totals
        if rules.end == "target_wins":
            reached = [s for s in self.sides if totals[s] >= rules.target]
            if reached:
                best = max(totals[s] for s in reached)
                tops = [s for s in reached if totals[s] == best]
                self._finish(state, "target", tops[0] if len(tops) == 1 else "draw")
                return
        elif rules.end == "target_loses":
            reached = [s for s in self.sides if totals[s] >= rules.target]
            if reached:
                others = [s for s in self.sides if s not in reached]
                self._finish(state, "target", self._leading(totals, others) if others else "draw")
                return
        elif state.counted >= rules.deals:
            self._finish(state, "deals", self._leading(totals, list(self.sides)))
            return
        self._time(state, r)

    def _time(self, state: MatchState, r: _Record) -> None:
        if not (r.time_up or state.overtime) or state.finished:
            return
        leading = self._leading(state.totals, list(self.sides))
        if leading != "draw" or self.rules.time_tie == "draw":
            self._finish(state, "time", leading)
        else:
            state.overtime = True

    def _leading(self, totals: Mapping[str, int], sides: list[str]) -> str:
        """The side ahead among ``sides`` (fewest points where points are bad), or ``draw``."""
        pick = min if self.lower_wins else max
        best = pick(totals[s] for s in sides)
        tops = [s for s in sides if totals[s] == best]
        return tops[0] if len(tops) == 1 else "draw"

    @staticmethod
    def _finish(state: MatchState, end: str, winner: str) -> None:
        state.finished, state.end, state.winner = True, end, winner
        state.overtime = False


def _declared_refusal(declared: Mapping[str, int], expected: dict[str, int]) -> None:
    raise _Refused([Problem("declared_mismatch", {"declared": dict(declared),
                                                  "expected": dict(expected)},
                            {"expected": dict(expected)})])


def _pips(mask: int) -> int:
    total = 0
    pips = T.PIPS
    while mask:
        low = mask & -mask
        total += pips[low.bit_length() - 1]
        mask ^= low
    return total


def _tiles_from(value: Any) -> list[int]:
    if isinstance(value, str):
        return T.parse_tiles(value)
    if isinstance(value, list | tuple):
        out: list[int] = []
        for item in value:
            if isinstance(item, str):
                out.extend(T.parse_tiles(item))
            elif (isinstance(item, list | tuple) and len(item) == 2
                  and all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
                out.append(T.tile(item[0], item[1]))
            else:
                raise T.TileError("bad_tile", str(item))
        return out
    raise T.TileError("bad_tile", str(value))


def _one_tile(value: Any) -> int:
    items = _tiles_from(value)
    if len(items) != 1:
        raise T.TileError("bad_tile", str(value))
    return items[0]


def _bad(detail: str) -> Problem:
    return Problem("bad_deal", {"detail": detail})


def _tile_problem(err: T.TileError, where: str) -> Problem:
    return Problem(err.code, {"seat": where, "tile": err.token},
                   {"seat": where, "tile": err.token})


def _dup(t: int, where: str) -> Problem:
    return Problem("duplicate_tile", {"seat": where, "tile": T.NAMES[t]},
                   {"seat": where, "tile": T.NAMES[t]})
