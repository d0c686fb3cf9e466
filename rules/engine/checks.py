"""The tile-level checks of a deal once it is read: first its structure, then its consistency.

Structure: the size of each hand, a missing hand, tiles left to the finisher, two empty hands, pips
that disagree with the tiles or are out of range. Consistency: the line on the table, a fish that
is not blocked, a redeal no hand qualifies for, the leader, the lead tile and the finishing tiles.
Each stage refuses the deal with every problem it finds.
"""

from __future__ import annotations

from .. import tiles as T
from ..errors import MESSAGES, Problem
from .reading import RecordReader
from .types import MatchState, _Record, _Refused

_LADDER_FIRST = T.INDEX[(1, 1)]
_LOW_HALF = (1 << T.HALF) - 1
_PARITY_LOW, _PARITY_HIGH = T.HALF_PARITY
_EDGES_LOW, _EDGES_HIGH = T.HALF_EDGES


class DealChecks(RecordReader):
    """Checks a read deal's hands and table; refuses it with every problem of the stage."""

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


_CODE_ORDER = {code: i for i, code in enumerate(MESSAGES)}


def _order(problem: Problem) -> int:
    """Problems are listed in the order of RULES.md section 12."""
    return _CODE_ORDER[problem.code]
