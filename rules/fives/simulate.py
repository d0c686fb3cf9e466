"""A legal-play simulator for the fives games: deals, plays random legal moves, writes the record.

Property tests and the benchmark use it (``rules.simulate`` re-exports it). It plays by the order
of RULES.md section 17 (a seat that can play must; one that cannot draws one tile at a time until
one fits, and passes when nothing is left to draw), lays the tiles on a ``FivesTable`` (so the
spinner and the ends are the engine's own geometry) and writes the line of play in the strong
form; ``to_light`` turns it into the points-only form of section 19. Scoring is left to the
judge: ``play_fives_match`` judges each deal as it goes to know the totals and the next leader.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .. import tiles as T
from .judge import FivesJudge
from .presets import FivesRules
from .table import FivesTable, Laid

#: record styles: draws named and hands as tiles (everything checkable), draws only counted,
#: hands only as pip counts
STYLES = ("tiles", "counted", "pips")


@dataclass(slots=True)
class FivesPlayed:
    """One simulated deal: the referee's record and what happened at the table."""

    record: dict[str, Any]
    dealt: dict[str, list[int]]
    #: the seat of each move, the tile, and what it scored (as the table counted it)
    moves: list[tuple[str, int, int]]


def _fmt(items: list[int]) -> str:
    return " ".join(T.NAMES[t] for t in items)


def play_fives_deal(rules: FivesRules, rng: random.Random, leader: str | None = None,
                    totals: dict[str, int] | None = None, style: str = "tiles",
                    announce: float = 0.5) -> FivesPlayed:
    """Play one deal. ``leader`` None: drawn by lot. ``totals`` (before the deal) matter under
    ``target_check: move``. ``announce`` is how often a move's ``points`` are written."""
    seats = rules.seats
    n = len(seats)
    stock = list(range(T.TILE_COUNT))
    rng.shuffle(stock)
    size = rules.hand_size
    hand = {s: stock[i * size:(i + 1) * size] for i, s in enumerate(seats)}
    dealt = {s: list(h) for s, h in hand.items()}
    boneyard = stock[n * size:]
    drawable = rules.drawable
    side_of = FivesJudge(rules).side_of
    points = dict.fromkeys(rules.sides, 0)
    before = totals or dict.fromkeys(rules.sides, 0)
    target = rules.target if rules.target_check == "move" else 0
    table = FivesTable(rules)
    if leader is None and rules.first_lead == "double_zero":  # «Телефон»: the holder of 0:0
        leader = next((s for s in seats if T.ZERO_ZERO in hand[s]), None)
    seat = leader if leader is not None else rng.choice(seats)
    turn = seats.index(seat)
    play: list[dict[str, Any]] = []
    moves: list[tuple[str, int, int]] = []
    passes = 0
    result = ""
    while not result:
        seat = seats[turn]
        held = hand[seat]
        fitting = [t for t in held if table.fits(t)]
        if not fitting:
            drew: list[int] = []
            while drawable > 0:
                t = boneyard.pop()
                drawable -= 1
                held.append(t)
                drew.append(t)
                if table.fits(t):
                    fitting = [t]
                    break
            _write_draws(play, seat, drew, style, rng)
            if not fitting:
                play.append({"seat": seat, "pass": True})
                passes += 1
                if passes == n:
                    result = "fish"
                turn = (turn + 1) % n
                continue
        doubles = _doubles_move(rules, table, held, rng) if rules.max_doubles > 1 else None
        t = rng.choice(fitting)
        entry: dict[str, Any] = {"seat": seat, "tile": _spell(t, rng)}
        if doubles:
            entry, laid, laid_tiles = doubles
            entry["seat"] = seat
            t = laid_tiles[0]
            for other in laid_tiles[1:]:
                held.remove(other)  # the first is removed below, as a single tile is
        elif table.moves:
            ends = table.legal_ends(t)
            end = rng.choice(ends)
            if len(ends) > 1 or rng.random() < 0.7:
                entry["end"] = end
            laid = table.play(t, end)
        else:
            laid = table.play(t)
        if rng.random() < announce:
            entry["points"] = laid.points
        play.append(entry)
        held.remove(t)
        moves.append((seat, t, laid.points))
        side = side_of[seat]
        points[side] += laid.points
        passes = 0
        if not held:
            result = "domino"
        elif target and before[side] + points[side] >= target:
            result = "target"
        turn = (turn + 1) % n
    return FivesPlayed(_record(rules, rng, result, seat, play, hand, boneyard, style),
                       dealt, moves)


def _doubles_move(rules: FivesRules, table: FivesTable, held: list[int],
                  rng: random.Random) -> tuple[dict[str, Any], Laid, list[int]] | None:
    """Sometimes (``telefon``) several doubles in one move, each on its own open end: the entry
    and what it made, or None for a single tile."""
    if not table.moves or rng.random() < 0.3:
        return None
    open_ends = table.open_ends
    chosen: list[tuple[int, str]] = []
    taken: set[str] = set()
    for t in held:
        a, b = T.TILES[t]
        ends = [e for e, n in open_ends.items() if n == a and e not in taken] if a == b else []
        if ends:
            end = rng.choice(ends)
            taken.add(end)
            chosen.append((t, end))
    if len(chosen) < 2:
        return None
    rng.shuffle(chosen)
    chosen = chosen[:rng.randint(2, min(rules.max_doubles, len(chosen)))]
    placed: list[dict[str, Any]] = []
    for t, end in chosen:
        item: dict[str, Any] = {"tile": _spell(t, rng)}
        if len(table.legal_ends(t)) > 1 or rng.random() < 0.7:
            item["end"] = end
        placed.append(item)
    _, count, points = table.play_doubles([t for t, _ in chosen],
                                          [e for _, e in chosen])
    tiles = [t for t, _ in chosen]
    return {"seat": "", "tiles": placed}, Laid(tiles[0], None, count, points), tiles


def _spell(t: int, rng: random.Random) -> str:
    # any notation and either order, as referees write them (section 3)
    a, b = T.TILES[t]
    if rng.random() < 0.8:
        return f"{a}:{b}"
    return rng.choice((f"{b}:{a}", f"{a}-{b}", f"[{b}|{a}]"))


def _write_draws(play: list[dict[str, Any]], seat: str, drew: list[int], style: str,
                 rng: random.Random) -> None:
    if not drew:
        return
    if style == "counted":
        play.append({"seat": seat, "draw": len(drew)})
    elif len(drew) > 1 and rng.random() < 0.3:  # several tiles may be written in one entry
        play.append({"seat": seat, "draw": _fmt(drew)})
    else:
        play.extend({"seat": seat, "draw": T.NAMES[t]} for t in drew)


def _record(rules: FivesRules, rng: random.Random, result: str, last: str,
            play: list[dict[str, Any]], hand: dict[str, list[int]], boneyard: list[int],
            style: str) -> dict[str, Any]:
    record: dict[str, Any] = {"result": result, "play": play}
    if rng.random() < 0.5:
        record["leader"] = play[0]["seat"]
    if result == "domino" and rng.random() < 0.7:
        record["by"] = last
    if result != "target" or rng.random() < 0.5:
        held = {s: h for s, h in hand.items() if not (result == "domino" and s == last)}
        if style == "pips":
            record["pips"] = {s: sum(T.PIPS[t] for t in h) for s, h in held.items()}
        else:
            record["hands"] = {s: _fmt(h) for s, h in held.items()}
        if style == "tiles" and rules.boneyard_size:
            record["boneyard"] = _fmt(boneyard)
    return record


def to_light(record: dict[str, Any]) -> dict[str, Any]:
    """The same deal in the points-only form (section 19): the scoring plays and the hands."""
    light: dict[str, Any] = {"result": record["result"], "scores": []}
    moves = [e for e in record["play"] if "tile" in e or "tiles" in e]
    for key in ("leader", "hands", "pips", "boneyard", "declared", "time_up"):
        if key in record:
            light[key] = record[key]
    if record["result"] == "domino":
        light["by"] = record.get("by", moves[-1]["seat"])
    return light


def light_scores(record: dict[str, Any], verdict_moves: list[dict[str, Any]]) -> dict[str, Any]:
    """``to_light`` with the scoring plays the judge counted for the strong record."""
    light = to_light(record)
    light["scores"] = [{"seat": m["seat"], "points": m["points"]}
                       for m in verdict_moves if m["points"]]
    return light


def play_fives_match(rules: FivesRules, rng: random.Random, style: str = "tiles",
                     max_deals: int = 200, declare: bool = False,
                     time_up_after: int | None = None) -> list[dict[str, Any]]:
    """A whole match of legal strong records, judged as it goes for the totals and the leads."""
    judge = FivesJudge(rules)
    state = judge.start()
    records: list[dict[str, Any]] = []
    while not state.finished and len(records) < max_deals:
        played = play_fives_deal(rules, rng, state.leader, state.totals, style)
        record = played.record
        if time_up_after is not None and len(records) + 1 == time_up_after:
            record["time_up"] = True
        verdict = judge.judge(state.copy(), record, apply=False)
        if not verdict.ok:
            raise AssertionError(f"simulated a refused deal: {record} -> {verdict.errors}")
        if declare:
            record["declared"] = {s: v for s, v in verdict.recorded.items() if v}
        judge.judge(state, record)
        records.append(record)
    return records
