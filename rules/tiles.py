"""Tiles of the double-six set and the notations a referee writes them in.

A tile is an ``int`` from 0 to 27 (its index in ``TILES``); a set of tiles is an ``int`` bit mask.
Both are cheap to hash and compare, which keeps the tile-level checks fast. Parsing accepts
``a:b``, ``a-b``, ``a|b`` and ``[a|b]`` in either order, separated by spaces or commas; anything
else is ``bad_tile`` (RULES.md section 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

MAX_PIP = 6

#: (high, low) halves of every tile, in canonical order 0:0, 1:0, 1:1, 2:0 …
TILES: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(MAX_PIP + 1) for b in range(a + 1)
)
TILE_COUNT = len(TILES)
FULL_SET = (1 << TILE_COUNT) - 1
TOTAL_PIPS = sum(a + b for a, b in TILES)

INDEX: dict[tuple[int, int], int] = {}
for _i, (_a, _b) in enumerate(TILES):
    INDEX[(_a, _b)] = _i
    INDEX[(_b, _a)] = _i

PIPS: tuple[int, ...] = tuple(a + b for a, b in TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in TILES)
NAMES: tuple[str, ...] = tuple(f"{a}:{b}" for a, b in TILES)
#: Bit mask of the numbers a tile shows (one bit for a double).
NUMBERS: tuple[int, ...] = tuple((1 << a) | (1 << b) for a, b in TILES)
#: Numbers a tile adds an odd count of to a line: both halves of a non-double, none of a double.
PARITY: tuple[int, ...] = tuple(0 if a == b else (1 << a) | (1 << b) for a, b in TILES)
#: Tiles that show a number, per number (a suit has 7 tiles).
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, (a, b) in enumerate(TILES) if n in (a, b)) for n in range(MAX_PIP + 1)
)
DOUBLE_MASK = sum(1 << i for i in range(TILE_COUNT) if IS_DOUBLE[i])
ZERO_ZERO = INDEX[(0, 0)]
SIX_SIX = INDEX[(MAX_PIP, MAX_PIP)]

# Every spelling of every tile, so that the common case is one dictionary look-up per token.
_TOKENS: dict[str, int] = {}
for (_a, _b), _i in INDEX.items():
    for _sep in (":", "-", "|"):
        _TOKENS[f"{_a}{_sep}{_b}"] = _i
    _TOKENS[f"[{_a}|{_b}]"] = _i
SEPARATORS = str.maketrans({",": " "})
#: token -> the tile (and its bit), for the engine's hot path.
TOKEN_TILE: dict[str, int] = dict(_TOKENS)
TOKEN_BIT: dict[str, int] = {tok: 1 << t for tok, t in _TOKENS.items()}
#: Edge of the number graph a tile adds: bit ``7a+b`` and bit ``7b+a``.
EDGE: tuple[int, ...] = tuple((1 << (7 * a + b)) | (1 << (7 * b + a)) for a, b in TILES)
class TileError(ValueError):
    """A tile that cannot be read, is not in the set, or is listed twice."""

    def __init__(self, code: str, token: str) -> None:
        super().__init__(f"{code}: {token}")
        self.code = code
        self.token = token


def tile(a: int, b: int) -> int:
    """The tile with halves ``a`` and ``b`` (either order)."""
    try:
        return INDEX[(a, b)]
    except KeyError:
        raise TileError("bad_tile", f"{a}:{b}") from None


def parse_tiles(text: str) -> list[int]:
    """All tiles of a hand, in the order written. Raises ``TileError`` on the first bad token."""
    out: list[int] = []
    for token in text.translate(SEPARATORS).split():
        found = _TOKENS.get(token)
        if found is None:
            raise TileError("bad_tile", token)
        out.append(found)
    return out


def mask_of(tiles: Iterable[int]) -> int:
    """The bit mask of ``tiles``; raises ``duplicate_tile`` when one repeats."""
    mask = 0
    for t in tiles:
        bit = 1 << t
        if mask & bit:
            raise TileError("duplicate_tile", NAMES[t])
        mask |= bit
    return mask


def tiles_of(mask: int) -> list[int]:
    """The tiles of a bit mask, in canonical order."""
    return [i for i in range(TILE_COUNT) if mask >> i & 1]


def format_tiles(tiles: Sequence[int] | int) -> str:
    """Canonical text of tiles (a list or a mask), heaviest first: ``6:6 6:5 1:0``."""
    items = tiles_of(tiles) if isinstance(tiles, int) else list(tiles)
    items.sort(key=lambda t: TILES[t], reverse=True)
    return " ".join(NAMES[t] for t in items)


HALF = 14  # a mask is read as two halves of 14 tiles, each looked up in a table of 16,384


def _half_table(values: tuple[int, ...], shift: int, xor: bool) -> tuple[int, ...]:
    """``table[sub]``: the sum (or xor) of ``values`` over the tiles of a 14-bit half-mask."""
    table = [0] * (1 << HALF)
    for sub in range(1, 1 << HALF):
        low = sub & -sub
        value = values[shift + low.bit_length() - 1]
        rest = table[sub ^ low]
        table[sub] = rest ^ value if xor else rest + value
    return tuple(table)


# Per half of a mask: pips, number-graph edges (distinct bits, so they add) and parity. The
# engine reads the edge and parity tables inline (its line check is the hot path).
HALF_PIPS = (_half_table(PIPS, 0, False), _half_table(PIPS, HALF, False))
HALF_EDGES = (_half_table(EDGE, 0, False), _half_table(EDGE, HALF, False))
HALF_PARITY = (_half_table(PARITY, 0, True), _half_table(PARITY, HALF, True))
_LOW = (1 << HALF) - 1


def mask_pips(mask: int) -> int:
    """Pips of every tile in ``mask``."""
    return HALF_PIPS[0][mask & _LOW] + HALF_PIPS[1][mask >> HALF]


_HEAVIEST_FIRST = sorted(PIPS, reverse=True)
_MAX_PIPS = tuple(sum(_HEAVIEST_FIRST[:size]) for size in range(TILE_COUNT + 1))


def max_pips(size: int) -> int:
    """The largest pip count a hand of ``size`` tiles can hold."""
    return _MAX_PIPS[max(0, min(size, TILE_COUNT))]
