"""Reading a deal record: the referee's plain data into tile masks and checked seats.

``RecordReader._read`` turns the contract's deal shape (RULES.md section 13) into a ``_Record``,
or refuses it (``bad_deal``, ``bad_tile``, ``duplicate_tile``). A hand written as known tokens with
no tile seen twice, the common case, is read inline: this is the hot path. A non-finisher's hand
given only as 0 pips is read as the hand "0:0" (RULES.md section 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import tiles as T
from ..errors import Problem
from .base import JudgeBase
from .types import _Record, _Refused

RESULTS = frozenset({"domino", "fish", "redeal"})


class RecordReader(JudgeBase):
    """Reads a deal record; refuses one that cannot be judged at all."""

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
            for seat, text in hands.items():
                quick = quick_hand(text, seen)
                if quick is not None:
                    seen |= quick
                    masks[seat] = quick
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
            boneyard = quick_hand(raw_boneyard, seen)
            if boneyard is None:
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
            finisher = by if result == "domino" else None
            for seat, value in pips.items():
                # RULES.md section 4: the only non-empty hand of 0 pips is the lone 0:0, so it is
                # judged as the hand "0:0" (its value, the tile checks); two are one tile twice.
                if value == 0 and seat != finisher and seat not in masks:
                    if seen & _ZERO_ZERO:
                        problems.append(_dup(T.ZERO_ZERO, seat, zero_pips=True))
                    else:
                        masks[seat] = _ZERO_ZERO
                        seen |= _ZERO_ZERO
            if problems:
                raise _Refused(problems)
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


def quick_hand(text: Any, seen: int) -> int | None:
    """The common case of a hand, read fast: a string of known tokens, no comma, no tile twice
    and none already ``seen``; its mask. None: read it the full way (``_read_hand``), which
    names what is wrong. Shared by every reader of hands (sections 2 and 31)."""
    if type(text) is not str or "," in text:
        return None
    tokens = text.split()
    try:
        mask = sum(map(_BIT_OF, tokens))
    except KeyError:
        return None
    if mask & seen or mask.bit_count() != len(tokens):
        return None
    return mask
_NO_PIPS: dict[str, int] = {}  # shared, never written: most records give tiles, not pips
_ZERO_ZERO = 1 << T.ZERO_ZERO


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


def _bad(detail: str, detail_ru: str) -> Problem:
    return Problem("bad_deal", {"detail": detail, "detail_ru": detail_ru})


def _tile_problem(err: T.TileError, where: str) -> Problem:
    return Problem(err.code, {"seat": where, "tile": err.token},
                   {"seat": where, "tile": err.token})


def _dup(t: int, where: str, zero_pips: bool = False) -> Problem:
    # A referee who wrote 0 for two hands sees no 0:0 written: the message says where it is.
    detail, detail_ru = ("", "")
    if zero_pips:
        detail, detail_ru = (": a hand of 0 pips is the lone 0:0",
                             ": рука в 0 очков — это один 0:0 («пусто-пусто»)")
    return Problem("duplicate_tile", {"seat": where, "tile": T.NAMES[t], "detail": detail,
                                      "detail_ru": detail_ru},
                   {"seat": where, "tile": T.NAMES[t]})
