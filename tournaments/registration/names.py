"""The name an entry gets from its players when nobody gives it one.

A pair (or a team's pair) is called after its players' surnames in the order they were listed,
«Иванов – Петров»; one player is the entry, called by the full name. The club is not part of
the name: pages show it beside the name (the round page, the registration list), so a name
stays short enough for a phone, the crosstable's header and the hall's screen.

Names are unique in a tournament (a database constraint), and two pairs may share surnames
(brothers, namesakes): the second gets the players' initials, then a number. Used by the CSV
import and the entry form; pure (no database): the caller passes the names already taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

#: between the surnames of a pair: an en dash with spaces, as on a printed table list
SEPARATOR = " – "


class Named(Protocol):
    last_name: str
    first_name: str


def _initial(player: Named) -> str:
    first = player.first_name.strip()
    return f"{player.last_name} {first[0]}." if first else player.last_name


def candidates(players: Sequence[Named]) -> list[str]:
    """The names to try, plainest first."""
    if len(players) == 1:
        only = players[0]
        return [f"{only.last_name} {only.first_name}".strip()]
    plain = SEPARATOR.join(p.last_name for p in players)
    with_initials = SEPARATOR.join(_initial(p) for p in players)
    return [plain] if with_initials == plain else [plain, with_initials]


def entry_name(players: Sequence[Named], taken: Iterable[str], limit: int = 200) -> str:
    """The first free name of ``candidates``, else the last one with a number («… (2)»)."""
    taken = set(taken)
    tries = [name[:limit] for name in candidates(players)]
    for name in tries:
        if name not in taken:
            return name
    number = 2
    while True:
        suffix = f" ({number})"
        name = tries[-1][: limit - len(suffix)] + suffix
        if name not in taken:
            return name
        number += 1
