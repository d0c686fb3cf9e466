"""A legal-play simulator: deals the tiles, plays random legal moves, writes the referee's record.

Property tests, benchmarks and demo data use it. It plays the game itself (a line with two ends,
drawing from the boneyard in 2–3 player games, two doubles at once where allowed, «на сто» leads)
and knows nothing of scoring: the records it writes are judged by the engine like any other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import tiles as T
from .engine.judge import Judge
from .engine.types import MatchState
from .presets import Rules

#: Ladder order of the first lead: 1:1, 2:2 … 6:6, then 0:0.
LADDER = [T.INDEX[(d, d)] for d in (1, 2, 3, 4, 5, 6, 0)]
#: With no double dealt: the heaviest tile first (6:5, 6:4 … 1:0).
HEAVIEST = sorted((t for t in range(T.TILE_COUNT) if not T.IS_DOUBLE[t]),
                  key=lambda t: T.TILES[t], reverse=True)


@dataclass(slots=True)
class PlayedDeal:
    """One simulated deal: the record a referee writes, and what happened at the table."""

    record: dict[str, Any]
    hands: dict[str, list[int]]
    line: list[int] = field(default_factory=list)


def _fmt(items: list[int]) -> str:
    return " ".join(T.NAMES[t] for t in items)


def play_deal(rules: Rules, rng: random.Random, leader: str | None = None,
              first: bool = False, totals: dict[str, int] | None = None,
              style: str = "tiles") -> PlayedDeal:
    """Play one deal. ``leader`` None means the lead rule decides (``ladder``) or the lot."""
    seats = list(rules.seats)
    stock = list(range(T.TILE_COUNT))
    rng.shuffle(stock)
    hands = {s: stock[i * rules.hand_size:(i + 1) * rules.hand_size] for i, s in enumerate(seats)}
    boneyard = stock[len(seats) * rules.hand_size:]
    judge_sides = Judge(rules).side_of

    if leader is None:
        if first and rules.first_lead == "ladder":
            leader = _ladder_holder(hands)
        elif first and rules.first_lead.startswith("seat_"):
            leader = rules.first_lead[5:]
        else:
            leader = rng.choice(seats)

    for s in seats:
        mask = T.mask_of(hands[s])
        if ((mask & T.DOUBLE_MASK).bit_count() >= rules.redeal_doubles
                or any((mask & m).bit_count() >= rules.redeal_suit for m in T.SUIT_MASK)):
            record: dict[str, Any] = {"result": "redeal", "leader": leader,
                                      "hands": {x: _fmt(hands[x]) for x in seats}}
            return PlayedDeal(record, {x: list(h) for x, h in hands.items()})

    dealt = {s: list(h) for s, h in hands.items()}
    hand = {s: list(h) for s, h in hands.items()}
    # The lead.
    if first and rules.first_lead == "ladder":
        lead = _ladder_tile(hand[leader])
    elif (rules.na_sto and totals is not None and totals.get(judge_sides[leader], 0) > 0
          and T.SIX_SIX in hand[leader] and rng.random() < 0.5):
        lead = T.SIX_SIX
    else:
        lead = rng.choice(hand[leader])
    hand[leader].remove(lead)
    line = [lead]
    left, right = T.TILES[lead]
    last_move = [lead]
    last_mover = leader
    turn = seats.index(leader)
    passes = 0
    finisher: str | None = None
    while True:
        if not hand[last_mover]:
            finisher = last_mover
            break
        if passes >= len(seats):
            break
        turn = (turn + 1) % len(seats)
        seat = seats[turn]
        playable = [t for t in hand[seat] if left in T.TILES[t] or right in T.TILES[t]]
        while not playable and rules.draw and len(boneyard) > rules.boneyard_keep:
            drawn = boneyard.pop()
            hand[seat].append(drawn)
            if left in T.TILES[drawn] or right in T.TILES[drawn]:
                playable = [drawn]
        if not playable:
            passes += 1
            continue
        passes = 0
        move = _choose_move(rules, rng, hand[seat], playable, left, right)
        for t, end in move:
            hand[seat].remove(t)
            a, b = T.TILES[t]
            other = b if a == (left if end == "L" else right) else a
            if end == "L":
                left = other
            else:
                right = other
            line.append(t)
        last_move = [t for t, _ in move]
        last_mover = seat

    record = {"result": "domino" if finisher else "fish", "by": finisher or last_mover,
              "leader": leader, "lead_tile": T.NAMES[lead], "last_tiles": _fmt(last_move)}
    held = {s: h for s, h in hand.items() if s != finisher}
    if style in ("tiles", "both"):
        record["hands"] = {s: _fmt(h) for s, h in held.items()}
    if style in ("pips", "both"):
        record["pips"] = {s: sum(T.PIPS[t] for t in h) for s, h in held.items()}
    if boneyard and style != "pips":
        record["boneyard"] = _fmt(boneyard)
    return PlayedDeal(record, dealt, line)


def _choose_move(rules: Rules, rng: random.Random, hand: list[int], playable: list[int],
                 left: int, right: int) -> list[tuple[int, str]]:
    if rules.two_doubles and left != right:
        dl, dr = T.INDEX[(left, left)], T.INDEX[(right, right)]
        if dl in hand and dr in hand and rng.random() < 0.5:
            return [(dl, "L"), (dr, "R")]
    t = rng.choice(playable)
    ends = [e for e, v in (("L", left), ("R", right)) if v in T.TILES[t]]
    return [(t, rng.choice(ends))]


def _ladder_tile(hand: list[int]) -> int:
    for t in LADDER + HEAVIEST:
        if t in hand:
            return t
    raise AssertionError("an empty hand cannot lead")


def _ladder_holder(hands: dict[str, list[int]]) -> str:
    for t in LADDER + HEAVIEST:
        for seat, h in hands.items():
            if t in h:
                return seat
    raise AssertionError("no tiles dealt")


def play_match(rules: Rules, rng: random.Random, style: str = "tiles", max_deals: int = 400,
               time_up_after: int | None = None, declare: bool = False) -> list[dict[str, Any]]:
    """A whole match of legal records, judged as it goes so the leads and «на сто» are right.

    ``time_up_after`` marks that deal with ``time_up``; ``declare`` adds the amounts the engine
    records as ``declared`` (as a careful referee would announce them).
    """
    judge = Judge(rules)
    state: MatchState = judge.start()
    records: list[dict[str, Any]] = []
    while not state.finished and len(records) < max_deals:
        first = state.counted == 0
        played = play_deal(rules, rng, state.leader, first, state.totals, style)
        record = played.record
        if time_up_after is not None and len(records) + 1 == time_up_after:
            record["time_up"] = True
        preview = judge.judge(state.copy(), record, apply=False)
        if not preview.ok:
            raise AssertionError(f"simulated a refused deal: {record} → {preview.errors}")
        if declare:
            record["declared"] = {s: v for s, v in preview.recorded.items() if v}
        judge.judge(state, record)
        records.append(record)
    return records


# The fives games (RULES.md sections 15-23) have a simulator of their own, re-exported here.
from .fives.simulate import (  # noqa: E402
    FivesPlayed,
    light_scores,
    play_fives_deal,
    play_fives_match,
    to_light,
)

__all__ = ["LADDER", "HEAVIEST", "PlayedDeal", "play_deal", "play_match", "FivesPlayed",
           "light_scores", "play_fives_deal", "play_fives_match", "to_light"]
