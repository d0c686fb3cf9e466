"""Hand values of the club games (RULES.md section 28): what a hand left at the end is worth.

A hand is a tile mask (``rules.tiles``) or, where only a pip count was written, that count (its
value is its pips: ``chechevo`` and ``semerka`` refuse such hands with ``tiles_needed``).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import tiles as T
from .presets import ClubRules

_ZZ = 1 << T.ZERO_ZERO
_SS = 1 << T.SIX_SIX
_DOUBLES = T.DOUBLE_MASK

#: value(mask, domino) of one hand
HandValue = Callable[[int, bool], int]


def hand_value_of(rules: ClubRules) -> HandValue:
    """The function that values one hand under ``rules``."""
    pips = T.mask_pips
    preset = rules.preset
    if preset == "dvorovoe" or preset == "osel":
        bonus = rules.bonus_zero if preset == "dvorovoe" else 25

        def plain(mask: int, domino: bool) -> int:
            if mask == _ZZ and domino and bonus is not None:
                return bonus
            return pips(mask)
        return plain
    if preset == "kozel_morskoy":
        on_fish = rules.bonus_on_fish

        def sea(mask: int, domino: bool) -> int:
            if domino or on_fish:
                if mask == _ZZ:
                    return 25
                if mask == _SS:
                    return 50
            return pips(mask)  # 0:0 6:6 together: 12, their pips (rule 4)
        return sea
    if preset == "chechevo":
        lone = rules.held_doubles == "lone"

        def held(mask: int, domino: bool) -> int:
            value = pips(mask)
            if lone:
                if mask == _ZZ:
                    return 25
                return 50 if mask == _SS else value
            if mask & _ZZ:
                value += 25
            if mask & _SS:
                value += 50 - 12
            return value
        return held
    if preset == "semerka":
        def tens(mask: int, domino: bool) -> int:
            doubles = mask & _DOUBLES
            return pips(mask ^ doubles) + 10 * doubles.bit_count()
        return tens
    return lambda mask, domino: 0  # general: nothing is scored from the hands
