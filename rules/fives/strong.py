"""Judging a line of play, the strong form (RULES.md sections 17, 18 and 21, steps 3–4).

``judge_play`` lays every entry on a ``FivesTable`` in order and stops at the first faulty one
(``play_after_end``, ``not_your_turn``, ``wrong_leader``, ``tile_already_played``,
``duplicate_tile``, ``bad_end``, ``tile_does_not_match_end``, ``points_mismatch``, ``bad_draw``,
``draw_mismatch``, ``must_draw``). Then ``after`` checks what the whole play says: the result,
the boneyard, the drawn tiles, the size of each hand and, where a seat's hand is known at every
draw and pass, that it could not have played instead (``could_play``). This loop is the fives
judge's hot path: it works on tile indexes and bit masks, keeps per seat what those checks need
(the tiles laid and drawn, a ``Stop`` at each draw and pass) so that they need not walk the
entries again, and builds nothing else it does not return.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import tiles as T
from .after import PlayLog, Stop, check_after, check_could_play, check_result
from .presets import FivesRules
from .table import END_NAMES as _END_NAMES
from .table import NO_END, FivesTable, LayError
from .telefon import check_first_lead, lay_doubles
from .types import DRAW, MOVE, PASS, Deal, Entry, refuse


@dataclass(slots=True)
class Played:
    """What a legal line of play did."""

    moves: list[dict[str, Any]]
    play_points: dict[str, int]
    leader: str
    #: the side that reached the target at the last move (``target_check: move``), else None
    reached: str | None


def judge_play(rules: FivesRules, d: Deal, totals: dict[str, int], expected_leader: str | None,
               side_of: dict[str, str], zero_zero_leads: bool = False) -> Played:
    """``zero_zero_leads``: the holder of 0:0 leads this deal (``telefon``'s first, section 32)."""
    play: list[Entry] = d.play or []
    seats = rules.seats
    players = len(seats)
    table = FivesTable(rules)
    # Per seat, by its index in ``seats`` (which is ``turn`` at its entries): lists, not dicts
    # keyed by seat, because the loop reads them at every entry.
    in_hand = [rules.hand_size] * players
    laid = [0] * players  # the tiles each seat has laid so far
    drew = [0] * players  # the tiles each seat has drawn so far (draws that name them)
    side_at = [side_of[seat] for seat in seats]
    counted = 0  # bit per seat index: the seat made a draw that only counts its tiles
    points = dict.fromkeys(rules.sides, 0)
    off = d.boneyard or 0  # tiles that the record puts in a hand or the boneyard at the end
    for mask in d.masks.values():
        off |= mask
    on_table = drawn_mask = drawn = passes = 0
    left = rules.drawable
    target = rules.target if rules.target_check == "move" else 0
    # A move that scores nothing leaves its side's sum as it was at the side's last move, which
    # was below the target, so only scoring moves are checked; unless a side starts the deal at
    # the target (a state given from outside), whose first move then stops the play.
    at_target = bool(target) and max(totals.values(), default=0) >= target
    moves: list[dict[str, Any]] = []
    # each draw and pass, for ``could_play``: what the seat's hand was then follows from these
    stops: list[Stop] = []
    ended = ""
    reached: str | None = None
    out_seat = ""
    names = T.NAMES
    weight = table.weight  # the count after a move is their sum

    lead_seat = play[0][1]
    if d.leader is not None and lead_seat != d.leader:
        raise refuse("not_your_turn", {"entry": 1, "seat": lead_seat,
                                       "expected_seat": d.leader}, entry=1, seat=lead_seat)
    if zero_zero_leads:
        check_first_lead(rules, d, play)
    elif expected_leader is not None and lead_seat != expected_leader:
        raise refuse("wrong_leader", {"seat": lead_seat, "expected_seat": expected_leader},
                     entry=1, seat=lead_seat, expected=expected_leader)
    turn = seats.index(lead_seat)
    end_name: str | None
    for i, (kind, seat, a, b, c) in enumerate(play):
        if ended:
            raise refuse("play_after_end", _ENDED[ended], entry=i + 1, seat=seat)
        if seat != seats[turn]:
            raise refuse("not_your_turn", {"entry": i + 1, "seat": seat,
                                           "expected_seat": seats[turn]}, entry=i + 1, seat=seat)
        if kind == MOVE:
            bit = 1 << a
            if (on_table | off) & bit:
                if on_table & bit:
                    raise refuse("tile_already_played", {"entry": i + 1, "tile": names[a]},
                                 entry=i + 1, seat=seat, tile=names[a])
                raise refuse("duplicate_tile", {"tile": names[a], "seat": seat},
                             entry=i + 1, seat=seat, tile=names[a])
            if i:
                try:
                    end = table.place(a, b)
                except LayError as err:
                    raise refuse(err.code, {"entry": i + 1, "tile": names[a], "end": err.end,
                                            "detail": err.detail, "detail_ru": err.detail_ru},
                                 entry=i + 1, seat=seat, tile=names[a]) from None
                count = weight[0] + weight[1] + weight[2] + weight[3]
                end_name = _END_NAMES[end]
            else:
                if b != NO_END:
                    raise refuse("bad_end", {"entry": 1, "tile": names[a],
                                             "detail": "the lead has no end",
                                             "detail_ru": "у захода нет конца"},
                                 entry=1, seat=seat, tile=names[a])
                count = table.lead(a)
                end_name = None
            scored = count if count % 5 == 0 and count else 0
            if c is not None and c != scored:
                raise refuse("points_mismatch", {"entry": i + 1, "tile": names[a],
                                                 "points": c, "expected": scored},
                             entry=i + 1, seat=seat, tile=names[a], expected=scored)
            on_table |= bit
            laid[turn] |= bit
            moves.append({"seat": seat, "tile": names[a], "end": end_name,
                          "count": count, "points": scored})
            passes = 0
            side = side_at[turn]
            if scored:
                points[side] += scored
            held = in_hand[turn] - 1
            in_hand[turn] = held
            if not held:
                ended, out_seat = "domino", seat
            elif target and (scored or at_target) and totals[side] + points[side] >= target:
                ended, reached = "target", side
            turn = turn + 1 if turn + 1 < players else 0
        elif kind == DRAW:
            if b > left - drawn:
                raise refuse("bad_draw", {"detail": f"entry {i + 1} takes {b}, "
                                                    f"{left - drawn} are left to draw",
                                          "detail_ru": f"запись {i + 1}: взято {b}, "
                                                       f"а можно взять {left - drawn}"},
                             entry=i + 1, seat=seat)
            stops.append((i, turn, table.numbers(), laid[turn], drew[turn]))
            if a:
                again = a & (drawn_mask | on_table)
                if c or again:
                    name = names[(again or a).bit_length() - 1]
                    raise refuse("draw_mismatch", {"tile": name, "seat": seat,
                                                   "detail": "drawn twice, or already on the "
                                                             "table",
                                                   "detail_ru": "взята дважды или уже на столе"},
                                 entry=i + 1, seat=seat, tile=name)
                drawn_mask |= a
                drew[turn] |= a
            else:
                counted |= 1 << turn
            drawn += b
            in_hand[turn] += b
        elif kind == PASS:
            if drawn < left:
                raise refuse("must_draw", {"entry": i + 1, "seat": seat, "left": left - drawn},
                             entry=i + 1, seat=seat)
            stops.append((i, turn, table.numbers(), laid[turn], drew[turn]))
            passes += 1
            if passes == players:
                ended = "fish"
            turn = turn + 1 if turn + 1 < players else 0
        else:  # several doubles in one move (``telefon``, section 32)
            announced, tiles, codes = c
            ends, bits = lay_doubles(table, i, seat, tiles, codes, on_table, off)
            count = weight[0] + weight[1] + weight[2] + weight[3]
            scored = count if count % 5 == 0 and count else 0
            if announced is not None and announced != scored:
                raise refuse("points_mismatch", {"entry": i + 1, "tile": names[tiles[0]],
                                                 "points": announced, "expected": scored},
                             entry=i + 1, seat=seat, expected=scored)
            on_table |= bits
            laid[turn] |= bits
            moves.append({"seat": seat, "tiles": [names[t] for t in tiles], "ends": ends,
                          "count": count, "points": scored})
            passes = 0
            side = side_at[turn]
            points[side] += scored
            held = in_hand[turn] - len(tiles)
            if held < 0:  # more doubles than the seat held (a reading of section 32)
                raise refuse("hand_too_small", {"seat": seat, "count": in_hand[turn],
                                                "expected": len(tiles)},
                             entry=i + 1, seat=seat, expected=len(tiles))
            in_hand[turn] = held
            if not held:
                ended, out_seat = "domino", seat
            elif target and (scored or at_target) and totals[side] + points[side] >= target:
                ended, reached = "target", side
            turn = turn + 1 if turn + 1 < players else 0

    check_result(d, ended, out_seat, rules.target)
    log = PlayLog(in_hand, laid, drew, counted, on_table, drawn, drawn_mask, stops)
    check_after(rules, d, play, log)
    if stops:
        check_could_play(rules, d, log, ended == "domino")
    return Played(moves, points, lead_seat, reached)


_ENDED = {
    "domino": {"detail": "a seat went out", "detail_ru": "игрок уже вышел"},
    "fish": {"detail": "every seat passed (a fish)", "detail_ru": "все пропустили ход (рыба)"},
    "target": {"detail": "a side reached the target", "detail_ru": "сторона уже набрала цель"},
}
