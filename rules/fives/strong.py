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
from .table import END_NAMES as _END_NAMES
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

    lead_seat = play[0][1]
    if d.leader is not None and lead_seat != d.leader:
        raise refuse("not_your_turn", {"entry": 1, "seat": lead_seat,
                                       "expected_seat": d.leader}, entry=1, seat=lead_seat)
    if expected_leader is not None and lead_seat != expected_leader:
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
            t = a
            bit = 1 << t
            if on_table & bit:
                raise refuse("tile_already_played", {"entry": i + 1, "tile": T.NAMES[t]},
                             entry=i + 1, seat=seat, tile=T.NAMES[t])
            if off & bit:
                raise refuse("duplicate_tile", {"tile": T.NAMES[t], "seat": seat},
                             entry=i + 1, seat=seat, tile=T.NAMES[t])
            if i == 0:
                if b != NO_END:
                    raise refuse("bad_end", {"entry": 1, "tile": T.NAMES[t],
                                             "detail": "the lead has no end",
                                             "detail_ru": "у захода нет конца"},
                                 entry=1, seat=seat, tile=T.NAMES[t])
                count = table.lead(t)
                end_name = None
            else:
                try:
                    end = table.resolve(t, b)
                except LayError as err:
                    raise refuse(err.code, {"entry": i + 1, "tile": T.NAMES[t], "end": err.end,
                                            "detail": err.detail, "detail_ru": err.detail_ru},
                                 entry=i + 1, seat=seat, tile=T.NAMES[t]) from None
                count = table.lay(t, end)
                end_name = _END_NAMES[end]
            scored = count if count % 5 == 0 and count else 0
            if c is not None and c != scored:
                raise refuse("points_mismatch", {"entry": i + 1, "tile": T.NAMES[t],
                                                 "points": c, "expected": scored},
                             entry=i + 1, seat=seat, tile=T.NAMES[t], expected=scored)
            on_table |= bit
            side = side_of[seat]
            if scored:
                points[side] += scored
            moves.append({"seat": seat, "tile": T.NAMES[t], "end": end_name,
                          "count": count, "points": scored})
            passes = 0
            counts[seat] -= 1
            if not counts[seat]:
                ended, out_seat = "domino", seat
            elif target and totals[side] + points[side] >= target:
                ended, reached = "target", side
            turn = turn + 1 if turn + 1 < players else 0
        elif kind == DRAW:
            if b > left - drawn:
                raise refuse("bad_draw", {"detail": f"entry {i + 1} takes {b}, "
                                                    f"{left - drawn} are left to draw",
                                          "detail_ru": f"запись {i + 1}: взято {b}, "
                                                       f"а можно взять {left - drawn}"},
                             entry=i + 1, seat=seat)
            if a:
                again = a & (drawn_mask | on_table)
                if c or again:
                    name = T.NAMES[(again or a).bit_length() - 1]
                    raise refuse("draw_mismatch", {"tile": name, "seat": seat,
                                                   "detail": "drawn twice, or already on the "
                                                             "table",
                                                   "detail_ru": "взята дважды или уже на столе"},
                                 entry=i + 1, seat=seat, tile=name)
                drawn_mask |= a
            drawn += b
            counts[seat] += b
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
    return Played(moves, points, lead_seat, reached)


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
        laid_by = {e[2]: e[1] for e in play if e[0] == MOVE}
        held_by = {t: seat for seat, mask in masks.items() for t in _bits(mask & drawn_mask)}
        in_boneyard = d.boneyard or 0
        for kind, seat, mask, _, _ in play:
            if kind != DRAW or not mask:
                continue
            own = masks.get(seat, 0 if seat == d.finisher else -1)
            for t in _bits(mask):
                layer = laid_by.get(t)
                holder = held_by.get(t, seat)
                wrong = (layer is not None and layer != seat) or holder != seat \
                    or in_boneyard >> t & 1 or (layer is None and own >= 0 and not own >> t & 1)
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


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _check_could_play(rules: FivesRules, d: Deal, play: list[Entry],
                      numbers_at: dict[int, int], out: bool) -> None:
    """A seat drew or passed while it held a tile that fitted (where its hand is known)."""
    hands: dict[str, int] = {}
    for seat in rules.seats:
        if seat in d.masks:
            hands[seat] = d.masks[seat]
        elif out and seat == d.finisher:
            hands[seat] = 0
    for kind, seat, mask, _, _ in play:
        if kind == DRAW and not mask:
            hands.pop(seat, None)  # a counted draw hides which tiles the seat held
    if not hands:
        return
    found: tuple[int, str, int] | None = None
    for i in range(len(play) - 1, -1, -1):
        kind, seat, a, _, _ = play[i]
        hand = hands.get(seat)
        if hand is None:
            continue
        if kind == MOVE:
            hands[seat] = hand | 1 << a
            continue
        if kind == DRAW:
            hand &= ~a
            hands[seat] = hand
        fit = hand & FITS[numbers_at[i]]
        if fit:
            found = (i, seat, fit)
    if found is not None:
        i, seat, fit = found
        name = T.NAMES[fit.bit_length() - 1]
        raise refuse("could_play", {"entry": i + 1, "seat": seat, "tile": name},
                     entry=i + 1, seat=seat, tile=name)

