"""The hands at the end of a fives deal, before the play is read (RULES.md section 21, step 2).

``check_hands`` refuses a record whose hands cannot be right whatever the play was:
``missing_hand``, ``finisher_has_tiles``, in the light form ``hand_too_large`` and
``two_empty_hands``, ``pips_mismatch``, ``pips_out_of_range`` and ``not_blocked``. ``seat_values``
gives each seat's pips (tiles where written, else the count).
"""

from __future__ import annotations

from .. import tiles as T
from .presets import FivesRules
from .types import Deal, refuse

_LOW_PIPS, _HIGH_PIPS = T.HALF_PIPS
_LOW = (1 << T.HALF) - 1


def seat_values(rules: FivesRules, d: Deal) -> dict[str, int]:
    masks, pips = d.masks, d.pips
    out = {}
    for seat in rules.seats:
        mask = masks.get(seat)
        # ``tiles.mask_pips`` inline: two table look-ups, without a call per seat
        out[seat] = pips.get(seat, 0) if mask is None \
            else _LOW_PIPS[mask & _LOW] + _HIGH_PIPS[mask >> T.HALF]
    return out


def check_hands(rules: FivesRules, d: Deal) -> None:
    light = d.play is None
    masks, pips, finisher = d.masks, d.pips, d.finisher
    seats = rules.seats
    if d.result != "target":  # a stop at the target needs no hands (section 20)
        for seat in seats:
            if seat != finisher and seat not in masks and seat not in pips:
                raise refuse("missing_hand", {"seat": seat}, seat=seat)
    if finisher is not None and (masks.get(finisher, 0) or pips.get(finisher, 0) > 0):
        raise refuse("finisher_has_tiles", {"seat": finisher}, seat=finisher)
    # The most a hand can hold when the play is not known: all it was dealt and all it could draw.
    most = rules.hand_size + rules.drawable
    if light:
        for seat in seats:
            count = masks.get(seat, 0).bit_count()
            if count > most:
                raise refuse("hand_too_large", {"seat": seat, "count": count, "limit": most},
                             seat=seat)
        if d.result == "domino":
            for seat in d.empty:
                if seat != finisher:
                    raise refuse("two_empty_hands", {"seat": seat}, seat=seat)
    for seat, count in pips.items():
        if seat in masks:
            actual = T.mask_pips(masks[seat])
            if actual != count:
                raise refuse("pips_mismatch", {"seat": seat, "actual": actual, "pips": count},
                             seat=seat, expected=actual)
    for seat, count in pips.items():
        limit = T.max_pips(most)
        if count < 0 or (light and count > limit):
            raise refuse("pips_out_of_range", {"seat": seat, "pips": count, "limit": limit},
                         seat=seat)
    if d.result == "fish":
        if d.empty:
            seat = d.empty[0]
            raise refuse("not_blocked", {"detail": f"seat {seat} has no tiles left (a domino)",
                                         "detail_ru": f"у места {seat} не осталось костей "
                                                      f"(это домино)"}, seat=seat)
        if light and d.boneyard is not None and d.boneyard.bit_count() > rules.boneyard_keep:
            left = d.boneyard.bit_count()
            raise refuse("not_blocked", {"detail": f"{left} tiles are still in the boneyard",
                                         "detail_ru": f"в базаре ещё {left} костей"})
