"""Reading a fives deal record (RULES.md sections 17, 19 and step 1 of section 21).

``read_deal`` turns the contract's deal shape into a ``Deal``: seats checked, hands and the
boneyard as tile masks, each entry of ``play`` as a compact ``Entry``. It refuses what cannot be
judged at all, in the order of section 21: every ``bad_deal`` first, then ``bad_tile`` (hands,
boneyard, moves, draws), then ``duplicate_tile`` among the hands and the boneyard.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import tiles as T
from ..errors import Problem
from .presets import FivesRules
from .table import BAD_END, END_INDEX, NO_END
from .types import DRAW, MOVE, MULTI, PASS, Deal, Entry, Refused, refuse

RESULTS = frozenset({"domino", "fish", "target"})
_TOKEN = T.TOKEN_TILE
_BIT_OF = T.TOKEN_BIT
#: an entry's ``end`` -> its code (``None``: left out)
_END_CODE: dict[str | None, int] = {name: i for name, i in END_INDEX.items()}
_END_CODE[None] = NO_END
_NONE: Any = object()  # a key left out (``None`` is a value a record may hold)


def _bad(en: str, ru: str, **extra: Any) -> Refused:
    return refuse("bad_deal", {"detail": en, "detail_ru": ru}, **extra)


def _whole(value: Any) -> bool:
    return type(value) is int


def _mapping(value: Any) -> bool:
    # a JSON object is a dict: the ABC's isinstance (a Python-level call) only for the rest
    return type(value) is dict or isinstance(value, Mapping)


def _not_one_kind(i: int) -> Refused:
    return _bad(f"entry {i} must be exactly one of a move, a draw or a pass",
                f"запись {i} — ровно одно из: ход, добор или пропуск", entry=i)


def read_deal(rules: FivesRules, deal: Any) -> Deal:
    """The record read, or ``Refused`` with its first reading problem."""
    if not _mapping(deal):
        raise _bad("a deal must be an object", "раздача должна быть объектом")
    seats = rules.seats
    get = deal.get
    result = get("result")
    if type(result) is not str or result not in RESULTS:
        raise _bad("result must be domino, fish or target (fives games have no redeal)",
                   "«result» — «domino», «fish» или «target» (пересдачи в этих играх нет)")
    if result == "target" and rules.target_check != "move":
        raise _bad("result target needs target_check: move",
                   "«target» возможен только при «target_check: move»")
    raw_play, raw_scores = get("play"), get("scores")
    if (raw_play is None) == (raw_scores is None):
        raise _bad("give exactly one of play (the line of play) and scores (points only)",
                   "нужно ровно одно из: «play» (запись ходов) или «scores» (только очки)")
    by, leader = get("by"), get("leader")
    for name, value in (("by", by), ("leader", leader)):
        if value is not None and (type(value) is not str or value not in seats):
            raise _bad(f"{name} names no seat in play", f"«{name}»: такого места нет в игре")
    time_up = get("time_up", False)
    if type(time_up) is not bool:
        raise _bad("time_up must be true or false", "«time_up» — true или false")
    declared = _read_declared(rules, get("declared"))
    hands, pips = _read_hand_fields(seats, get("hands"), get("pips"))
    raw_boneyard = get("boneyard")
    if raw_boneyard is not None:
        if type(raw_boneyard) is not str:
            raise _bad("boneyard must be a string of tiles", "«boneyard» — строка костей")
        if rules.boneyard_size == 0:
            raise _bad("this game has no boneyard", "в этой игре нет базара")

    bad_tile: Problem | None = None
    play: list[Entry] | None = None
    scores: list[tuple[str, int]] | None = None
    if raw_play is not None:
        play, bad_tile = _read_play(seats, raw_play, rules.max_doubles)
    else:
        scores = _read_scores(seats, raw_scores)
        if result == "domino" and by is None:
            raise _bad("a domino written as points only needs «by», the seat that went out",
                       "для домино, записанного только очками, нужно «by» — кто вышел")
    finisher: str | None = None
    if result == "domino":
        finisher = by
        if finisher is None and play:
            last = play[-1]  # a move, unless the record is faulty
            finisher = last[1] if last[0] == MOVE else \
                next(e[1] for e in reversed(play) if e[0] == MOVE or e[0] == MULTI)

    masks: dict[str, int] = {}
    empty: list[str] = []
    seen = 0
    duplicate: Problem | None = None
    for seat in seats:
        text = hands.get(seat)
        if text is None:
            # a non-finisher's pips 0 is the lone 0:0 (section 4), in every check
            if pips.get(seat) != 0 or seat == finisher:
                continue
            items = [T.ZERO_ZERO]
        else:
            fast = _distinct_mask(text)
            if fast is not None and not seen & fast:
                seen |= fast
                masks[seat] = fast
                if not fast:
                    empty.append(seat)
                continue
            try:
                items = _parse(text)
            except T.TileError as err:
                bad_tile = bad_tile or Problem("bad_tile", {"seat": seat, "tile": err.token},
                                               {"seat": seat, "tile": err.token})
                continue
            if not items:
                empty.append(seat)
        mask = 0
        for t in items:
            bit = 1 << t
            if seen & bit and duplicate is None:
                duplicate = Problem("duplicate_tile", {"tile": T.NAMES[t], "seat": seat},
                                    {"seat": seat, "tile": T.NAMES[t]})
            seen |= bit
            mask |= bit
        masks[seat] = mask
    boneyard: int | None = None
    fast = _distinct_mask(raw_boneyard) if raw_boneyard is not None else None
    if fast is not None and not seen & fast:
        boneyard = fast
    elif raw_boneyard is not None:
        try:
            items = _parse(raw_boneyard)
        except T.TileError as err:
            bad_tile = bad_tile or Problem("bad_tile", {"seat": "boneyard", "tile": err.token},
                                           {"tile": err.token})
            items = []
        boneyard = 0
        for t in items:
            bit = 1 << t
            if seen & bit and duplicate is None:
                duplicate = Problem("duplicate_tile", {"tile": T.NAMES[t], "seat": "boneyard"},
                                    {"tile": T.NAMES[t]})
            seen |= bit
            boneyard |= bit
    if bad_tile is not None:
        raise Refused(bad_tile)
    if duplicate is not None:
        raise Refused(duplicate)
    return Deal(result, play, scores, masks, pips, empty, boneyard, by, leader, declared,
                time_up, finisher)


def _read_declared(rules: FivesRules, raw: Any) -> dict[str, int] | None:
    if raw is None:
        return None
    if not _mapping(raw):
        raise _bad("declared must be an object of side: points", "«declared» — «сторона: очки»")
    sides = rules.sides
    for side, amount in raw.items():
        if side not in sides:
            raise _bad(f"declared names side {side!r}, which is not in play",
                       f"в «declared» указана сторона «{side}», которой нет в игре")
        if not _whole(amount):
            raise _bad("declared amounts must be whole numbers", "«declared» — целые числа")
    return dict(raw)


def _read_hand_fields(seats: tuple[str, ...], hands: Any,
                      pips: Any) -> tuple[dict[str, str], dict[str, int]]:
    out_hands: dict[str, str] = {}
    out_pips: dict[str, int] = {}
    if hands is not None:
        if not _mapping(hands):
            raise _bad("hands must be an object of seat: tiles", "«hands» — «место: кости»")
        for seat, text in hands.items():
            if seat not in seats:
                raise _bad(f"hands names seat {seat!r}, which is not in play",
                           f"в «hands» указано место «{seat}», которого нет в игре")
            if type(text) is not str:
                raise _bad("a hand must be a string of tiles", "рука — строка костей")
            out_hands[seat] = text
    if pips is not None:
        if not _mapping(pips):
            raise _bad("pips must be an object of seat: count", "«pips» — «место: очки»")
        for seat, count in pips.items():
            if seat not in seats:
                raise _bad(f"pips names seat {seat!r}, which is not in play",
                           f"в «pips» указано место «{seat}», которого нет в игре")
            if not _whole(count):
                raise _bad("pip counts must be whole numbers", "очки — целые числа")
            out_pips[seat] = count
    return out_hands, out_pips


def _read_play(seats: tuple[str, ...], raw: Any,
               max_doubles: int = 1) -> tuple[list[Entry], Problem | None]:
    """Every entry of ``play``; the first unreadable tile is returned, not raised, so that a
    ``bad_deal`` further on is still reported first (section 21, step 1). Where a move may lay
    several doubles (``max_doubles``), a move written with ``tiles`` is read too."""
    if type(raw) is not list or not raw:
        raise _bad("play must be a non-empty list of entries", "«play» — непустой список записей")
    out: list[Entry] = []
    bad_tile: Problem | None = None
    for i, entry in enumerate(raw, 1):
        if type(entry) is not dict:
            raise _bad(f"entry {i} is not an object", f"запись {i} — не объект", entry=i)
        seat = entry.get("seat")
        if type(seat) is not str or seat not in seats:
            raise _bad(f"entry {i} names no seat in play", f"запись {i}: нет такого места",
                       entry=i)
        text = entry.get("tile", _NONE)
        if max_doubles > 1 and "tiles" in entry:
            if text is not _NONE or "draw" in entry or "pass" in entry:
                raise _not_one_kind(i)
            multi, problem = _read_multi(i, seat, entry, max_doubles)
            bad_tile = bad_tile or problem
            out.append(multi)
        elif text is not _NONE:
            if "draw" in entry or "pass" in entry:
                raise _not_one_kind(i)
            tile = _TOKEN.get(text, -1) if type(text) is str else -1
            if tile < 0:
                tile = _one_tile(text)
                if tile < 0 and bad_tile is None:
                    bad_tile = Problem("bad_tile", {"seat": seat, "tile": text},
                                       {"entry": i, "seat": seat, "tile": text})
            end_raw = entry.get("end")
            # exact types as everywhere in a record (a str subclass is not a name), then one
            # look-up for both a left-out end (None) and the four names
            end = _END_CODE.get(end_raw, BAD_END) if type(end_raw) is str or end_raw is None \
                else BAD_END
            points = entry.get("points")
            if points is not None and type(points) is not int:
                raise _bad(f"entry {i}: points must be a whole number",
                           f"запись {i}: очки — целое число", entry=i)
            out.append((MOVE, seat, tile, end, points))
        elif "draw" in entry:
            if "pass" in entry:
                raise _not_one_kind(i)
            drawn = entry["draw"]
            if type(drawn) is int:
                if drawn < 1:
                    raise _bad(f"entry {i}: a draw takes at least one tile",
                               f"запись {i}: добирают хотя бы одну кость", entry=i)
                out.append((DRAW, seat, 0, drawn, False))
            elif type(drawn) is str:
                one = _TOKEN.get(drawn, -1)
                if one >= 0:  # the common case: one tile per draw entry
                    out.append((DRAW, seat, 1 << one, 1, False))
                    continue
                try:
                    items = _parse(drawn)
                except T.TileError as err:
                    bad_tile = bad_tile or Problem("bad_tile", {"seat": seat, "tile": err.token},
                                                   {"entry": i, "seat": seat, "tile": err.token})
                    items = [0]
                if not items:
                    raise _bad(f"entry {i}: a draw takes at least one tile",
                               f"запись {i}: добирают хотя бы одну кость", entry=i)
                mask = 0
                for t in items:
                    mask |= 1 << t
                out.append((DRAW, seat, mask, len(items), mask.bit_count() != len(items)))
            else:
                raise _bad(f"entry {i}: draw is the tiles drawn or how many",
                           f"запись {i}: «draw» — взятые кости или их число", entry=i)
        else:
            if "pass" not in entry:
                raise _not_one_kind(i)
            if entry["pass"] is not True:
                raise _bad(f"entry {i}: a pass is written \"pass\": true",
                           f"запись {i}: пропуск пишется \"pass\": true", entry=i)
            out.append((PASS, seat, 0, 0, None))
    if out[0][0] != MOVE and out[0][0] != MULTI:  # a several-doubles lead: bad_end (strong)
        raise _bad("play must start with the lead, a move", "запись ходов начинается с захода",
                   entry=1)
    return out, bad_tile


def _read_multi(i: int, seat: str, entry: dict[str, Any],
                max_doubles: int) -> tuple[Entry, Problem | None]:
    """A several-doubles move (section 32): ``tiles``, a list of 2 to ``max_doubles`` objects
    each with a ``tile`` and maybe an ``end``. The entry's last item is ``(points, tiles,
    end codes)``."""
    raw = entry["tiles"]
    if type(raw) is not list or not 2 <= len(raw) <= max_doubles \
            or any(type(p) is not dict or "tile" not in p for p in raw):
        raise _bad(f"entry {i}: tiles must list 2 to {max_doubles} objects, each with a tile",
                   f"запись {i}: «tiles» — от 2 до {max_doubles} объектов, в каждом «tile»",
                   entry=i)
    points = entry.get("points")
    if points is not None and type(points) is not int:
        raise _bad(f"entry {i}: points must be a whole number",
                   f"запись {i}: очки — целое число", entry=i)
    tiles: list[int] = []
    codes: list[int] = []
    problem: Problem | None = None
    for placed in raw:
        text = placed["tile"]
        tile = _TOKEN.get(text, -1) if type(text) is str else -1
        if tile < 0:
            tile = _one_tile(text)
            if tile < 0 and problem is None:
                problem = Problem("bad_tile", {"seat": seat, "tile": text},
                                  {"entry": i, "seat": seat, "tile": text})
        end_raw = placed.get("end")
        tiles.append(max(tile, 0))
        codes.append(_END_CODE.get(end_raw, BAD_END) if type(end_raw) is str or end_raw is None
                     else BAD_END)
    return (MULTI, seat, 0, 0, (points, tiles, codes)), problem


def _distinct_mask(text: str) -> int | None:
    """The mask of a hand or boneyard written in common tokens, each tile once; None for
    anything else (a comma, another spelling, a bad token, a tile twice), which takes the long
    way through ``_parse`` for its exact error. The bits are added in C (``sum``): n distinct
    powers of two add up to a number with n bits set, and any repeat carries and loses a bit."""
    if "," in text:
        return None
    tokens = text.split()
    try:
        mask: int = sum(map(_BIT_OF.__getitem__, tokens))
    except KeyError:
        return None
    return mask if mask.bit_count() == len(tokens) else None


def _parse(text: str) -> list[int]:
    """``tiles.parse_tiles``, with the common case (known tokens, spaces) inline."""
    if "," not in text:
        try:
            return [_TOKEN[token] for token in text.split()]
        except KeyError:
            pass
    return T.parse_tiles(text)


def _one_tile(text: Any) -> int:
    """The tile of a move written in a rarer spelling (``[5|2]``, ``5-2 ``), or -1."""
    if type(text) is not str:
        return -1
    try:
        items = T.parse_tiles(text)
    except T.TileError:
        return -1
    return items[0] if len(items) == 1 else -1


def _read_scores(seats: tuple[str, ...], raw: Any) -> list[tuple[str, int]]:
    if type(raw) is not list:
        raise _bad("scores must be a list of {seat, points}", "«scores» — список {seat, points}")
    out: list[tuple[str, int]] = []
    for i, entry in enumerate(raw, 1):
        if type(entry) is not dict:
            raise _bad(f"entry {i} is not an object", f"запись {i} — не объект", entry=i)
        seat, points = entry.get("seat"), entry.get("points")
        if type(seat) is not str or seat not in seats:
            raise _bad(f"entry {i} names no seat in play", f"запись {i}: нет такого места",
                       entry=i)
        if type(points) is not int:
            raise _bad(f"entry {i}: points must be a whole number",
                       f"запись {i}: очки — целое число", entry=i)
        out.append((seat, points))
    return out
