"""The checks after a line of play has been laid (RULES.md section 21, step 4).

``judge_play`` (``strong``) lays every entry and keeps a ``PlayLog``: per seat the tiles laid and
drawn, and a ``Stop`` at every draw and pass. From it these checks compare the whole play with
the rest of the record, in section 21's order: the result (``finisher_has_tiles``,
``not_blocked``, ``target_not_reached``), the boneyard count (``bad_draw``), the drawn tiles
(``draw_mismatch``), each hand's size (``hand_too_large``, ``hand_too_small``,
``pips_out_of_range``) and ``could_play``. They work on bit masks per seat rather than walking
the entries again: on a legal record (the common case) nothing is looked up tile by tile, and
only a record already known to be wrong is walked to name the first faulty tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T
from .presets import FivesRules
from .table import FITS
from .types import DRAW, MOVE, MULTI, Deal, Entry, refuse

#: A draw or a pass: the entry's index, the seat's index, the numbers the open ends showed, and
#: the tiles that seat had laid and drawn (by name) before the entry.
Stop = tuple[int, int, int, int, int]


@dataclass(slots=True)
class PlayLog:
    """What a line of play left, per seat index (the order of ``rules.seats``)."""

    #: tiles each seat should hold at the end: dealt − laid + drawn
    in_hand: list[int]
    laid: list[int]
    #: tiles each seat drew in draws that name them
    drew: list[int]
    #: bit per seat index: the seat made a draw that only counts its tiles
    counted: int
    on_table: int
    #: how many tiles were drawn, and which of them were named
    drawn: int
    drawn_mask: int
    stops: list[Stop]


def check_result(d: Deal, ended: str, out_seat: str, target: int) -> None:
    """The result the record names against how the play ended (``domino``/``fish``/``target``,
    or ``""`` when it did not end)."""
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


def check_after(rules: FivesRules, d: Deal, play: list[Entry], log: PlayLog) -> None:
    """The boneyard, the drawn tiles and each hand's size against what the play leaves."""
    masks = d.masks
    seats = rules.seats
    if d.boneyard is not None:
        undrawn = rules.boneyard_size - log.drawn
        if d.boneyard.bit_count() != undrawn:
            raise refuse("bad_draw", {"detail": f"the boneyard lists {d.boneyard.bit_count()} "
                                                f"tiles, the draws leave {undrawn}",
                                      "detail_ru": f"в базаре записано "
                                                   f"{d.boneyard.bit_count()}, а после добора "
                                                   f"остаётся {undrawn}"})
    if log.drawn_mask and _draws_wrong(d, seats, log):
        _name_wrong_draw(d, play, log.drawn_mask)
    in_hand = log.in_hand
    for k, seat in enumerate(seats):
        if seat in masks:
            count, expected = masks[seat].bit_count(), in_hand[k]
            if count != expected:
                code = "hand_too_large" if count > expected else "hand_too_small"
                raise refuse(code, {"seat": seat, "count": count, "limit": expected,
                                    "expected": expected}, seat=seat, expected=expected)
    for seat, pips in d.pips.items():
        if seat not in masks:
            limit = T.max_pips(in_hand[seats.index(seat)])
            if pips > limit:
                raise refuse("pips_out_of_range", {"seat": seat, "pips": pips, "limit": limit},
                             seat=seat)


def _draws_wrong(d: Deal, seats: tuple[str, ...], log: PlayLog) -> bool:
    """Whether a tile some seat drew by name is laid by another seat, held by another at the end,
    in the boneyard, or (not laid) missing from the drawer's hand written as tiles."""
    masks = d.masks
    held = 0
    for mask in masks.values():
        held |= mask
    on_table = log.on_table
    others = d.boneyard or 0
    for k, seat in enumerate(seats):
        got = log.drew[k]
        if not got:
            continue
        mine = masks.get(seat)
        if mine is None and seat == d.finisher:
            mine = 0  # the seat that went out holds nothing
        wrong = on_table & ~log.laid[k] | held & ~(mine or 0) | others
        if mine is not None:
            wrong |= ~on_table & ~mine  # neither laid nor held: the hand lost it
        if got & wrong:
            return True
    return False


def _name_wrong_draw(d: Deal, play: list[Entry], drawn_mask: int) -> None:
    """Raises ``draw_mismatch`` for the first wrong tile of the first wrong draw, in play order
    (called once ``_draws_wrong`` found one)."""
    masks = d.masks
    laid_by = {e[2]: e[1] for e in play if e[0] == MOVE}
    laid_by.update({t: e[1] for e in play if e[0] == MULTI for t in e[4][1]})
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


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def check_could_play(rules: FivesRules, d: Deal, log: PlayLog, out: bool) -> None:
    """A seat drew or passed while it held a tile that fitted (where its hand is known).

    Its hand at a stop is its hand at the end, plus the tiles it laid after the stop, less the
    tiles it drew from the stop on. Taken as sets this equals undoing the entries one by one
    backwards, because the play's own checks have already refused a tile drawn after it was
    laid, laid twice, drawn twice, or laid and also held at the end."""
    known: list[int | None] = []
    for k, seat in enumerate(rules.seats):
        hand = d.masks.get(seat)
        if hand is None and out and seat == d.finisher:
            hand = 0
        if log.counted >> k & 1:
            hand = None  # a counted draw hides which tiles the seat held
        known.append(hand)
    laid, drew = log.laid, log.drew
    for i, k, numbers, laid_before, drew_before in log.stops:
        end_hand = known[k]
        if end_hand is None:
            continue
        hand = (end_hand | laid[k] & ~laid_before) & ~(drew[k] & ~drew_before)
        fit = hand & FITS[numbers]
        if fit:
            seat = rules.seats[k]
            name = T.NAMES[fit.bit_length() - 1]
            raise refuse("could_play", {"entry": i + 1, "seat": seat, "tile": name},
                         entry=i + 1, seat=seat, tile=name)
