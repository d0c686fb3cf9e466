"""Judging a line of play, the strong form (RULES.md sections 17, 18 and 21, steps 3–4).

``judge_play`` lays every entry on a ``FivesTable`` in order and stops at the first faulty one
(``play_after_end``, ``not_your_turn``, ``wrong_leader``, ``tile_already_played``,
``duplicate_tile``, ``bad_end``, ``tile_does_not_match_end``, ``points_mismatch``, ``bad_draw``,
``draw_mismatch``, ``must_draw``). Then it checks what the whole play says: the result, the
boneyard, the drawn tiles, the size of each hand and, where a seat's hand is known at every draw
and pass, that it could not have played instead (``could_play``). This loop is the fives judge's
hot path: it works on tile indexes and bit masks and builds nothing it does not return.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import tiles as T
from .presets import FivesRules
from .table import FITS, NO_END, FivesTable, LayError
from .types import DRAW, MOVE, Deal, Entry, refuse


@dataclass(slots=True)
class Played:
    """What a legal line of play did."""

    moves: list[dict[str, Any]]
    play_points: dict[str, int]
    leader: str
    #: the side that reached the target at the last move (``target_check: move``), else None
    reached: str | None


def judge_play(rules: FivesRules, d: Deal, totals: dict[str, int], expected_leader: str | None,
               side_of: dict[str, str]) -> Played:
    play: list[Entry] = d.play or []
    seats = rules.seats
    players = len(seats)
    table = FivesTable(rules)
    counts = dict.fromkeys(seats, rules.hand_size)
    points = dict.fromkeys(rules.sides, 0)
    off = d.boneyard or 0  # tiles that the record puts in a hand or the boneyard at the end
    for mask in d.masks.values():
        off |= mask
    on_table = drawn_mask = drawn = passes = 0
    left = rules.drawable
    target = rules.target if rules.target_check == "move" else 0
    moves: list[dict[str, Any]] = []
    numbers_at: dict[int, int] = {}  # entry index -> the open numbers, at each draw and pass
    ended = ""
    reached: str | None = None
    out_seat = ""

    first = play[0]
    if d.leader is not None and first.seat != d.leader:
        raise refuse("not_your_turn", {"entry": 1, "seat": first.seat,
                                       "expected_seat": d.leader}, entry=1, seat=first.seat)
    if expected_leader is not None and first.seat != expected_leader:
        raise refuse("wrong_leader", {"seat": first.seat, "expected_seat": expected_leader},
                     entry=1, seat=first.seat, expected=expected_leader)
    turn = seats.index(first.seat)
    for i, e in enumerate(play):
        seat = e.seat
        if ended:
            raise refuse("play_after_end", _ENDED[ended], entry=i + 1, seat=seat)
        if seat != seats[turn]:
            raise refuse("not_your_turn", {"entry": i + 1, "seat": seat,
                                           "expected_seat": seats[turn]}, entry=i + 1, seat=seat)
        kind = e.kind
        if kind == MOVE:
            t = e.a
            bit = 1 << t
            if on_table & bit:
                raise refuse("tile_already_played", {"entry": i + 1, "tile": T.NAMES[t]},
                             entry=i + 1, seat=seat, tile=T.NAMES[t])
            if off & bit:
                raise refuse("duplicate_tile", {"tile": T.NAMES[t], "seat": seat},
                             entry=i + 1, seat=seat, tile=T.NAMES[t])
            if i == 0:
                if e.b != NO_END:
                    raise refuse("bad_end", {"entry": 1, "tile": T.NAMES[t],
                                             "detail": "the lead has no end",
                                             "detail_ru": "у захода нет конца"},
                                 entry=1, seat=seat, tile=T.NAMES[t])
                laid = table.lead(t)
            else:
                try:
                    end = table.resolve(t, e.b)
                except LayError as err:
                    raise refuse(err.code, {"entry": i + 1, "tile": T.NAMES[t], "end": err.end,
                                            "detail": err.detail, "detail_ru": err.detail_ru},
                                 entry=i + 1, seat=seat, tile=T.NAMES[t]) from None
                laid = table.lay(t, end)
            scored = laid.points
            if e.c is not None and e.c != scored:
                raise refuse("points_mismatch", {"entry": i + 1, "tile": T.NAMES[t],
                                                 "points": e.c, "expected": scored},
                             entry=i + 1, seat=seat, tile=T.NAMES[t], expected=scored)
            on_table |= bit
            side = side_of[seat]
            if scored:
                points[side] += scored
            moves.append({"seat": seat, "tile": T.NAMES[t], "end": laid.end,
                          "count": laid.count, "points": scored})
            passes = 0
            counts[seat] -= 1
            if not counts[seat]:
                ended, out_seat = "domino", seat
            elif target and totals[side] + points[side] >= target:
                ended, reached = "target", side
            turn = turn + 1 if turn + 1 < players else 0
        elif kind == DRAW:
            if e.b > left - drawn:
                raise refuse("bad_draw", {"detail": f"entry {i + 1} takes {e.b}, "
                                                    f"{left - drawn} are left to draw",
                                          "detail_ru": f"запись {i + 1}: взято {e.b}, "
                                                       f"а можно взять {left - drawn}"},
                             entry=i + 1, seat=seat)
            if e.a:
                again = e.a & (drawn_mask | on_table)
                if e.c or again:
                    name = T.NAMES[(again or e.a).bit_length() - 1]
                    raise refuse("draw_mismatch", {"tile": name, "seat": seat,
                                                   "detail": "drawn twice, or already on the "
                                                             "table",
                                                   "detail_ru": "взята дважды или уже на столе"},
                                 entry=i + 1, seat=seat, tile=name)
                drawn_mask |= e.a
            drawn += e.b
            counts[seat] += e.b
            numbers_at[i] = table.numbers()
        else:
            if drawn < left:
                raise refuse("must_draw", {"entry": i + 1, "seat": seat, "left": left - drawn},
                             entry=i + 1, seat=seat)
            numbers_at[i] = table.numbers()
            passes += 1
            if passes == players:
                ended = "fish"
            turn = turn + 1 if turn + 1 < players else 0

    _check_result(d, ended, out_seat, rules.target)
    _check_after(rules, d, play, counts, drawn, drawn_mask)
    if numbers_at:
        _check_could_play(rules, d, play, numbers_at, ended == "domino")
    return Played(moves, points, first.seat, reached)


_ENDED = {
    "domino": {"detail": "a seat went out", "detail_ru": "игрок уже вышел"},
    "fish": {"detail": "every seat passed (a fish)", "detail_ru": "все пропустили ход (рыба)"},
    "target": {"detail": "a side reached the target", "detail_ru": "сторона уже набрала цель"},
}


def _check_result(d: Deal, ended: str, out_seat: str, target: int) -> None:
    if d.result == "domino":
        if ended != "domino" or (d.by is not None and d.by != out_seat):
            seat = d.finisher
            raise refuse("finisher_has_tiles", {"seat": seat}, seat=seat)
    elif d.result == "fish":
        if ended != "fish":
            raise refuse("not_blocked", {"detail": "the play does not end with every seat passing",
                                         "detail_ru": "запись ходов не кончается пропусками "
                                                      "всех игроков"})
    elif ended != "target":
        raise refuse("target_not_reached", {"target": target})


def _check_after(rules: FivesRules, d: Deal, play: list[Entry], counts: dict[str, int],
                 drawn: int, drawn_mask: int) -> None:
    """The boneyard, the drawn tiles and each hand's size against what the play leaves."""
    masks = d.masks
    if d.boneyard is not None:
        undrawn = rules.boneyard_size - drawn
        if d.boneyard.bit_count() != undrawn:
            raise refuse("bad_draw", {"detail": f"the boneyard lists {d.boneyard.bit_count()} "
                                                f"tiles, the draws leave {undrawn}",
                                      "detail_ru": f"в базаре записано "
                                                   f"{d.boneyard.bit_count()}, а после добора "
                                                   f"остаётся {undrawn}"})
    if drawn_mask:
        laid_by = {e.a: e.seat for e in play if e.kind == MOVE}
        for e in play:
            if e.kind != DRAW or not e.a:
                continue
            mask, seat = e.a, e.seat
            own = masks.get(seat, 0 if seat == d.finisher else -1)
            elsewhere = d.boneyard or 0
            for other, held in masks.items():
                if other != seat:
                    elsewhere |= held
            for t in T.tiles_of(mask):
                layer = laid_by.get(t)
                wrong = (layer is not None and layer != seat) or elsewhere >> t & 1 or (
                    layer is None and own >= 0 and not own >> t & 1)
                if wrong:
                    raise refuse("draw_mismatch", {"tile": T.NAMES[t], "seat": seat,
                                                   "detail": "it is laid by another seat, held "
                                                             "by another, or not in the hand",
                                                   "detail_ru": "её выставил другой, она у "
                                                                "другого или её нет на руке"},
                                 seat=seat, tile=T.NAMES[t])
    for seat in rules.seats:
        if seat in masks:
            count, expected = masks[seat].bit_count(), counts[seat]
            if count != expected:
                code = "hand_too_large" if count > expected else "hand_too_small"
                raise refuse(code, {"seat": seat, "count": count, "limit": expected,
                                    "expected": expected}, seat=seat, expected=expected)
    for seat, pips in d.pips.items():
        if seat not in masks:
            limit = T.max_pips(counts[seat])
            if pips > limit:
                raise refuse("pips_out_of_range", {"seat": seat, "pips": pips, "limit": limit},
                             seat=seat)


def _check_could_play(rules: FivesRules, d: Deal, play: list[Entry],
                      numbers_at: dict[int, int], out: bool) -> None:
    """A seat drew or passed while it held a tile that fitted (where its hand is known)."""
    hands: dict[str, int] = {}
    for seat in rules.seats:
        if seat in d.masks:
            hands[seat] = d.masks[seat]
        elif out and seat == d.finisher:
            hands[seat] = 0
    for e in play:
        if e.kind == DRAW and not e.a:
            hands.pop(e.seat, None)  # a counted draw hides which tiles the seat held
    if not hands:
        return
    found: tuple[int, str, int] | None = None
    for i in range(len(play) - 1, -1, -1):
        e = play[i]
        seat = e.seat
        hand = hands.get(seat)
        if hand is None:
            continue
        if e.kind == MOVE:
            hands[seat] = hand | 1 << e.a
            continue
        if e.kind == DRAW:
            hand &= ~e.a
            hands[seat] = hand
        fit = hand & FITS[numbers_at[i]]
        if fit:
            found = (i, seat, fit)
    if found is not None:
        i, seat, fit = found
        name = T.NAMES[fit.bit_length() - 1]
        raise refuse("could_play", {"entry": i + 1, "seat": seat, "tile": name},
                     entry=i + 1, seat=seat, tile=name)

