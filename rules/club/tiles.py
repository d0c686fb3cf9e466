"""Section 31's tile-level checks of the club games: lines, crosses, closed doubles, several
doubles in one move, the fish, the size of a hand and the redeal.

    tile_problems(rules, record, in_play) -> list[Problem]

Called by ``rules.club.judge`` once per deal after the structure checks; returns every problem
it finds (the judge orders them as section 33 lists the codes). The table is the tiles in no
hand of a seat in play and not in the boneyard; it is *known* when every seat in play but the
finisher is written as tiles and, where there is a boneyard, ``boneyard`` is given. Only then
are the line, the cross and the ends of a fish tested.

**The line test** (section 12's ``not_a_line``): the tiles, as edges between the numbers 0–6
(a double is a loop), are connected and at most two numbers appear an odd number of times.
**The cross test** (``osel``, ``chechevo``) accepts, besides a line, a table with a double d:d
from which at most four arms start: connected, at most four odd numbers other than d, and for
every set S of numbers without d, no more odd numbers in S than tiles crossing from S to the
rest (each arm that ends in S crosses into it on its own tile). It is a counting test over 64
sets per double, not a search for the arms. Closed doubles are not recorded, so a fish in these
two games is not tested for its ends (the judge refuses one with an empty hand).
"""

from __future__ import annotations

from .. import tiles as T
from ..errors import Problem
from .presets import ClubRules
from .types import ClubRecord

_SIX_ZERO = T.INDEX[(6, 0)]
_LOW_HALF = (1 << T.HALF) - 1
_PARITY_LOW, _PARITY_HIGH = T.HALF_PARITY
_EDGES_LOW, _EDGES_HIGH = T.HALF_EDGES
#: the two lead tiles of a «внеочередной» lead of ``kozel_morskoy``
_EXTRA_LEAD = frozenset({T.SIX_SIX, T.ZERO_ZERO})


def tile_problems(rules: ClubRules, r: ClubRecord, in_play: tuple[str, ...]) -> list[Problem]:
    problems: list[Problem] = []
    dealt_boneyard = T.TILE_COUNT - len(in_play) * rules.hand_size
    finisher = r.by if r.result == "domino" else None
    in_hands = 0
    for seat in in_play:
        in_hands |= r.masks.get(seat, 0)
    problems += _sizes(rules, r, in_play, finisher, dealt_boneyard)
    if r.result == "redeal":
        if not any(_redeal_hand(rules, mask) for mask in r.masks.values()):
            doubles, suit = rules.redeal_limits
            problems.append(Problem("not_a_redeal", {"doubles": doubles, "suit": suit}))
        return problems
    known = (all(seat in r.masks for seat in in_play if seat != finisher)
             and (dealt_boneyard == 0 or r.boneyard is not None))  # fmt: skip
    boneyard = r.boneyard or 0
    table = T.FULL_SET & ~in_hands & ~boneyard
    extra_lead = len(r.lead_tiles) == 2 and set(r.lead_tiles) == _EXTRA_LEAD
    if known and not (extra_lead and r.result == "fish"):  # that fish is replayed
        problem = _table_problem(rules, table, extra_lead)
        if problem is None and r.result == "fish":
            problem = _fish_problem(rules, r, table, in_hands, boneyard)
        if problem is not None:
            problems.append(problem)
    elif r.result == "fish" and rules.layout == "line" and rules.preset != "semerka" \
            and r.boneyard is not None and r.boneyard.bit_count() > rules.boneyard_keep:
        problems.append(_left_to_draw())
    if r.last_tiles is not None:
        problem = _last_tiles_problem(rules, r, in_hands | boneyard)
        if problem is not None:
            problems.append(problem)
    return problems


# ------------------------------------------------------------------------------ hand sizes
def _sizes(rules: ClubRules, r: ClubRecord, in_play: tuple[str, ...], finisher: str | None,
           dealt_boneyard: int) -> list[Problem]:  # fmt: skip
    """``hand_too_large``: more tiles than were dealt plus every tile that could be drawn."""
    left = r.boneyard.bit_count() if r.boneyard is not None else 0
    if r.result == "redeal":
        limit = rules.hand_size
    elif rules.preset == "semerka":
        # a hand may take tiles from another player's hand: what the others must still hold
        # (every seat in play but the one who went out) and the boneyard written stay out
        holding = sum(1 for seat in in_play if seat != finisher) - 1
        limit = T.TILE_COUNT - holding - left
    else:
        limit = rules.hand_size + max(0, dealt_boneyard - max(left, rules.boneyard_keep))
    problems = []
    for seat in in_play:
        count = r.masks.get(seat, 0).bit_count()
        if count > limit:
            problems.append(Problem("hand_too_large", {"seat": seat, "count": count,
                                                       "limit": limit}, {"seat": seat}))
    return problems


def _redeal_hand(rules: ClubRules, mask: int) -> bool:
    doubles, suit = rules.redeal_limits
    if (mask & T.DOUBLE_MASK).bit_count() >= doubles:
        return True
    return any((mask & tiles).bit_count() >= suit for tiles in T.SUIT_MASK)


# ------------------------------------------------------------------------- line and cross
def _shape(table: int) -> tuple[int, int, list[int]]:
    """The numbers on the table, those shown an odd number of times, and each number's
    neighbours (numbers joined to it by a tile; a double joins its number to itself). Read from
    ``rules.tiles``' half-mask tables: no loop over the tiles."""
    low, high = table & _LOW_HALF, table >> T.HALF
    odd = _PARITY_LOW[low] ^ _PARITY_HIGH[high]
    edges = _EDGES_LOW[low] | _EDGES_HIGH[high]
    neighbours = [edges & 127, edges >> 7 & 127, edges >> 14 & 127, edges >> 21 & 127,
                  edges >> 28 & 127, edges >> 35 & 127, edges >> 42 & 127]
    # the joins are symmetric (a row's bit u is u's bit of that row; a double sets its own
    # bit), so the numbers present are the union of the rows
    a, b, c, d, e, f, g = neighbours
    return a | b | c | d | e | f | g, odd, neighbours


def _connected(present: int, neighbours: list[int]) -> bool:
    reach = frontier = present & -present
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = neighbours[low.bit_length() - 1] & ~reach
        reach |= new
        frontier |= new
    return reach == present


def _numbers(mask: int) -> str:
    return ", ".join(str(v) for v in range(T.MAX_PIP + 1) if mask >> v & 1)


def _table_problem(rules: ClubRules, table: int, extra_lead: bool) -> Problem | None:
    if not table:
        return Problem("not_a_line", {"detail": "no tile is on the table",
                                      "detail_ru": "на столе нет ни одной кости"})
    present, odd, neighbours = _shape(table)
    if extra_lead and not table >> _SIX_ZERO & 1:
        # 6:6 and 0:0 lie apart and only 6:0 joins them: the gap still empty, or 6:0 laid on
        # an outer end (not here) — either way the table is one line with one more 6–0 link
        present |= 1 | 1 << 6
        odd ^= 1 | 1 << 6
        neighbours[0] |= 1 << 6
        neighbours[6] |= 1
    if not _connected(present, neighbours):
        return Problem("not_a_line", {"detail": "the tiles fall into separate groups",
                                      "detail_ru": "кости распадаются на несвязанные группы"})
    if odd.bit_count() <= 2:
        return None
    if rules.layout == "cross" and any(_cross_at(d, table, odd) for d in range(T.MAX_PIP + 1)):
        return None
    numbers = _numbers(odd)
    if rules.layout == "cross":
        return Problem("not_a_line", {
            "detail": f"{numbers} appear an odd number of times: neither a line (two ends) nor a "
                      "cross (at most four arms from one double)",
            "detail_ru": f"{numbers} встречаются нечётное число раз: это ни цепь (два конца), ни "
                         "крест (не больше четырёх направлений от одного дубля)"})
    return Problem("not_a_line", {
        "detail": f"{numbers} appear an odd number of times; a line has at most two ends",
        "detail_ru": f"{numbers} встречаются нечётное число раз, а у цепи только два конца"})


def _cross_at(d: int, table: int, odd: int) -> bool:
    """Section 31's counting test of a cross at d:d (the table is already connected)."""
    if not table >> T.INDEX[(d, d)] & 1:
        return False
    far_ends = odd & ~(1 << d)
    if far_ends.bit_count() > 4:
        return False
    others = [v for v in range(T.MAX_PIP + 1) if v != d]
    edges = [T.TILES[t] for t in T.tiles_of(table) if not T.IS_DOUBLE[t]]
    for chosen in range(1, 1 << len(others)):
        s = 0
        for i, v in enumerate(others):
            if chosen >> i & 1:
                s |= 1 << v
        ends_inside = (far_ends & s).bit_count()
        if not ends_inside:
            continue
        crossing = sum(1 for a, b in edges if (s >> a & 1) != (s >> b & 1))
        if ends_inside > crossing:
            return False
    return True


# ------------------------------------------------------------------------------ the fish
def _left_to_draw() -> Problem:
    return Problem("not_blocked", {"detail": "tiles are left in the boneyard to draw",
                                   "detail_ru": "в базаре остались кости, их надо добирать"})


def _fish_problem(rules: ClubRules, r: ClubRecord, table: int, in_hands: int,
                  boneyard: int) -> Problem | None:  # fmt: skip
    if rules.layout == "cross":
        # closed doubles are not recorded: the open ends, and so the block, are unknown
        return None
    present, odd, _neighbours = _shape(table)
    suit = T.SUIT_MASK
    if rules.preset == "semerka":
        # «камни одного номинала вышли из игры и закрыли оба конца»: both ends show N, and no
        # tile of N is left in a hand or the boneyard (tiles may be left to draw)
        if not odd and any(present >> v & 1 and not (in_hands | boneyard) & suit[v]
                           for v in range(T.MAX_PIP + 1)):  # fmt: skip
            return None
        return Problem("not_blocked", {
            "detail": "in Семёрка a fish is both ends showing one number whose every tile is "
                      "played",
            "detail_ru": "в «Семёрке» «рыба» — это оба конца с одним числом, все кости которого "
                         "уже вышли"})
    if r.boneyard is not None and r.boneyard.bit_count() > rules.boneyard_keep:
        return _left_to_draw()
    if odd.bit_count() == 2:
        a, b = (odd & -odd).bit_length() - 1, odd.bit_length() - 1
        if in_hands & (suit[a] | suit[b]):
            return Problem("not_blocked", {
                "detail": f"the ends {a} and {b} can still be matched from a hand",
                "detail_ru": f"к концам {a} и {b} ещё можно приставить кость с руки"})
        return None
    if any(present >> v & 1 and not in_hands & suit[v] for v in range(T.MAX_PIP + 1)):
        return None
    return Problem("not_blocked", {
        "detail": "no number on the table is played out: both ends could still be matched",
        "detail_ru": "ни одно число на столе не вышло полностью: к концам ещё можно приставить"})


# ------------------------------------------------------------------------ the last move
def _last_tiles_problem(rules: ClubRules, r: ClubRecord, off_table: int) -> Problem | None:
    last = r.last_tiles or ()
    if not last:
        return Problem("bad_last_tiles", {"tile": "—", "detail": "no tile given",
                                          "detail_ru": "кость не указана"})
    if len(last) == 1 and not off_table >> last[0] & 1 and last[0] not in r.lead_tiles:
        return None  # the common case: one tile, on the table, not the lead
    names = " ".join(T.NAMES[t] for t in last)
    for t in last:
        if off_table >> t & 1:
            return Problem("bad_last_tiles", {
                "tile": names, "detail": f"{T.NAMES[t]} is not on the table",
                "detail_ru": f"{T.NAMES[t]} не на столе"}, {"tile": T.NAMES[t]})
        if t in r.lead_tiles:
            return Problem("bad_last_tiles", {
                "tile": names, "detail": f"{T.NAMES[t]} was the lead, not the finishing move",
                "detail_ru": f"{T.NAMES[t]} — заход, а не последний ход"}, {"tile": T.NAMES[t]})
    if len(last) > 1:
        if len(set(last)) != len(last) or not all(T.IS_DOUBLE[t] for t in last):
            return Problem("bad_last_tiles", {
                "tile": names, "detail": "one move plays one tile, or several different doubles",
                "detail_ru": "за ход ставится одна кость или несколько разных дублей"})
        most = rules.max_last_doubles
        if len(last) > most:
            return Problem("bad_last_tiles", {
                "tile": names,
                "detail": f"at most {most} doubles in one move here" if most > 1 else
                          "one move plays one tile here",
                "detail_ru": f"здесь за ход — не больше {most} дублей" if most > 1 else
                             "здесь за ход ставится одна кость"})  # fmt: skip
    return None


__all__ = ["tile_problems"]
