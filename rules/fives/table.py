"""The table of a fives game: its open ends, the spinner, the count and what a move scores.

``FivesTable`` is the geometry of RULES.md section 18 and nothing else: it knows which ends are
open and what they show, which ends a tile may be laid on, and what the count is after a move. The
judge lays every move of a line of play on one; a phone UI can keep one to offer the legal ends of
a tile and to show each move's points before the referee confirms it.

Ends are ``L``, ``R``, ``U``, ``D`` (indexes 0–3). Each open end has the number it shows and its
weight in the count (twice the number while the end holds a double, the spinner's number or 0 for
an empty spinner arm, as ``spinner_count`` says).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T
from .presets import FivesRules

END_NAMES: tuple[str, ...] = ("L", "R", "U", "D")
END_INDEX: dict[str, int] = {name: i for i, name in enumerate(END_NAMES)}
#: Entry ``end`` codes besides 0–3: left out, and a value that names no end.
NO_END, BAD_END = -1, 4

# Spinner states: none laid yet; the lead is the spinner (on L and R); the spinner was laid on an
# end and waits for its far side to be covered; the arms U and D are open (or no spinner at all);
# «Телефон»'s first doubles laid together in one move, the first of them covered to be the «дом».
_NOT_YET, _AT_LEAD, _AT_END, _DONE, _PENDING = 0, 1, 2, 3, 4

#: Tiles that fit a set of open numbers, per bit mask of numbers (what ``could_play`` asks).
def _fits(numbers: int) -> int:
    out = 0
    for n in range(T.MAX_PIP + 1):
        if numbers >> n & 1:
            out |= T.SUIT_MASK[n]  # suits share tiles: or, not add
    return out


FITS: tuple[int, ...] = tuple(_fits(numbers) for numbers in range(1 << (T.MAX_PIP + 1)))
#: ``1 << n`` per number an end shows, and 0 last, for a closed end's -1 (``numbers``)
_BIT: tuple[int, ...] = tuple(1 << n for n in range(T.MAX_PIP + 1)) + (0,)
_TILES, _NUMBERS = T.TILES, T.NUMBERS


class LayError(ValueError):
    """A move that cannot be laid: ``bad_end`` or ``tile_does_not_match_end``."""

    def __init__(self, code: str, detail: str, detail_ru: str, end: str | None = None) -> None:
        super().__init__(detail)
        self.code, self.detail, self.detail_ru, self.end = code, detail, detail_ru, end


@dataclass(frozen=True, slots=True)
class Laid:
    """What one move did: the end it was laid on (None for the lead), the count, the points."""

    tile: int
    end: str | None
    count: int
    points: int


def points_of(count: int) -> int:
    """What a move scores: the count when it is a positive multiple of 5, else 0."""
    return count if count % 5 == 0 and count else 0


def _laid(tile: int, end: str | None, count: int) -> Laid:
    return Laid(tile, end, count, count if count % 5 == 0 and count else 0)


def check_doubles(tiles: list[int], codes: list[int]) -> None:
    """``bad_multi_move`` (section 32): the tiles of a several-doubles move are not all doubles,
    not all different, or two of them name the same end."""
    named = [c for c in codes if c >= 0]
    if not all(T.IS_DOUBLE[t] for t in tiles) or len(set(tiles)) != len(tiles) \
            or len(set(named)) != len(named):
        raise LayError("bad_multi_move", "", "")


class FivesTable:
    """The open ends of one deal's line of play. Start empty; ``lay`` the lead, then each move."""

    __slots__ = ("show", "weight", "moves", "_lead", "_spin", "_spin_end", "_spin_num", "_covered",
                 "_use_spinner", "_all_arms", "_pending")

    def __init__(self, rules: FivesRules) -> None:
        #: the number each end shows, -1 while it is not open
        self.show: list[int] = [-1, -1, -1, -1]
        self.weight: list[int] = [0, 0, 0, 0]
        self.moves = 0
        self._lead = -1
        # ``dom`` (section 32) is section 18's spinner, but for doubles laid together
        self._use_spinner = rules.spinner != "none"
        self._all_arms = rules.spinner_count == "all_arms"
        self._spin = _NOT_YET if self._use_spinner else _DONE
        self._spin_end = -1
        self._spin_num = 0
        self._covered = 0
        #: bit per end holding one of the first doubles laid together (``_PENDING``)
        self._pending = 0

    # ------------------------------------------------------------ questions
    @property
    def count(self) -> int:
        """The sum of the open ends (the lead alone: its pips)."""
        if self.moves == 1:
            a, b = T.TILES[self._lead]
            return a + b
        w = self.weight
        return w[0] + w[1] + w[2] + w[3]

    @property
    def open_ends(self) -> dict[str, int]:
        """Each open end and the number it shows."""
        return {END_NAMES[e]: n for e, n in enumerate(self.show) if n >= 0}

    def numbers(self) -> int:
        """Bit mask of the numbers the open ends show."""
        show = self.show
        # a closed end shows -1, which reads the last entry of _BIT, 0 (the judge asks this at
        # every draw and pass: four look-ups, no loop)
        return _BIT[show[0]] | _BIT[show[1]] | _BIT[show[2]] | _BIT[show[3]]

    def legal_ends(self, tile: int) -> list[str]:
        """The ends ``tile`` may be laid on now (every end for the lead: ``[]`` means any)."""
        shows = T.NUMBERS[tile]
        return [END_NAMES[e] for e, n in enumerate(self.show) if n >= 0 and shows >> n & 1]

    def fits(self, tile: int) -> bool:
        return self.moves == 0 or bool(FITS[self.numbers()] >> tile & 1)

    def resolve(self, tile: int, end: int) -> int:
        """The end index ``tile`` goes on, given the record's ``end`` code; raises ``LayError``."""
        show = self.show
        shows = T.NUMBERS[tile]
        if end >= 0:
            if end == BAD_END or show[end] < 0:
                name = END_NAMES[end] if end != BAD_END else "?"
                raise LayError("bad_end", f"end {name} is not open",
                               f"конец {name} не открыт", name)
            if not shows >> show[end] & 1:
                raise LayError("tile_does_not_match_end", "", "", END_NAMES[end])
            return end
        found = -1
        for e in range(4):
            n = show[e]
            if n >= 0 and shows >> n & 1:
                if found >= 0:
                    raise LayError("bad_end", "it fits more than one end: name the end",
                                   "подходит к нескольким концам: укажите конец")
                found = e
        if found < 0:
            raise LayError("tile_does_not_match_end", "", "", "any open end")
        return found

    # ------------------------------------------------------------ moves
    def lead(self, tile: int) -> int:
        """The first move: L shows the higher half, R the lower (section 18, rule 1). Returns
        the count (only the count: this and ``place`` are the judge's hot path)."""
        a, b = T.TILES[tile]
        self._lead = tile
        self.moves = 1
        self.show[0], self.show[1] = a, b
        if a == b:
            # A double lead is the tile at both L and R, and counts both halves at each while
            # that side is uncovered (the lead alone counts its pips once: ``count``).
            self.weight[0] = self.weight[1] = a + b
            if self._spin == _NOT_YET:
                self._spin, self._spin_num = _AT_LEAD, a
        else:
            self.weight[0], self.weight[1] = a, b
        return a + b

    def lay(self, tile: int, end: int) -> int:
        """Lay ``tile`` on end index ``end``: the end shows its other half. Returns the count."""
        self.place(tile, end)
        w = self.weight
        return w[0] + w[1] + w[2] + w[3]

    def place(self, tile: int, code: int) -> int:
        """``resolve`` and lay in one call: ``tile`` on the end the record's ``end`` code names
        (``NO_END``: the one end it fits). Returns the end's index; the count is then the sum
        of ``weight``. Raises ``LayError``, the table unchanged. This is the judge's one call
        per move, so the legal cases are found here and only a faulty move goes through
        ``resolve``, for its error."""
        show = self.show
        shows = _NUMBERS[tile]
        end = code
        if code < 0:
            for e in range(4):
                n = show[e]
                if n >= 0 and shows >> n & 1:
                    if end >= 0:
                        end = BAD_END  # fits more than one end
                        break
                    end = e
            if end < 0 or end == BAD_END:
                end = self.resolve(tile, code)
        elif code == BAD_END or show[code] < 0 or not shows >> show[code] & 1:
            end = self.resolve(tile, code)
        a, b = _TILES[tile]
        other = b if a == show[end] else a
        show[end] = other
        self.weight[end] = other + other if a == b else other
        self.moves += 1
        spin = self._spin
        if spin == _DONE:  # no spinner, or its arms are open: the common case first
            pass
        elif spin == _AT_END:
            if end == self._spin_end:
                self._open_arms()
        elif spin == _AT_LEAD:
            if end < 2:
                self._covered |= 1 << end
                if self._covered == 3:
                    self._open_arms()
        elif spin == _PENDING:
            if self._pending >> end & 1:
                # the first of the doubles laid together to be covered is the «дом»: this tile
                # covers its far side, so its arms open at once (section 32)
                self._spin_num = a + b - other
                self._open_arms()
        elif a == b:  # _NOT_YET: the first double is the spinner
            self._spin, self._spin_end, self._spin_num = _AT_END, end, a
        return end

    def place_doubles(self, tiles: list[int], codes: list[int]) -> list[int]:
        """Several doubles in one move (section 32), each on an end open before the move: returns
        their end indexes, the count is then the sum of ``weight``. Raises ``LayError`` for the
        first that cannot be laid (the table is then left part-laid: the judge refuses the deal,
        and ``play_doubles`` checks first). A double leaves its end showing the same number, and
        can cover neither a spinner's side nor another double of the move, so laying them one by
        one is laying them against the ends open before the move."""
        show, weight = self.show, self.weight
        ends = []
        for tile, code in zip(tiles, codes, strict=True):
            end = code
            if code < 0 or code == BAD_END or show[code] < 0 \
                    or not _NUMBERS[tile] >> show[code] & 1:
                end = self.resolve(tile, code)
            a = _TILES[tile][0]
            weight[end] = a + a
            ends.append(end)
        self.moves += 1
        if self._spin == _NOT_YET:
            # none of the first doubles laid together is first: the one covered first will be
            self._spin = _PENDING
            for end in ends:
                self._pending |= 1 << end
        return ends

    def play_doubles(self, tiles: list[int], ends: list[str | None]) -> tuple[list[str], int, int]:
        """A UI's call for a several-doubles move: the ends named (None where the double fits
        one end), the count and the points. Raises ``LayError`` with the table unchanged."""
        if self.moves == 0:
            raise LayError("bad_end", "the lead is one tile", "заход — одна кость")
        codes = [NO_END if e is None else END_INDEX.get(e, BAD_END) for e in ends]
        check_doubles(tiles, codes)
        for tile, code in zip(tiles, codes, strict=True):
            self.resolve(tile, code)  # every double checked before any is laid
        laid = self.place_doubles(tiles, codes)
        count = self.count
        return [END_NAMES[e] for e in laid], count, points_of(count)

    def _open_arms(self) -> None:
        # Both long sides covered: U and D open on the spinner's number (section 18, rule 3).
        n = self._spin_num
        self.show[2] = self.show[3] = n
        self.weight[2] = self.weight[3] = n if self._all_arms else 0
        self._spin = _DONE

    def play(self, tile: int, end: str | None = None) -> Laid:
        """A UI's one call per move: the lead when the table is empty, else ``tile`` on ``end``
        (``None`` when it fits exactly one end). Raises ``LayError`` for a move that cannot be
        laid; the table is unchanged then."""
        if self.moves == 0:
            if end is not None:
                raise LayError("bad_end", "the lead has no end", "у захода нет конца", end)
            return _laid(tile, None, self.lead(tile))
        code = NO_END if end is None else END_INDEX.get(end, BAD_END)
        index = self.place(tile, code)
        return _laid(tile, END_NAMES[index], self.count)
