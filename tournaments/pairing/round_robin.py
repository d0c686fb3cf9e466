"""Round robin by Berger tables: the whole schedule known before the first round.

Entries take the Berger numbers 1…n in the order given (seed order, usually); an odd count adds a
dummy as number n+1, and meeting the dummy is a bye. Round 1 is 1–n, 2–(n-1)…; each later round
adds n/2 to every number but n (modulo n-1, within 1…n-1) and keeps the tables in place, while
number n alternates between the first and the second seat. The first-named side sits NS, so seats
alternate as the printed Berger tables do. Pure: no database.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Bye, RoundPairing, Table


def round_robin(entry_ids: Sequence[int]) -> list[list[tuple[int | None, int | None]]]:
    """Every round's tables as (NS, EW) pairs of entry ids; ``None`` is the dummy (a bye)."""
    ids: list[int | None] = list(entry_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("entry ids must be unique")
    if len(ids) < 2:
        return []
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    half = n // 2
    numbers = [(k, n + 1 - k) for k in range(1, half + 1)]
    schedule: list[list[tuple[int | None, int | None]]] = []
    for round_index in range(n - 1):
        if round_index:
            numbers = [_next_round(pair, n, round_index) for pair in numbers]
        schedule.append([(ids[a - 1], ids[b - 1]) for a, b in numbers])
    return schedule


def _next_round(pair: tuple[int, int], n: int, round_index: int) -> tuple[int, int]:
    """Where the Berger numbers of one table go in the next round (0-based ``round_index``)."""
    a, b = pair

    def shift(k: int) -> int:
        return (k - 1 + n // 2) % (n - 1) + 1

    if n in (a, b):  # number n: second seat in odd rounds, first seat in even rounds
        other = shift(b if a == n else a)
        return (n, other) if round_index % 2 else (other, n)
    return shift(a), shift(b)


def round_robin_round(entry_ids: Sequence[int], number: int, first_table: int = 1) -> RoundPairing:
    """Round ``number`` (1-based) of the Berger schedule; the dummy's opponent has a bye."""
    schedule = round_robin(entry_ids)
    if not 1 <= number <= len(schedule):
        raise ValueError(f"round {number} is outside the schedule of {len(schedule)} rounds")
    tables: list[Table] = []
    byes: list[Bye] = []
    for ns, ew in schedule[number - 1]:
        if ns is None or ew is None:
            bye = ew if ns is None else ns
            assert bye is not None
            byes.append(Bye(bye))
            continue
        tables.append(Table(number=first_table + len(tables), ns=(ns,), ew=(ew,)))
    notes = tuple(f"Bye: {b.id} (Berger dummy)" for b in byes)
    return RoundPairing(tables=tuple(tables), byes=tuple(byes), notes=notes)
