"""Judging club deals and folding them into a match: the stages every club game shares.

``ClubJudge(rules)`` reads a deal (``reading``), runs the structure checks, the redeal and the
tile checks of section 31 (``rules/club/tiles.py``, when present), the game's lead checks, and
then the game's scoring (a subclass per preset, ``rules/club/games/``). Problems are reported in
section 33's order. A refused deal changes nothing; ``fold`` judges a whole match.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from .. import tiles as T
from ..errors import Problem, declared_problem
from .presets import MAX_ENTRIES, ClubRules
from .reading import read_record, redeal_ok, structure_problems
from .types import ClubDealVerdict, ClubMatchVerdict, ClubRecord, ClubState, Refused
from .values import hand_value_of

#: section 33's order of problems
RANK = {code: i for i, code in enumerate((
    "deal_after_end", "too_many_deals", "bad_deal", "bad_tile", "duplicate_tile",
    "finisher_has_tiles", "missing_hand", "two_empty_hands", "tiles_needed", "hand_too_large",
    "pips_out_of_range", "pips_mismatch", "not_a_redeal", "not_blocked", "not_a_line",
    "wrong_leader", "bad_lead_tile", "bad_last_tiles", "declared_mismatch"))}

TileCheck = Callable[[ClubRules, ClubRecord, tuple[str, ...]], list[Problem]]


@cache
def _tile_check() -> TileCheck | None:
    """Section 31's checks (h26checks' ``rules/club/tiles.py``) once they exist; looked up
    once (a failed import is slow)."""
    try:  # by name: the module may not exist yet, and the architecture test reads imports
        module = importlib.import_module("rules.club.tiles")
    except ImportError:
        return None
    check: TileCheck = module.tile_problems
    return check


@dataclasses.dataclass(slots=True)
class Parts:
    """What a game's scoring says of one deal (the state is changed in place)."""

    winner: str | None
    recorded: dict[str, int]
    next_leader: str | None
    titles: list[dict[str, str]] = dataclasses.field(default_factory=list)
    void: bool = False
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)


class ClubJudge:
    """Judges deals under one set of club rules; subclasses score them (one per preset)."""

    #: the side ahead on time has more points (``dvorovoe``) or fewer (the others)
    more_is_better = False

    def __init__(self, rules: ClubRules) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.sides = rules.sides
        self.side_of = ({"N": "NS", "S": "NS", "E": "EW", "W": "EW"} if rules.partnership
                        else {s: s for s in self.seats})
        self.next_seat = {s: self.seats[(i + 1) % len(self.seats)]
                          for i, s in enumerate(self.seats)}
        self.value = hand_value_of(rules)
        self.tile_check = _tile_check()
        self.no_boneyard = rules.boneyard_size == 0

    # ---------------------------------------------------------------- match
    def start(self) -> ClubState:
        zeros = dict.fromkeys(self.sides, 0)
        return ClubState(totals=zeros, hanging=dict(zeros), losses=dict(zeros))

    def fold(self, deals: Iterable[Any]) -> ClubMatchVerdict:
        state = self.start()
        verdicts = [self.judge(state, deal) for deal in deals]
        return ClubMatchVerdict(self.rules.preset, verdicts, state)

    def in_play(self, state: ClubState) -> tuple[str, ...]:
        return self.seats

    # ----------------------------------------------------------------- deal
    def judge(self, state: ClubState, deal: Any, apply: bool = True) -> ClubDealVerdict:
        n = state.n + 1
        if apply:
            state.n = n
        try:
            if state.finished:
                raise Refused([Problem("deal_after_end", {"end": state.end})])
            if n > MAX_ENTRIES:
                raise Refused([Problem("too_many_deals", {"limit": MAX_ENTRIES})])
            in_play = self.in_play(state)
            record = read_record(self.rules, in_play, deal)
            problems = structure_problems(self.rules, record, in_play)
            problems += self.deal_problems(record, in_play)
            leader, lead_problems = self.leads(state, record)
            problems += lead_problems
            if problems:
                problems.sort(key=lambda p: RANK.get(p.code, 99))
                raise Refused(problems)
            new = _copy(state)
            parts = self.score(new, record, leader, in_play)
            if record.declared is not None:
                declared = record.declared
                if any(declared.get(s, 0) != parts.recorded.get(s, 0)
                       for s in set(declared) | set(parts.recorded)):
                    raise Refused([declared_problem(declared, parts.recorded)])
            if record.result != "redeal":
                new.counted += 1
            if record.time_up or new.overtime:
                self.time_end(new, record)
            if new.finished:
                parts.next_leader = None
            new.leader = parts.next_leader
        except Refused as refused:
            return ClubDealVerdict(
                n, False, refused.problems, None, dict.fromkeys(self.sides, 0),
                dict.fromkeys(self.sides, 0), state.eggs, dict(state.hanging),
                dict(state.totals), state.leader, extra=self.refused_extra())
        if apply:
            _commit(state, new)
        values = parts.extra.pop("values", None) or dict.fromkeys(self.sides, 0)
        return ClubDealVerdict(n, True, [], parts.winner, values, parts.recorded, new.eggs,
                               dict(new.hanging), dict(new.totals), parts.next_leader,
                               parts.titles, parts.void, parts.extra)

    def refused_extra(self) -> dict[str, Any]:
        return {}

    # --------------------------------------------------------------- stages
    def deal_problems(self, r: ClubRecord, in_play: tuple[str, ...]) -> list[Problem]:
        """Section 33's third group and ``bad_last_tiles``: the redeal, a fish with an empty
        hand, and section 31's tile checks."""
        problems: list[Problem] = []
        if self.tile_check is not None:
            problems += self.tile_check(self.rules, r, in_play)
        elif r.result == "redeal" and not redeal_ok(self.rules, r):
            doubles, suit = self.rules.redeal_limits
            problems.append(Problem("not_a_redeal", {"doubles": doubles, "suit": suit}))
        if r.result == "fish" and 0 in r.masks.values():
            problems.append(Problem("not_blocked", {
                "detail": "a hand is empty: that is a domino",
                "detail_ru": "у игрока пустая рука — это «домино»"}))
        return problems

    def leads(self, state: ClubState, r: ClubRecord) -> tuple[str | None, list[Problem]]:
        """Who led this deal, and the lead problems (``wrong_leader``, ``bad_lead_tile``)."""
        problems: list[Problem] = []
        expected = state.leader
        if (r.leader is not None and expected is not None and r.leader != expected
                and r.result != "redeal"):
            problems.append(Problem("wrong_leader", {"seat": r.leader, "expected_seat": expected},
                                    {"seat": r.leader, "expected": expected}))
        if r.lead_tiles and r.result != "redeal":
            off = self.off_table(r)
            for t in r.lead_tiles:
                if off >> t & 1:
                    problems.append(_lead_problem(t, "it is still in a hand or the boneyard",
                                                  "она ещё на руках или в базаре"))
        return (r.leader if r.leader is not None else expected), problems

    def off_table(self, r: ClubRecord) -> int:
        off = r.boneyard or 0
        for mask in r.masks.values():
            off |= mask
        return off

    def values(self, r: ClubRecord, in_play: tuple[str, ...]) -> dict[str, int]:
        """Each side's value (section 28): partners added, seats out count 0."""
        out = dict.fromkeys(self.sides, 0)
        domino = r.result == "domino"
        value, side_of = self.value, self.side_of
        for seat in in_play:
            mask = r.masks.get(seat)
            if mask is not None:
                out[side_of[seat]] += value(mask, domino)
            else:
                out[side_of[seat]] += r.pips.get(seat, 0)
        return out

    def score(self, new: ClubState, r: ClubRecord, leader: str | None,
              in_play: tuple[str, ...]) -> Parts:
        raise NotImplementedError

    # ---------------------------------------------------------------- time
    def ahead_key(self, new: ClubState, side: str) -> int:
        total = new.totals[side]
        return -total if self.more_is_better else total

    def time_end(self, new: ClubState, r: ClubRecord) -> None:
        """Section 10's time: the side ahead wins; equal: ``time_tie``."""
        if new.finished:
            return
        keys = {s: self.ahead_key(new, s) for s in self.sides}
        best = min(keys.values())
        leaders = [s for s in self.sides if keys[s] == best]
        if len(leaders) > 1 and self.rules.time_tie == "extra_deal":
            new.overtime = True
            return
        new.finished, new.end = True, "time"
        new.winner = leaders[0] if len(leaders) == 1 else "draw"
        new.losers = [] if new.winner == "draw" else [s for s in self.sides if s != new.winner]


def _lead_problem(t: int, en: str, ru: str) -> Problem:
    return Problem("bad_lead_tile", {"tile": T.NAMES[t], "detail": en, "detail_ru": ru},
                   {"tile": T.NAMES[t]})


def lead_problem(tiles: tuple[int, ...], en: str, ru: str) -> Problem:
    name = " ".join(T.NAMES[t] for t in tiles)
    return Problem("bad_lead_tile", {"tile": name, "detail": en, "detail_ru": ru},
                   {"tile": name})


def _copy(s: ClubState) -> ClubState:
    return s.copy()


def _commit(state: ClubState, new: ClubState) -> None:
    state.totals, state.hanging, state.eggs, state.counted = (new.totals, new.hanging,
                                                              new.eggs, new.counted)
    state.leader, state.finished, state.end, state.winner = (new.leader, new.finished,
                                                             new.end, new.winner)
    state.overtime, state.losers, state.titles, state.losses = (new.overtime, new.losers,
                                                                new.titles, new.losses)
    state.out, state.opening, state.replay, state.keep_leader = (new.out, new.opening,
                                                                 new.replay, new.keep_leader)
