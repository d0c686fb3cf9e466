"""The queue at the table of a «Генерал» rotation (RULES.md section 35), pure.

The first two teams of the queue sit at the table: the one that stayed at N–S, the one that
came in at E–W. When a stint ends, its loser goes to the end of the queue and the next waiting
team comes in against the team that stayed. A stint with no loser (a draw, only when time
ends it) sends the team that sat longer away: it has had its turn. Teams that withdrew leave
the queue.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stint:
    """One match at the table: the team that stayed (N–S), the one that came in (E–W) and the
    entry that lost it (None: a draw)."""

    stayer: int
    challenger: int
    loser: int | None

    @property
    def leaving(self) -> int:
        return self.loser if self.loser is not None else self.stayer

    @property
    def staying(self) -> int:
        return self.challenger if self.leaving == self.stayer else self.stayer


def queue_after(seeded: Sequence[int], stints: Iterable[Stint],
                active: Iterable[int] | None = None) -> list[int]:  # fmt: skip
    """The queue after ``stints`` (in order), starting from ``seeded`` (the entries by seed);
    ``active`` (default: all) are the entries still in the tournament."""
    queue = list(dict.fromkeys(seeded))
    for stint in stints:
        waiting = [e for e in queue if e not in (stint.stayer, stint.challenger)]
        queue = [stint.staying, *waiting, stint.leaving]
    keep = set(queue if active is None else active)
    return [e for e in queue if e in keep]
