"""What «Телефон» (``telefon``, RULES.md section 32) adds to the fives judge.

Several doubles laid in one move (``lay_doubles``: ``bad_multi_move``, then each double checked
as a single move is), the first lead by the holder of 0:0 (``zero_zero_holder``), the end of a
deal by the losers' write-off with totals floored at 0 (``write_off_score``), the next leader
(who went out; after a fish, the seat of the last move); the match's ``losers`` (section 34)
are ``types.losers``.
The table's «дом» lives in ``table.FivesTable``; the judge's stages call these where the older
fives games do their own.
"""

from __future__ import annotations

from typing import Any

from .. import tiles as T
from .presets import FivesRules
from .table import END_NAMES, FivesTable, LayError, check_doubles
from .types import MOVE, MULTI, Deal, Entry, FivesState, refuse


def lay_doubles(table: FivesTable, i: int, seat: str, tiles: list[int], codes: list[int],
                on_table: int, off: int) -> tuple[list[str], int]:
    """Lays a several-doubles move of entry ``i`` (from 0) on ``table``: its end names and the
    tiles' mask. Raises ``Refused`` in section 32's order: ``bad_multi_move``, then for each
    double ``tile_already_played``, ``duplicate_tile``, ``bad_end``, ``tile_does_not_match_end``.
    """
    names = T.NAMES
    try:
        check_doubles(tiles, codes)
    except LayError:
        raise refuse("bad_multi_move", {"entry": i + 1, "tiles": " ".join(names[t] for t in tiles)},
                     entry=i + 1, seat=seat) from None
    mask = 0
    for t, code in zip(tiles, codes, strict=True):
        bit = 1 << t
        if on_table & bit:
            raise refuse("tile_already_played", {"entry": i + 1, "tile": names[t]},
                         entry=i + 1, seat=seat, tile=names[t])
        if off & bit:
            raise refuse("duplicate_tile", {"tile": names[t], "seat": seat},
                         entry=i + 1, seat=seat, tile=names[t])
        mask |= bit
        try:
            if not table.moves:  # the lead is one tile: no end is open yet
                raise LayError("bad_end", "the lead is one tile", "заход — одна кость")
            table.resolve(t, code)
        except LayError as err:
            raise refuse(err.code, {"entry": i + 1, "tile": names[t], "end": err.end,
                                    "detail": err.detail, "detail_ru": err.detail_ru},
                         entry=i + 1, seat=seat, tile=names[t]) from None
    return [END_NAMES[e] for e in table.place_doubles(tiles, codes)], mask


def zero_zero_holder(d: Deal) -> str | None:
    """The seat the record shows holding 0:0 (laid by it, or in its hand written as tiles); None
    when the record does not show it, or shows it more than once (the later checks refuse that)."""
    zz = T.ZERO_ZERO
    holders = [seat for seat, mask in d.masks.items() if mask >> zz & 1]
    for kind, seat, a, _, c in d.play or []:
        if (kind == MOVE and a == zz) or (kind == MULTI and zz in c[1]):
            holders.append(seat)
    return holders[0] if len(holders) == 1 else None


def check_first_lead(rules: FivesRules, d: Deal, play: list[Entry]) -> None:
    """Section 32: with four players (every tile dealt), the match's first accepted deal is led
    by the seat that held 0:0, where the line of play or the hands show it."""
    holder = zero_zero_holder(d)
    lead_seat = play[0][1]
    if holder is not None and holder != lead_seat:
        raise refuse("wrong_leader", {"seat": lead_seat, "expected_seat": holder},
                     entry=1, seat=lead_seat, expected=holder)


def checks_first_lead(rules: FivesRules, state: FivesState) -> bool:
    """Whether the next deal's leader is checked by 0:0 (four players, nothing accepted yet)."""
    return rules.first_lead == "double_zero" and rules.boneyard_size == 0 and not state.accepted


def write_off_score(rules: FivesRules, d: Deal, values: dict[str, int], winner: str | None,
                    totals: dict[str, int],
                    play_points: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """``deal_end: write_off``: each losing side's value rounded by ``bonus_round``, and what
    each side records (the change of its total, which never goes below 0). The losers are every
    side but the finisher's in a domino, every side above the lowest value in a fish."""
    write_off = dict.fromkeys(values, 0)
    if d.result == "domino":
        losing = [s for s in values if s != winner]
    elif d.result == "fish":
        low = min(values.values())
        losing = [s for s in values if values[s] > low]
    else:
        losing = []  # a stop at the target: nothing is written off
    how = rules.bonus_round
    for side in losing:
        v = values[side]
        write_off[side] = (v + 2) // 5 * 5 if how == "nearest" else v // 5 * 5 if how == "down" \
            else (v + 4) // 5 * 5 if how == "up" else v
    recorded = {s: max(totals[s] + play_points[s] - write_off[s], 0) - totals[s] for s in values}
    return write_off, recorded


def next_leader(d: Deal, played_moves: list[dict[str, Any]]) -> str | None:
    """«начинает игру тот, кто закончил предыдущую»: who went out; after a fish the seat of the
    last move (the light form: ``by`` when given); none after a stop at the target."""
    if d.result == "domino":
        return d.finisher
    if d.result == "fish":
        if d.play is not None:
            return str(played_moves[-1]["seat"]) if played_moves else None
        return d.by
    return None
