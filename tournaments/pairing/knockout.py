"""Knock-out brackets: seeding, the ties' state read back from the games played, the next
games to pair, and the places. Pure: plain ids in, plain data out, no database.

    seed_order(size) -> [1, 8, 4, 5, 2, 7, 3, 6]     the bracket's lines by seed
    bracket(seeds, size, best_of, third_place, games) -> Bracket
    next_games(bracket) -> RoundPairing              one table per tie still to be decided
    placings(bracket) -> [(entry, level reached)]    champion first; losers of one level by seed

The bracket has ``size`` lines (2, 4, 8 or 16); seed k of ``seeds`` (entry ids, best first)
takes the line ``seed_order`` gives it, so seed 1 meets seed N, seed 2 meets N-1, … and the two
best can meet only in the final. With fewer seeds than lines the missing ones are byes: they fall
to the best seeds, who go through without a game.

A tie is one match (``best_of`` 1) or the best of three: the first side to win
``best_of // 2 + 1`` games goes through. A drawn game wins nobody anything, so a drawn tie of one
match is played again. Every game of every tie is a table of some round, given here in the
order played (``Game``): the bracket is rebuilt from them each time, so nothing about it is
stored but the seeds. A level is completed before the next is paired; the match for third place
(the semi-finals' losers) is played in the round of the final.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .types import RoundPairing, Table

SIZES = (2, 4, 8, 16)


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order: ties are (order[0], order[1]), (order[2], order[3]), …"""
    if size not in SIZES:
        raise ValueError(f"a bracket has 2, 4, 8 or 16 lines, not {size}")
    order = [1]
    while len(order) < size:
        lines = len(order) * 2
        order = [seed for top in order for seed in (top, lines + 1 - top)]
    return order


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a tie: its round, its two entries, the winner (None: a draw, or still in
    play when ``done`` is False)."""

    round: int
    a: int
    b: int
    winner: int | None
    done: bool = True


@dataclass(slots=True)
class Tie:
    """Two entries of one level (``a`` the line above ``b``); None is nobody (a bye)."""

    level: int
    slot: int
    a: int | None
    b: int | None
    third_place: bool = False
    games: list[Game] = field(default_factory=list)
    wins: dict[int, int] = field(default_factory=dict)
    winner: int | None = None
    decided: bool = False

    @property
    def sides(self) -> tuple[int, ...]:
        return tuple(i for i in (self.a, self.b) if i is not None)

    @property
    def bye(self) -> bool:
        """Decided without a game: one side is nobody."""
        return len(self.sides) == 1

    @property
    def loser(self) -> int | None:
        if not self.decided or self.winner is None or self.bye:
            return None
        return self.b if self.winner == self.a else self.a

    @property
    def in_play(self) -> bool:
        return any(not g.done for g in self.games)


@dataclass(slots=True)
class Bracket:
    size: int
    best_of: int
    third_place: bool
    #: entry id -> seed (1 = best)
    seeds: dict[int, int]
    #: the levels built so far (a level is built once the one before it is decided)
    levels: list[list[Tie]] = field(default_factory=list)
    third: Tie | None = None

    @property
    def depth(self) -> int:
        """How many levels the whole bracket has (3 for 8 lines: quarter, semi, final)."""
        return self.size.bit_length() - 1

    @property
    def needed(self) -> int:
        return self.best_of // 2 + 1

    @property
    def final(self) -> Tie | None:
        if len(self.levels) == self.depth:
            return self.levels[-1][0]
        return None

    @property
    def finished(self) -> bool:
        final = self.final
        return (final is not None and final.decided
                and (self.third is None or self.third.decided))  # fmt: skip

    @property
    def champion(self) -> int | None:
        final = self.final
        return final.winner if final is not None and final.decided else None

    def open_ties(self) -> list[Tie]:
        """The ties of the current level (and the third-place match) still to be decided."""
        ties = [t for t in self.levels[-1] if not t.decided] if self.levels else []
        if self.third is not None and not self.third.decided:
            ties.append(self.third)
        return ties

    def seed(self, entry: int | None) -> int:
        return self.seeds.get(entry, 10**6) if entry is not None else 10**6


def _tie(level: int, slot: int, a: int | None, b: int | None, third: bool = False) -> Tie:
    tie = Tie(level, slot, a, b, third_place=third)
    if len(tie.sides) < 2:  # a bye (or nobody at all): decided at once
        tie.decided, tie.winner = True, (tie.sides[0] if tie.sides else None)
    return tie


def _advance(br: Bracket) -> None:
    """Build the next levels while the last one is decided."""
    while len(br.levels) < br.depth and all(t.decided for t in br.levels[-1]):
        last = br.levels[-1]
        level = len(br.levels) + 1
        br.levels.append([_tie(level, i // 2, last[i].winner, last[i + 1].winner)
                          for i in range(0, len(last), 2)])  # fmt: skip
        if level == br.depth and br.third_place and len(last) == 2:
            br.third = _tie(level, 1, last[0].loser, last[1].loser, third=True)


def bracket(seeds: Sequence[int], size: int, best_of: int, third_place: bool,
            games: Sequence[Game] = ()) -> Bracket:  # fmt: skip
    """The bracket of ``seeds`` (entry ids, best first) after ``games`` (in the order played).
    Raises ValueError for a game that is no open tie of the bracket."""
    if best_of not in (1, 3):
        raise ValueError("a tie is one match or the best of three")
    if len(seeds) < 2 or len(seeds) > size or len(set(seeds)) != len(seeds):
        raise ValueError(f"a bracket of {size} lines takes 2 to {size} different entries")
    lines = [seeds[s - 1] if s <= len(seeds) else None for s in seed_order(size)]
    br = Bracket(size, best_of, third_place, {e: n for n, e in enumerate(seeds, 1)})
    br.levels.append([_tie(1, i // 2, lines[i], lines[i + 1]) for i in range(0, size, 2)])
    _advance(br)
    for game in games:
        tie = next((t for t in br.open_ties() if {game.a, game.b} == set(t.sides)), None)
        if tie is None:
            raise ValueError(f"round {game.round}: {game.a} v {game.b} is no open tie")
        tie.games.append(game)
        if game.done and game.winner is not None:
            tie.wins[game.winner] = tie.wins.get(game.winner, 0) + 1
            if tie.wins[game.winner] >= br.needed:
                tie.decided, tie.winner = True, game.winner
                _advance(br)
    return br


def next_games(br: Bracket, first_table: int = 1) -> RoundPairing:
    """A table for every open tie (the better seed sits NS); the final's table comes before
    the match for third place. Nothing when a tie is still in play or the bracket is over."""
    ties = br.open_ties()
    if any(t.in_play for t in ties):
        raise ValueError("a game of this level is still in play")
    tables = []
    for number, tie in enumerate(ties, first_table):
        a, b = sorted(tie.sides, key=br.seed)
        flags = {"knockout", "third_place"} if tie.third_place else {"knockout"}
        tables.append(Table(number=number, ns=(a,), ew=(b,), flags=frozenset(flags)))
    notes = tuple(
        f"Knock-out level {t.level}: seed {br.seed(t.winner)} goes through by a bye"
        for t in br.levels[-1] if t.bye and not t.games
    ) if len(br.levels) == 1 else ()  # fmt: skip
    return RoundPairing(tables=tuple(tables), notes=notes)


def placings(br: Bracket) -> list[tuple[int, int]]:
    """Every seeded entry with the level it went out at (``depth + 1`` for the champion), best
    first: the champion, the runner-up, the third-place match's winner and loser, then the
    losers of each earlier level, by seed within a level. The entries still in come first
    (ordered by seed) while the bracket is being played."""
    out: dict[int, int] = {}
    rank: dict[int, tuple[int, int]] = {}
    for level in br.levels:
        for tie in level:
            for entry in tie.sides:
                out[entry] = tie.level
                if tie.decided and entry != tie.winner:
                    rank[entry] = (tie.level, 0)
                else:
                    rank[entry] = (tie.level + 1, 0)  # went through (or still in)
    final = br.final
    if final is not None and final.decided and final.winner is not None:
        rank[final.winner] = (br.depth + 2, 0)
        out[final.winner] = br.depth + 1
    third = br.third
    if third is not None and third.decided and third.winner is not None:
        rank[third.winner] = (br.depth - 1, 1)  # above the other semi-final loser
    order = sorted(out, key=lambda e: (-rank[e][0], -rank[e][1], br.seed(e)))
    return [(entry, out[entry]) for entry in order]
