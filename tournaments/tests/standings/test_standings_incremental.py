"""The kept standings (``standings.incremental.Kept``) against the full computation: after every
change of a random sequence — rounds paired, protocols confirmed and corrected, forfeits given
and taken back, withdrawals and returns, absences, sanctions — the kept table equals
``standings`` of the whole event (hypothesis, no database)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import TIEBREAKS, Game, Sanction, Settings, standings
from tournaments.standings.incremental import Kept
from tournaments.standings.types import End, Result


@dataclass
class Table:
    sides: tuple[int, ...]  # two participants, or one for a bye
    outcome: tuple[Result, int, int, int, End] | None = None  # the first side's, when played
    offender: int | None = None  # a forfeit


@dataclass
class Event:
    """An event as the database holds it, turned into games the way ``results.ledger`` does:
    the tables' games round by round, then each participant's rounds without a place."""

    n: int
    rounds: list[list[Table]] = field(default_factory=list)
    withdrawn: set[int] = field(default_factory=set)
    absent: set[tuple[int, int]] = field(default_factory=set)
    sanctions: list[Sanction] = field(default_factory=list)

    def games(self) -> list[Game]:
        games: list[Game] = []
        for number, tables in enumerate(self.rounds, start=1):
            for table in tables:
                if len(table.sides) == 1:
                    games.append(Game(number, table.sides[0], None, "win", played=False,
                                      kind="bye"))  # fmt: skip
                    continue
                a, b = table.sides
                if table.offender is not None:
                    for pid in (a, b):
                        lost = pid == table.offender
                        kind = "forfeit_loss" if lost else "forfeit_win"
                        games.append(Game(number, pid, None, "loss" if lost else "win",
                                          played=False, kind=kind))  # fmt: skip
                elif table.outcome is not None:
                    result, ours, theirs, deals, end = table.outcome
                    flipped: Result = {"win": "loss", "loss": "win"}.get(result, "draw")  # type: ignore[assignment]
                    games.append(Game(number, a, b, result, ours, theirs, deals, True, "", end))
                    games.append(Game(number, b, a, flipped, theirs, ours, 8 - deals, True, "",
                                      end))  # fmt: skip
        for pid in range(1, self.n + 1):
            seated = [n for n, tables in enumerate(self.rounds, 1)
                      if any(pid in t.sides for t in tables)]  # fmt: skip
            last = max(seated, default=0)
            for number in range(1, len(self.rounds) + 1):
                if number in seated:
                    continue
                gone = pid in self.withdrawn and number > last and (pid, number) not in self.absent
                games.append(Game(number, pid, None, "loss", played=False,
                                  kind="withdrawn" if gone else "absent"))  # fmt: skip
        return games


def outcome(rng: random.Random) -> tuple[Result, int, int, int, End]:
    ours, theirs = rng.randint(0, 120), rng.randint(0, 120)
    result: Result = "win" if ours > theirs else "loss" if ours < theirs else "draw"
    return result, ours, theirs, rng.randint(0, 8), rng.choice(("target", "time", "deals"))


def pair(event: Event, rng: random.Random) -> None:
    """A new round: the participants still in and present, shuffled, an odd one out on a bye."""
    number = len(event.rounds) + 1
    field_ = [p for p in range(1, event.n + 1)
              if p not in event.withdrawn and rng.random() > 0.1]  # fmt: skip
    for pid in set(range(1, event.n + 1)) - set(field_):
        if rng.random() < 0.5:
            event.absent.add((pid, number))
    rng.shuffle(field_)
    tables = [Table((a, b)) for a, b in zip(field_[0::2], field_[1::2], strict=False)]
    if len(field_) % 2:
        tables.append(Table((field_[-1],)))
    event.rounds.append(tables)


def change(event: Event, rng: random.Random) -> str:
    """One random change of what the standings read; returns its name."""
    tables = [t for tables in event.rounds for t in tables if len(t.sides) == 2]
    roll = rng.random()
    if not event.rounds or roll < 0.1:
        pair(event, rng)
        return "pair"
    if tables and roll < 0.55:
        table = rng.choice(tables)
        corrected = table.outcome is not None
        table.outcome = outcome(rng)
        return "correct" if corrected else "confirm"
    if tables and roll < 0.65:
        table = rng.choice(tables)
        table.offender = None if table.offender is not None else rng.choice(table.sides)
        return "forfeit"
    if roll < 0.75:
        pid = rng.randint(1, event.n)
        event.withdrawn ^= {pid}
        return "withdraw"
    if roll < 0.8:
        event.absent ^= {(rng.randint(1, event.n), rng.randint(1, len(event.rounds)))}
        return "absence"
    if roll < 0.9 or not event.sanctions:
        event.sanctions.append(Sanction(rng.randint(1, event.n), rng.randint(1, len(event.rounds)),
                                        rng.choice((0, 1, 2)), rng.choice((0, 0, 10))))  # fmt: skip
        return "sanction"
    event.sanctions.pop(rng.randrange(len(event.sanctions)))
    return "revoke"


def by_participant(games: list[Game], n: int) -> dict[int, list[Game]]:
    of: dict[int, list[Game]] = {pid: [] for pid in range(1, n + 1)}
    for game in games:
        of[game.participant].append(game)
    return of


orders = st.lists(st.sampled_from(TIEBREAKS), unique=True, max_size=6).map(tuple)


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 14), st.integers(1, 40), orders, st.sampled_from([None, 200]),
       st.booleans(), st.randoms(use_true_random=False))  # fmt: skip
def test_kept_standings_equal_the_full_computation_after_every_change(
    n: int, steps: int, order: tuple[str, ...], target: int | None, fixed_rounds: bool,
    rng: random.Random,
) -> None:  # fmt: skip
    rules = Settings(order=order, seed=rng.randint(0, 99), target=target,
                     forfeit_win_share=0.33, bye_share=0.45)  # fmt: skip
    event = Event(n)
    pair(event, rng)
    upto = len(event.rounds) if fixed_rounds else None
    ids = range(1, n + 1)
    kept = Kept(ids, event.games(), rules, event.sanctions, upto)
    before = by_participant(event.games(), n)
    for _ in range(steps):
        what = change(event, rng)
        games = event.games()
        now = by_participant(games, n)
        if fixed_rounds and len(event.rounds) != upto:
            upto = len(event.rounds)  # the bridge builds a new one when the rounds change
            kept = Kept(ids, games, rules, event.sanctions, upto)
        # the participants whose games changed, and a few others given unchanged
        touched = {pid for pid in ids if now[pid] != before[pid]}
        touched |= set(rng.sample(list(ids), k=min(2, n)))
        kept.update({pid: now[pid] for pid in touched}, list(event.sanctions))
        assert kept.rows() == standings(ids, games, rules, event.sanctions, upto), what
        before = now


def test_an_update_recomputes_the_two_participants_and_their_opponents_only() -> None:
    """A confirmation in the last round: the two, and whoever met one of them, nobody else."""
    rng = random.Random(5)
    event = Event(40)
    for _ in range(4):
        pair(event, rng)
        for table in event.rounds[-1]:
            if len(table.sides) == 2:
                table.outcome = outcome(rng)
    table = next(t for t in event.rounds[-1] if len(t.sides) == 2)
    table.outcome = None
    rules = Settings(order=TIEBREAKS, target=200)
    kept = Kept(range(1, 41), event.games(), rules, (), 4)
    table.outcome = ("win", 100, 20, 6, "target")
    now = by_participant(event.games(), 40)
    a, b = table.sides
    redone = kept.update({a: now[a], b: now[b]})
    met = {o for pid in (a, b) for g in now[pid] for o in g.faced()}
    assert {a, b} <= redone <= {a, b} | met
    assert kept.rows() == standings(range(1, 41), event.games(), rules, (), 4)


def test_games_of_an_unknown_participant_are_refused() -> None:
    kept = Kept([1, 2], [], Settings())
    try:
        kept.update({1: [Game(1, 1, 3, "win")]})
    except ValueError as err:
        assert "unknown" in str(err)
    else:
        raise AssertionError("an unknown opponent was accepted")
