"""Reading a club deal record (RULES.md section 26) and its structure checks (section 33, 1–2).

``read_record`` turns the contract's deal shape into a ``ClubRecord`` or refuses it (``bad_deal``,
``bad_tile``, ``duplicate_tile``); a seat that is out of a ``semerka`` match is ``bad_deal``.
``structure_problems`` gives section 33's second group: ``finisher_has_tiles``,
``missing_hand``, ``two_empty_hands``, ``tiles_needed``, ``pips_out_of_range``,
``pips_mismatch`` (``hand_too_large`` is section 31's, in ``tiles.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import tiles as T
from ..engine.reading import _bad, _bits, _dup, _read_hand, quick_hand
from ..errors import Problem
from .presets import ClubRules
from .types import ClubRecord, Refused

_ZZ = 1 << T.ZERO_ZERO
_SS = 1 << T.SIX_SIX
RESULTS = ("domino", "fish", "redeal")
_TOKEN_TILE = T.TOKEN_TILE


def _seat(value: Any, name: str, seats: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if type(value) is not str or value not in seats:
        raise Refused([_bad(f"{name} must be one of {', '.join(seats)} (the seats in play)",
                            f"«{name}» — одно из мест в игре: {', '.join(seats)}")])
    return value


def _tiles(raw: Any, where: str, problems: list[Problem]) -> tuple[int, ...] | None:
    if raw is None:
        return None
    one = _TOKEN_TILE.get(raw) if type(raw) is str else None
    if one is not None:  # the common case: one tile
        return (one,)
    if not isinstance(raw, str) and not (
            isinstance(raw, list) and all(isinstance(x, str) for x in raw)):
        raise Refused([_bad(f"{where} must be a string or a list of strings",
                            f"«{where}» — строка или список строк")])
    bits = _bits(raw, where, problems)
    if bits is None:
        return None
    return tuple(b.bit_length() - 1 for b in bits)


def read_record(rules: ClubRules, in_play: tuple[str, ...], deal: Any) -> ClubRecord:
    if type(deal) is not dict and not isinstance(deal, Mapping):
        raise Refused([_bad("a deal must be an object", "раздача должна быть объектом")])
    get = deal.get
    result = get("result")
    if result not in RESULTS:
        raise Refused([_bad("result must be domino, fish or redeal",
                            "«result» должен быть «domino», «fish» или «redeal»")])
    by, leader = get("by"), get("leader")
    if by is not None and by not in in_play:
        by = _seat(by, "by", in_play)
    if leader is not None and leader not in in_play:
        leader = _seat(leader, "leader", in_play)
    if result == "domino" and by is None:
        raise Refused([_bad("a domino needs «by», the seat that went out",
                            "для домино нужно «by» — место, которое вышло")])
    problems: list[Problem] = []
    masks: dict[str, int] = {}
    seen = 0
    hands = get("hands")
    if hands is not None:
        if type(hands) is not dict and not isinstance(hands, Mapping):
            raise Refused([_bad("hands must be an object of seat: tiles",
                                "«hands» — объект «место: кости»")])
        for seat, text in hands.items():
            if seat not in in_play:
                _seat(seat, "hands", in_play)
            if text is None:
                continue
            quick = quick_hand(text, seen)
            if quick is not None:
                seen |= quick
                masks[seat] = quick
                continue
            read = _read_hand(text, seen, seat, problems)
            if read is not None:
                seen |= read
                masks[seat] = read
    boneyard: int | None = None
    raw_boneyard = get("boneyard")
    if raw_boneyard is not None:
        boneyard = quick_hand(raw_boneyard, seen)
        if boneyard is None:
            boneyard = _read_hand(raw_boneyard, seen, "boneyard", problems) or 0
        seen |= boneyard
    lead = _tiles(get("lead_tile"), "lead_tile", problems) or ()
    last = _tiles(get("last_tiles"), "last_tiles", problems)
    if problems:
        raise Refused(problems)
    if len(lead) > (2 if rules.preset == "kozel_morskoy" else 1):
        raise Refused([_bad("lead_tile is one tile (two: the «внеочередной» 6:6 0:0)",
                            "«lead_tile» — одна кость (две — «внеочередной» 6:6 0:0)")])
    pips: dict[str, int] = {}
    raw_pips = get("pips")
    if raw_pips is not None:
        if not isinstance(raw_pips, Mapping):
            raise Refused([_bad("pips must be an object of seat: number",
                                "«pips» — объект «место: число»")])
        finisher = by if result == "domino" else None
        for seat, value in raw_pips.items():
            _seat(seat, "pips", in_play)
            if value is None:
                continue
            if type(value) is not int:
                raise Refused([_bad(f"pips of seat {seat} must be a whole number",
                                    f"очки места {seat} должны быть целым числом")])
            if value == 0 and seat != finisher and seat not in masks:
                if seen & _ZZ:  # section 4: a hand of 0 pips is the lone 0:0
                    problems.append(_dup(T.ZERO_ZERO, seat, zero_pips=True))
                masks[seat] = _ZZ
                seen |= _ZZ
            else:
                pips[seat] = value
        if problems:
            raise Refused(problems)
    declared = get("declared")
    if declared is not None:
        if not isinstance(declared, Mapping) or any(
                type(v) is not int for v in declared.values()):
            raise Refused([_bad("declared must be an object of side: whole points",
                                "«declared» — объект «сторона: очки»")])
        declared = dict(declared)
    return ClubRecord(result, by, leader, masks, pips, boneyard, lead, last, declared,
                      get("time_up") is True)


def structure_problems(rules: ClubRules, r: ClubRecord,
                       in_play: tuple[str, ...]) -> list[Problem]:
    """Section 33's second group, seat by seat in seat order."""
    problems: list[Problem] = []
    add = problems.append
    whole = r.result != "redeal"
    finisher = r.by if r.result == "domino" else None
    needs_tiles = rules.preset in ("chechevo", "semerka")
    limit = min(27, rules.hand_size + max(0, rules.boneyard_size - rules.boneyard_keep))
    for seat in in_play:
        mask, value = r.masks.get(seat), r.pips.get(seat)
        if whole and seat == finisher:
            if mask or value:
                add(Problem("finisher_has_tiles", {"seat": seat}, {"seat": seat}))
            continue
        if whole and mask is None and value is None and rules.preset != "general":
            add(Problem("missing_hand", {"seat": seat}, {"seat": seat}))
        if mask == 0 and finisher is not None:
            add(Problem("two_empty_hands", {"seat": seat}, {"seat": seat}))
        if value is not None:
            if mask is None and needs_tiles and value and whole:
                add(Problem("tiles_needed", {"seat": seat}, {"seat": seat}))
            high = T.max_pips(limit if mask is None else mask.bit_count())
            if value < 0 or value > high:
                add(Problem("pips_out_of_range", {"seat": seat, "pips": value, "limit": high},
                            {"seat": seat}))
            elif mask is not None and T.mask_pips(mask) != value:
                actual = T.mask_pips(mask)
                add(Problem("pips_mismatch", {"seat": seat, "pips": value, "actual": actual},
                            {"seat": seat, "expected": actual}))
    return problems


def redeal_ok(rules: ClubRules, r: ClubRecord) -> bool:
    """Section 6 with section 25's limits (null: the whole hand); the fallback until
    ``tiles.py`` (section 31) judges redeals."""
    doubles, suit = rules.redeal_limits
    for mask in r.masks.values():
        if (mask & T.DOUBLE_MASK).bit_count() >= doubles:
            return True
        if any((mask & s).bit_count() >= suit for s in T.SUIT_MASK):
            return True
    return False


__all__ = ["read_record", "redeal_ok", "structure_problems", "_SS", "_ZZ"]
