"""Legal random matches of the club games (RULES.md 24–31) for ``rules_bench.py``, and their
measure: deals per second per game through ``ClubJudge.fold``.

A deal is played out on a line (a line is also a legal cross): tiles dealt, the leader lays any
tile, each player in turn lays a matching tile or draws (down to ``boneyard_keep``) or passes,
until one goes out (``last_tiles``: his last tile) or nobody can move (a fish, ``by`` the last
mover). Hands and the boneyard are written as tiles. A ``semerka`` fish (its own block rule) is
dealt again. The judge follows the match as it is made, so a match stops where its rules end it
and a ``semerka`` deal seats only the players still in. (h26checks' ``rules/club/simulate.py``
plays the games' own moves; this is the simple generator the bench needs.)
"""

from __future__ import annotations

import random
import time
from typing import Any

from rules import tiles as T
from rules.club import club_judge, make_club_rules
from rules.club.judge import ClubJudge

GAMES = ("dvorovoe", "kozel_morskoy", "osel", "chechevo", "semerka", "general")


def play_deal(judge: ClubJudge, seats: tuple[str, ...],
              rng: random.Random) -> dict[str, Any] | None:
    rules = judge.rules
    pool = list(range(T.TILE_COUNT))
    rng.shuffle(pool)
    size = rules.hand_size
    hands = {s: pool[i * size:(i + 1) * size] for i, s in enumerate(seats)}
    boneyard = pool[len(seats) * size:]
    turn = rng.randrange(len(seats))
    ends: tuple[int, int] | None = None
    passes, last_mover, last_tile = 0, seats[turn], -1
    while passes < len(seats):
        seat = seats[turn]
        hand = hands[seat]
        while True:
            move = next((t for t in hand if ends is None or ends[0] in T.TILES[t]
                         or ends[1] in T.TILES[t]), None)
            if move is not None or len(boneyard) <= rules.boneyard_keep:
                break
            hand.append(boneyard.pop())
        if move is None:
            passes += 1
        else:
            passes, last_mover, last_tile = 0, seat, move
            hand.remove(move)
            a, b = T.TILES[move]
            if ends is None:
                ends = (a, b)
            elif ends[0] in (a, b):
                ends = (b if a == ends[0] else a, ends[1])
            else:
                ends = (ends[0], b if a == ends[1] else a)
            if not hand:
                break
        turn = (turn + 1) % len(seats)
    out = not hands[last_mover]
    if not out and rules.preset == "semerka":
        return None
    deal: dict[str, Any] = {"result": "domino" if out else "fish", "by": last_mover,
                            "hands": {s: T.format_tiles(h) for s, h in hands.items()
                                      if h or s != last_mover}}
    if out:
        deal["last_tiles"] = T.NAMES[last_tile]
    if rules.boneyard_size:
        deal["boneyard"] = T.format_tiles(boneyard)
    return deal


def play_match(judge: ClubJudge, rng: random.Random, limit: int = 40) -> list[dict[str, Any]]:
    state = judge.start()
    deals: list[dict[str, Any]] = []
    while not state.finished and len(deals) < limit:
        deal = play_deal(judge, judge.in_play(state), rng)
        if deal is None:
            continue
        verdict = judge.judge(state, deal)
        if not verdict.ok:  # a deal the simple generator gets wrong: leave it out
            state.n -= 1
            continue
        deals.append(deal)
    return deals


def measure(matches: int, repeat: int, seed: int) -> None:
    for name in GAMES:
        rules = make_club_rules(name)
        judge = club_judge(rules)
        rng = random.Random(seed)
        played = [play_match(judge, rng) for _ in range(matches)]
        count = sum(len(m) for m in played)
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            for m in played:
                assert judge.fold(m).ok
            best = min(best, time.perf_counter() - start)
        print(f"{name:14} {count:6} deals: {count / best:>9,.0f} deals/s "
              f"(ClubJudge.fold, best of {repeat})")
