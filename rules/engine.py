"""Judging deals and folding them into a match.

``Judge(rules)`` checks one referee record at a time against a ``MatchState`` and, when the
record is legal, applies it. ``Judge.fold(deals)`` judges a whole match. The engine takes plain
data (the deal shape of RULES.md section 13) and returns plain data; it never touches a database
or a web request. A refused deal changes nothing in the state, so the deals after it are judged
as if it were absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import tiles as T
from .errors import MESSAGES, Problem
from .presets import Rules

RESULTS = frozenset({"domino", "fish", "redeal"})
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
    #: eggs taken by winners so far (with ``eggs`` pending: every egg laid is accounted for)
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
    discarded: dict[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "ok": self.ok, "errors": [p.to_dict() for p in self.errors],
            "winner": self.winner,
        }
        if self.values is not None:
            out["values"] = dict(self.values)
        out["recorded"] = dict(self.recorded)
        out["eggs"] = self.eggs
        out["hanging"] = dict(self.hanging)
        out["totals"] = dict(self.totals)
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
    pips: dict[str, int]
    boneyard: int | None
    #: every tile off the table (in hands or the boneyard)
    off_table: int
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
        self.side_set = frozenset(self.sides)
        self.rotate = rules.next_lead == "rotate"
        self.players = rules.players
        self.seat_sides = tuple((s, self.side_of[s]) for s in self.seats)
        self.next_seat = {s: self.seats[(i + 1) % len(self.seats)]
                          for i, s in enumerate(self.seats)}
        self.boneyard_start = 28 - rules.players * rules.hand_size
        self.lower_wins = rules.scoring == "losers_record_own" or rules.end == "target_loses"
        lead = rules.first_lead
        self.first_leader = lead[5:] if lead.startswith("seat_") else None
        # With every tile dealt, the ladder's first lead is always 1:1 and can be checked.
        self.ladder_first = lead == "ladder" and not self.boneyard_start
        self.hang = rules.below_min == "hang"
        self.min_always = rules.min_record_scope == "always"
        self.fish_difference = rules.fish_scoring == "difference"
        self.specials = rules.na_sto or rules.instant_doubles
        # Hands that hold only 0:0 and/or 6:6 and have a value of their own.
        lone = {_ZZ: rules.bonus_zero, _SS: rules.bonus_six, _ZZ | _SS: rules.bonus_both}
        self.bonus_domino = {m: v for m, v in lone.items() if v is not None}
        self.bonus_fish = self.bonus_domino if rules.bonus_on_fish else None

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
                state.eggs, state.hanging, state.totals, state.leader,
            )

    # ------------------------------------------------------------- reading
    def _read(self, deal: Any) -> _Record:
        if type(deal) is not dict and not isinstance(deal, Mapping):
            raise _Refused([_bad("a deal must be an object", "раздача должна быть объектом")])
        get = deal.get
        result, by, leader, hands = get("result"), get("by"), get("leader"), get("hands")
        raw_boneyard, raw_lead, raw_last = get("boneyard"), get("lead_tile"), get("last_tiles")
        raw_pips, raw_declared, time_up = get("pips"), get("declared"), get("time_up")
        if type(result) is not str or result not in RESULTS:
            raise _Refused([_bad("result must be domino, fish or redeal",
                                        "«result» должен быть «domino», «fish» или «redeal»")])
        if by is not None and (type(by) is not str or by not in self.seat_set):
            by = self._seat(by, "by")
        if leader is not None and (type(leader) is not str or leader not in self.seat_set):
            leader = self._seat(leader, "leader")
        if result == "domino" and by is None:
            raise _Refused([_bad("a domino needs «by», the seat that went out",
                                        "для домино нужно «by» — место, которое вышло")])
        problems: list[Problem] = []
        masks: dict[str, int] = {}
        seen = 0
        if hands is not None:
            if type(hands) is not dict and not isinstance(hands, Mapping):
                raise _Refused([_bad("hands must be an object of seat: tiles",
                                            "«hands» — объект «место: кости»")])
            for seat in hands:
                if seat not in self.seat_set:
                    raise _Refused([_bad(
                        f"hands names seat {seat!r}, which is not in play",
                        f"в «hands» указано место «{seat}», которого нет в игре")])
            bit_of = _BIT_OF
            for seat, text in hands.items():
                # The common case inline: a string of known tokens, no tile seen twice.
                if type(text) is str and "," not in text:
                    tokens = text.split()
                    try:
                        mask = sum(map(bit_of, tokens))
                    except KeyError:
                        pass
                    else:
                        if not mask & seen and mask.bit_count() == len(tokens):
                            seen |= mask
                            masks[seat] = mask
                            continue
                if text is None:
                    continue
                hand = _read_hand(text, seen, seat, problems)
                if hand is None:
                    continue
                mask = hand
                seen |= mask
                masks[seat] = mask
        boneyard: int | None = None
        if raw_boneyard is not None:
            boneyard = _read_hand(raw_boneyard, seen, "boneyard", problems) or 0
            seen |= boneyard
        lead_tile: int | None = None
        if raw_lead is not None:
            lead_tile = _TOKEN_TILE.get(raw_lead) if type(raw_lead) is str else None
            if lead_tile is None:
                bits = _bits(raw_lead, "lead_tile", problems)
                if bits is not None and len(bits) == 1:
                    lead_tile = bits[0].bit_length() - 1
                elif bits is not None:
                    problems.append(_tile_problem(T.TileError("bad_tile", str(raw_lead)),
                                                  "lead_tile"))
        last_tiles: list[int] | None = None
        if raw_last is not None:
            last = _TOKEN_TILE.get(raw_last) if type(raw_last) is str else None
            if last is not None:
                last_tiles = [last]
            else:
                bits = _bits(raw_last, "last_tiles", problems)
                if bits is not None:
                    last_tiles = [bit.bit_length() - 1 for bit in bits]
        if problems:
            raise _Refused(problems)
        pips: dict[str, int] = _NO_PIPS
        if raw_pips is not None:
            pips = {}
            if type(raw_pips) is not dict and not isinstance(raw_pips, Mapping):
                raise _Refused([_bad("pips must be an object of seat: number",
                                            "«pips» — объект «место: число»")])
            for seat, value in raw_pips.items():
                if seat not in self.seat_set:
                    raise _Refused([_bad(
                        f"pips names seat {seat!r}, which is not in play",
                        f"в «pips» указано место «{seat}», которого нет в игре")])
                if value is None:
                    continue
                if type(value) is not int:
                    raise _Refused([_bad(
                        f"pips of seat {seat} must be a whole number",
                        f"очки места {seat} должны быть целым числом")])
                pips[seat] = value
        declared: dict[str, int] | None = None
        if raw_declared is not None:
            if type(raw_declared) is not dict and not isinstance(raw_declared, Mapping):
                raise _Refused([_bad("declared must be an object of side: points",
                                            "«declared» — объект «сторона: очки»")])
            for side, value in raw_declared.items():
                if type(value) is not int:
                    raise _Refused([_bad(
                        f"declared points of {side} must be a whole number",
                        f"объявленные очки «{side}» должны быть целым числом")])
            declared = raw_declared if type(raw_declared) is dict else dict(raw_declared)
        if boneyard is not None and not self.boneyard_start and boneyard:
            raise _Refused([_bad("this game has no boneyard: all 28 tiles are dealt",
                                        "в этой игре нет базара: розданы все 28 костей")])
        return _Record(result, by, leader, masks, pips, boneyard, seen, lead_tile,
                       last_tiles, declared, time_up is True)

    def _seat(self, value: Any, name: str) -> str | None:
        if value is None:
            return None
        if type(value) is not str or value not in self.seat_set:
            raise _Refused([_bad(f"{name} must be one of {', '.join(self.seats)}",
                                    f"«{name}» — одно из мест {', '.join(self.seats)}")])
        return str(value)

    # ----------------------------------------------------------- structure
    def _check_structure(self, r: _Record) -> None:
        rules = self.rules
        if r.result == "redeal":
            limit = rules.hand_size
        elif rules.draw and self.boneyard_start:
            left = r.boneyard.bit_count() if r.boneyard is not None else 0
            limit = rules.hand_size + self.boneyard_start - max(left, rules.boneyard_keep)
        else:
            limit = rules.hand_size
        masks, pips = r.masks, r.pips
        whole = r.result != "redeal"  # a redeal needs only the hand that qualifies
        finisher = r.by if r.result == "domino" else None
        # The usual record: every hand but the finisher's as tiles, no pips, sizes in range.
        if (whole and not pips and max(map(int.bit_count, masks.values()), default=0) <= limit
                and len(masks) == self.players - (finisher is not None)
                and (finisher is None or finisher not in masks and 0 not in masks.values())):
            return
        problems: list[Problem] = []
        add = problems.append
        for seat in self.seats:
            mask = masks.get(seat)
            value = pips.get(seat)
            if mask is not None:
                count = mask.bit_count()
                if count > limit:
                    add(Problem("hand_too_large", {"seat": seat, "count": count, "limit": limit},
                                {"seat": seat}))
                if not mask and finisher is not None and seat != finisher:
                    add(Problem("two_empty_hands", {"seat": seat}, {"seat": seat}))
            if value is not None:
                high = T.max_pips(limit if mask is None else mask.bit_count())
                if value < 0 or value > high:
                    add(Problem("pips_out_of_range", {"seat": seat, "pips": value, "limit": high},
                                {"seat": seat}))
                elif mask is not None:
                    actual = T.mask_pips(mask)
                    if actual != value:
                        add(Problem("pips_mismatch", {"seat": seat, "pips": value,
                                                      "actual": actual},
                                    {"seat": seat, "expected": actual}))
            if whole:
                if seat == finisher:
                    if mask or value:
                        add(Problem("finisher_has_tiles", {"seat": seat}, {"seat": seat}))
                elif mask is None and value is None:
                    add(Problem("missing_hand", {"seat": seat}, {"seat": seat}))
        if problems:
            problems.sort(key=_order)
            raise _Refused(problems)

    # --------------------------------------------------------- consistency
    def _check_consistency(self, state: MatchState, r: _Record) -> str | None:
        """Line, block, redeal, lead and finishing checks; returns who led this deal."""
        rules = self.rules
        problems: list[Problem] = []
        in_hands = r.off_table & ~(r.boneyard or 0)
        if r.result == "redeal":
            if not any(self._redeal_hand(m) for m in r.masks.values()):
                problems.append(Problem("not_a_redeal", {"doubles": rules.redeal_doubles,
                                                         "suit": rules.redeal_suit}))
        else:
            # The finisher's hand is known to be empty: the structure check refused anything else.
            finisher = r.by if r.result == "domino" else None
            masks = r.masks
            # Known tile by tile: every hand written (the finisher's is empty), and the boneyard.
            table_known = (
                len(masks) + (finisher is not None and finisher not in masks) == self.players
                and (not self.boneyard_start or r.boneyard is not None)
            )
            empty = None
            if r.result == "fish":
                empty = next((seat for seat, mask in masks.items() if not mask), None)
            if empty is not None:
                problems.append(Problem("not_blocked", {
                    "detail": f"seat {empty} has no tiles left: that is a domino",
                    "detail_ru": f"у места {empty} не осталось костей — это домино",
                }, {"seat": empty}))
            elif table_known:
                problem = self._line_problem(r, in_hands)
                if problem is not None:
                    problems.append(problem)
        leader = r.leader if r.leader is not None else state.leader
        if r.leader is not None and state.leader is not None and r.leader != state.leader:
            problems.append(Problem("wrong_leader", {"seat": r.leader,
                                                     "expected_seat": state.leader},
                                    {"seat": r.leader, "expected": state.leader}))
        if r.lead_tile is not None and r.result != "redeal" and (
            r.off_table >> r.lead_tile & 1 or self.ladder_first and state.counted == 0
        ):
            problem = self._lead_tile_problem(state, r, in_hands)
            if problem is not None:
                problems.append(problem)
        last = r.last_tiles
        if last is not None and r.result != "redeal" and (
            len(last) != 1 or r.off_table >> last[0] & 1
        ):
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

    def _line_problem(self, r: _Record, in_hands: int) -> Problem | None:
        """``not_a_line`` or ``not_blocked`` for a deal whose table is known tile by tile."""
        off = r.off_table
        low, high = off & _LOW_HALF, off >> T.HALF  # T.HALF_PARITY, T.HALF_EDGES
        odd = _PARITY_LOW[low] ^ _PARITY_HIGH[high]
        edges = _EDGES_LOW[low] | _EDGES_HIGH[high]
        # Numbers joined on the table: every pair (a, b) whose tile is not off the table.
        a0, a1, a2, a3 = 127 & ~edges, 127 & ~(edges >> 7), 127 & ~(edges >> 14), \
            127 & ~(edges >> 21)
        a4, a5, a6 = 127 & ~(edges >> 28), 127 & ~(edges >> 35), 127 & ~(edges >> 42)
        adjacency = (a0, a1, a2, a3, a4, a5, a6)
        present = ((a0 and 1) | (a1 and 2) | (a2 and 4) | (a3 and 8) | (a4 and 16)
                   | (a5 and 32) | (a6 and 64))
        if not present:
            return Problem("not_a_line", {"detail": "no tile is on the table",
                                           "detail_ru": "на столе нет ни одной кости"})
        # Usually one number touches all the others; only then is the search below needed.
        for v, adj in enumerate(adjacency):
            if adj and (adj | 1 << v) & present == present:
                reach = present
                break
        else:
            reach = present & -present
        frontier = reach if reach != present else 0
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            new = adjacency[low.bit_length() - 1] & ~reach
            reach |= new
            frontier |= new
        odd_count = odd.bit_count()
        if reach != present:
            return Problem("not_a_line", {
                "detail": "the tiles fall into separate groups",
                "detail_ru": "кости распадаются на несвязанные группы"})
        if odd_count > 2:
            numbers = ", ".join(str(v) for v in range(T.MAX_PIP + 1) if odd >> v & 1)
            return Problem("not_a_line", {
                "detail": f"{numbers} appear an odd number of times; a line has at most two ends",
                "detail_ru": f"{numbers} встречаются нечётное число раз, а у цепи только два конца",
            })
        if r.result != "fish":
            return None
        rules = self.rules
        if rules.draw and self.boneyard_start and r.boneyard is not None \
                and r.boneyard.bit_count() > rules.boneyard_keep:
            return Problem("not_blocked", {
                "detail": "tiles are left in the boneyard to draw",
                "detail_ru": "в базаре остались кости, их надо добирать"})
        suit = T.SUIT_MASK
        if odd_count == 2:
            a = (odd & -odd).bit_length() - 1
            b = odd.bit_length() - 1
            if in_hands & (suit[a] | suit[b]):
                return Problem("not_blocked", {
                    "detail": f"the ends {a} and {b} can still be matched from a hand",
                    "detail_ru": f"к концам {a} и {b} ещё можно приставить кость с руки",
                })
            return None
        for v in range(T.MAX_PIP + 1):
            if present >> v & 1 and not in_hands & suit[v]:
                return None
        return Problem("not_blocked", {
            "detail": "no number is played out at both ends (with four players a fish needs all "
                      "seven tiles of the end number on the table)",
            "detail_ru": "ни одно число не вышло полностью на обоих концах (вчетвером для «рыбы» "
                         "все семь костей концевого числа должны быть на столе)",
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
        if self.ladder_first and state.counted == 0 and t != _LADDER_FIRST:
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
        """Each side's hand values, with the lone-double values where they apply."""
        bonus = self.bonus_domino if r.result == "domino" else (
            self.bonus_fish if r.result == "fish" else None)
        values = dict.fromkeys(self.sides, 0)
        masks, pips = r.masks, r.pips
        pips_low, pips_high = _PIPS_LOW, _PIPS_HIGH
        for seat, side in self.seat_sides:
            mask = masks.get(seat)
            if mask is None:
                if pips:
                    values[side] += pips.get(seat, 0)
            elif bonus and mask in bonus:
                values[side] += bonus[mask]
            else:  # T.mask_pips, inline: this runs for every hand of every deal
                values[side] += pips_low[mask & _LOW_HALF] + pips_high[mask >> T.HALF]
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
                                  state.hanging, state.totals, next_leader)
            if apply:
                state.leader = next_leader
                self._time(state, r)
            return verdict

        winner: str | None
        if r.result == "domino":
            winner = self.side_of[r.by]  # type: ignore[index]  # a domino always has «by»
        else:
            low = min(values.values())
            lowest = [s for s in sides if values[s] == low]
            winner = lowest[0] if len(lowest) == 1 else None

        totals = dict(state.totals)
        hanging = state.hanging
        eggs = state.eggs
        eggs_claimed = 0
        discarded: dict[str, int] | None = None
        if winner is None:
            if rules.fish_tie == "eggs":
                eggs += sum(values.values())
            if self.hang:
                hanging = dict.fromkeys(sides, 0)
        else:
            # ``recorded`` first holds what the scoring gives each side, then what is written.
            own = values[winner] if r.result == "fish" and self.fish_difference else 0
            scoring = rules.scoring
            if scoring == "winner_takes_losers":
                recorded[winner] = sum(values.values()) - values[winner] - own
            elif scoring == "winner_takes_all":
                recorded[winner] = sum(values.values()) - (values[winner] + own if own else 0)
            else:
                for s in sides:
                    if s != winner:
                        recorded[s] = values[s] - own
            if eggs:
                receiver = winner if scoring != "losers_record_own" else max(
                    (s for s in sides if s != winner), key=values.__getitem__)
                recorded[receiver] += eggs
                eggs_claimed = eggs
                eggs = 0
            if self.hang:
                hanging = dict(hanging)
                for s in sides:
                    if hanging[s]:
                        if recorded[s] > 0:
                            recorded[s] += hanging[s]
                        hanging[s] = 0
            minimum = rules.min_record
            for s in sides:
                amount = recorded[s]
                if 0 < amount < minimum and (self.min_always or totals[s] == 0):
                    if self.hang:
                        hanging[s] = amount
                    else:
                        discarded = discarded or {}
                        discarded[s] = amount
                    recorded[s] = 0
                elif amount:
                    totals[s] += amount
            if rules.one_scorer:
                scorers = [s for s in sides if recorded[s] > 0]
                if scorers:
                    for s in sides:
                        if s not in scorers:
                            totals[s] = 0

        declared = r.declared
        if declared is not None and declared != recorded:
            if not declared.keys() <= self.side_set:
                _declared_refusal(declared, recorded)
            for s in sides:
                if declared.get(s, 0) != recorded[s]:
                    _declared_refusal(declared, recorded)

        if self.rotate:
            next_leader = self.next_seat[leader] if leader is not None else None
        else:
            next_leader = self._next_leader(r, leader, winner)
        instant = None
        if self.specials:
            instant = self._instant(state, r, leader, winner, totals)
        # The verdict and the state share these dicts: a later deal copies before it changes them.
        verdict = DealVerdict(n, True, [], winner, values, recorded, eggs, hanging, totals,
                              next_leader, eggs_claimed, discarded)
        if apply:
            state.totals = totals
            state.hanging = hanging
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

    def _instant(self, state: MatchState, r: _Record, leader: str | None, winner: str | None,
                 totals: dict[str, int]) -> str | None:
        """Морской козёл: out on 0:0 / 6:6, and «на сто». May zero ``totals`` of a failed «сто»."""
        rules = self.rules
        if rules.na_sto and r.lead_tile == T.SIX_SIX and leader is not None:
            side = self.side_of[leader]
            if state.totals[side] > 0:
                if r.result == "domino" and winner == side:
                    return side
                totals[side] = 0
        # Won «by laying» 0:0 or 6:6: the side whose player made the finishing move (going out,
        # or the blocking move of a fish it wins) takes the match.
        if (rules.instant_doubles and winner is not None and r.by is not None
                and self.side_of[r.by] == winner and r.last_tiles
                and (T.ZERO_ZERO in r.last_tiles or T.SIX_SIX in r.last_tiles)):
            return winner
        return None

    def _end(self, state: MatchState, r: _Record) -> None:
        rules = self.rules
        totals = state.totals
        if rules.end == "deals":
            if state.counted >= rules.deals:
                self._finish(state, "deals", self._leading(totals, list(self.sides)))
                return
        elif max(totals.values()) < rules.target:
            pass
        elif rules.end == "target_wins":
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
        if r.time_up or state.overtime:
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


_TOKEN_BIT = T.TOKEN_BIT
_SEPARATORS = T.SEPARATORS


def _bits(value: Any, where: str, problems: list[Problem]) -> list[int] | None:
    """The bit of each tile written in ``value``; a bad tile is reported and gives None."""
    if type(value) is str:
        text = value if "," not in value else value.translate(_SEPARATORS)
        try:
            return [_TOKEN_BIT[token] for token in text.split()]
        except KeyError:
            pass
    try:
        return [1 << t for t in _tiles_from(value)]
    except T.TileError as err:
        problems.append(_tile_problem(err, where))
        return None


_BIT_OF = T.TOKEN_BIT.__getitem__
_TOKEN_TILE = T.TOKEN_TILE
_LOW_HALF = (1 << T.HALF) - 1
_PIPS_LOW, _PIPS_HIGH = T.HALF_PIPS
_PARITY_LOW, _PARITY_HIGH = T.HALF_PARITY
_EDGES_LOW, _EDGES_HIGH = T.HALF_EDGES
_NO_PIPS: dict[str, int] = {}  # shared, never written: most records give tiles, not pips


def _read_hand(value: Any, seen: int, where: str, problems: list[Problem]) -> int | None:
    """The mask of a written hand; bad or repeated tiles are reported to ``problems``."""
    bits = _bits(value, where, problems)
    if bits is None:
        return None
    return _without_repeats(bits, seen, where, problems)


def _without_repeats(bits: list[int], seen: int, where: str, problems: list[Problem]) -> int:
    """The mask of ``bits``, reporting each tile written twice or already seen elsewhere."""
    mask = 0
    for bit in bits:
        if (mask | seen) & bit:
            problems.append(_dup(bit.bit_length() - 1, where))
        mask |= bit
    return mask


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


_CODE_ORDER = {code: i for i, code in enumerate(MESSAGES)}


def _order(problem: Problem) -> int:
    """Problems are listed in the order of RULES.md section 12."""
    return _CODE_ORDER[problem.code]


def _bad(detail: str, detail_ru: str) -> Problem:
    return Problem("bad_deal", {"detail": detail, "detail_ru": detail_ru})


def _tile_problem(err: T.TileError, where: str) -> Problem:
    return Problem(err.code, {"seat": where, "tile": err.token},
                   {"seat": where, "tile": err.token})


def _dup(t: int, where: str) -> Problem:
    return Problem("duplicate_tile", {"seat": where, "tile": T.NAMES[t]},
                   {"seat": where, "tile": T.NAMES[t]})
