"""Random legal matches of the club games, played tile by tile, for the property tests.

    play_club_deal(judge, state, rng) -> dict | None   one deal as the referee records it
    play_club_match(judge, rng, limit=60) -> list[dict]

A deal is dealt and played out: the leader (the judge's expected leader, or any seat where the
ladder decides) lays a tile; each player in turn lays a matching tile — in ``osel`` and
``chechevo`` the first double laid open becomes the cross and opens four arms, and a player may
lay several doubles in one move (up to the preset's number, each on another end, as
``kozel_morskoy`` and ``general`` allow two on a line) — or draws down to ``boneyard_keep``, or
passes. The deal ends when one goes out (``last_tiles``: the tiles of that move) or nobody can
move (a fish, ``by`` the last mover, ``last_tiles`` the blocking move). A hand that allows a
redeal is recorded as one. Hands and the boneyard are written as tiles, ``leader`` as the judge
expects it. A ``semerka`` fish must close both ends on one number whose tiles are all out
(its own rule), so a ``semerka`` deal that blocks otherwise is dealt again. Nothing is
corrected after the judge: a deal it refuses is a bug of the simulator or of the judge.
"""

from __future__ import annotations

import random
from typing import Any

from .. import tiles as T
from .judge import ClubJudge
from .types import ClubState


def _fits(tile: int, end: int) -> bool:
    return end in T.TILES[tile]


def _other(tile: int, end: int) -> int:
    a, b = T.TILES[tile]
    return b if a == end else a


def _redeal_seat(judge: ClubJudge, hands: dict[str, list[int]]) -> str | None:
    doubles, suit = judge.rules.redeal_limits
    for seat, hand in hands.items():
        mask = T.mask_of(hand)
        if (mask & T.DOUBLE_MASK).bit_count() >= doubles or any(
                (mask & s).bit_count() >= suit for s in T.SUIT_MASK):  # fmt: skip
            return seat
    return None


def play_club_deal(judge: ClubJudge, state: ClubState,
                   rng: random.Random) -> dict[str, Any] | None:  # fmt: skip
    rules = judge.rules
    seats = judge.in_play(state)
    pool = list(range(T.TILE_COUNT))
    rng.shuffle(pool)
    size = rules.hand_size
    hands = {s: pool[i * size:(i + 1) * size] for i, s in enumerate(seats)}
    boneyard = pool[len(seats) * size:]
    redeal = _redeal_seat(judge, hands)
    if redeal is not None:
        return {"result": "redeal", "hands": {redeal: T.format_tiles(hands[redeal])}}
    leader = state.leader if state.leader in seats else rng.choice(seats)
    cross = rules.layout == "cross"
    most = rules.max_last_doubles
    ends: list[int] = []
    crossed = False
    turn = seats.index(leader)
    passes, last_mover, last_move = 0, leader, [0]
    while passes < len(seats):
        seat = seats[turn]
        hand = hands[seat]
        while True:
            move = _move(hand, ends, rng)
            if move or len(boneyard) <= rules.boneyard_keep:
                break
            hand.append(boneyard.pop())
        if not move:
            passes += 1
        else:
            if ends and most > 1 and T.IS_DOUBLE[move[0]]:
                move += _more_doubles(hand, ends, move[0], most - 1, rng)
            passes, last_mover, last_move = 0, seat, move
            for t in move:
                hand.remove(t)
                crossed = _lay(ends, t, cross and not crossed) or crossed
            if not hand:
                break
        turn = (turn + 1) % len(seats)
    out = not hands[last_mover]
    if not out and rules.preset == "semerka" and not _semerka_fish(ends, hands, boneyard):
        return None
    deal: dict[str, Any] = {
        "result": "domino" if out else "fish", "by": last_mover,
        "hands": {s: T.format_tiles(h) for s, h in hands.items() if h or s != last_mover},
        "last_tiles": T.format_tiles(last_move),
    }
    if state.leader is not None:
        deal["leader"] = leader
    if rules.boneyard_size:
        deal["boneyard"] = T.format_tiles(boneyard)
    return deal


def _move(hand: list[int], ends: list[int], rng: random.Random) -> list[int]:
    """One tile that can be laid (any as the lead), chosen at random."""
    playable = [t for t in hand if not ends or any(_fits(t, e) for e in ends)]
    return [rng.choice(playable)] if playable else []


def _more_doubles(hand: list[int], ends: list[int], first: int, room: int,
                  rng: random.Random) -> list[int]:  # fmt: skip
    """Further doubles for the same move, each on an end of its own (at random: some or none)."""
    free = list(ends)
    free.remove(next(e for e in free if _fits(first, e)))
    more: list[int] = []
    for t in hand:
        if len(more) == room or t == first or not T.IS_DOUBLE[t] or rng.random() < 0.3:
            continue
        end = next((e for e in free if _fits(t, e)), None)
        if end is not None:
            free.remove(end)
            more.append(t)
    return more


def _lay(ends: list[int], tile: int, may_cross: bool) -> bool:
    """Lay ``tile`` on the first end it fits; True when it became the cross."""
    a, b = T.TILES[tile]
    if not ends:
        if may_cross and a == b:
            ends.extend([a] * 4)
            return True
        ends.extend([a, b])
        return False
    i = next(i for i, e in enumerate(ends) if _fits(tile, e))
    if may_cross and a == b:
        ends.extend([a, a])  # the first double laid open: two more arms from it
        return True
    ends[i] = _other(tile, ends[i])
    return False


def _semerka_fish(ends: list[int], hands: dict[str, list[int]], boneyard: list[int]) -> bool:
    """Both ends show one number whose every tile is out of the hands and the boneyard."""
    if len(set(ends)) != 1:
        return False
    number = ends[0]
    left = [t for h in hands.values() for t in h] + boneyard
    return not any(_fits(t, number) for t in left)


def play_club_match(judge: ClubJudge, rng: random.Random,
                    limit: int = 60) -> list[dict[str, Any]]:  # fmt: skip
    """Deals until the match ends (or ``limit`` deals); each is judged as it is made, so the
    next one is played by the seats still in and led by the expected leader."""
    state = judge.start()
    deals: list[dict[str, Any]] = []
    while not state.finished and len(deals) < limit:
        deal = play_club_deal(judge, state, rng)
        if deal is None:
            continue
        verdict = judge.judge(state, deal)
        deals.append(deal)
        if not verdict.ok:
            break  # the caller sees the refusal in the fold
    return deals
