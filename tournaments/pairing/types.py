"""The plain data the pairing algorithms take and return (the contract with ``tournaments.rounds``).

Ids are the database ids of entries (pairs, teams) or players (individual format); the algorithms
never look anything up. Standings order is given by ``rank`` (1 = first, ties already broken).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: Why a table or bye came out as it did; the organiser's page explains each in ru and en.
FLAGS = {
    "float_up": "paired with a higher score group",
    "float_down": "paired with a lower score group",
    "bye": "no opponent this round",
    "rematch": "these sides met before: no rematch-free pairing existed",
    "rematch_avoided": "the natural opponent was a rematch and was avoided",
    "partner_repeated": "partners again: it could not be avoided",
    "winners_met": "round 1's winning partners face each other: it could not be avoided",
    "last_round_block": "last round: 1+3 against 2+4 within a block of four of the standings",
    "last_round_moved": "last round: not 1+3 v 2+4 in its block of four: partners would repeat",
    "same_club": "same club: every pairing without it needed a rematch (strict avoidance)",
    "same_club_kept": "same club: separating them would have cost score difference",
    "same_club_allowed": "same club: club avoidance is off in this round",
    "seat_repeated": "same seat (NS/EW) as last time: it could not be balanced",
    "by_seed": "round 1 by seed: top half against bottom half",
    "by_lot": "round 1 by lot",
    "opponent_repeated": "met some of these players before: it could not be avoided",
    "table_of_three": "three players at this table",
    "knockout": "a knock-out tie: seeded from the qualifying standings, the better seed at NS",
    "third_place": "the match for third place (the semi-finals' losers)",
    "group": "a round robin inside a group (Berger tables)",
    "rotation": "«на вылет»: the team that stayed at N–S, the next in the queue at E–W",
}


@dataclass(frozen=True, slots=True)
class Competitor:
    """One entry (or one player in the individual format) as the pairing sees it."""

    id: int
    rank: int
    score: float = 0.0
    seed: int | None = None
    club: int | None = None
    byes: int = 0
    ns_count: int = 0
    ew_count: int = 0
    #: the seat of the last round played, "NS" or "EW" ("" if none)
    last_seat: str = ""
    opponents: frozenset[int] = frozenset()
    partners: frozenset[int] = frozenset()
    #: teams: the ids of the team's pairs, strongest first
    members: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """One table: the NS side and the EW side (one id each for pairs; two partners each for the
    individual format, seated N+S and E+W; for teams, the pair ids)."""

    number: int
    ns: tuple[int, ...]
    ew: tuple[int, ...]
    flags: frozenset[str] = frozenset()
    #: free-for-all: the players in seat order N, E, S(, W), each his own side; ``ns`` and ``ew``
    #: are then empty
    seated: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Bye:
    id: int
    flags: frozenset[str] = frozenset({"bye"})


@dataclass(frozen=True, slots=True)
class RoundPairing:
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...] = ()
    #: human-readable remarks for the organiser (English; the page translates the flags)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SwissOptions:
    round_number: int
    #: round 1: "seed" (top half against bottom half) or "lot"
    first_round: str = "seed"
    #: same-club tables in this round: "off", "among_equals" (avoided where it costs no score
    #: difference) or "strict" (avoided before score)
    clubs: str = "among_equals"
    #: seed of the random generator for lots, so that a re-run gives the same pairing
    random_seed: int = 0
    #: table numbers start here (table 1 is the leaders' table)
    first_table: int = 1
    ids_excluded: frozenset[int] = field(default_factory=frozenset)
    #: an accelerated round (``acceleration``): match points added to these entries' scores for
    #: building the score groups only; round 1 is then paired by score groups too
    virtual_points: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class IndividualOptions:
    round_number: int
    random_seed: int = 0
    first_table: int = 1
    #: round 1: "seed" (players' seeds, then ranks) or "lot" (shuffled with ``random_seed``)
    first_round: str = "seed"
    #: the federation's practice: round 2 keeps round 1's winning partners apart, and the last
    #: round seats 1+3 against 2+4 in blocks of four of the standings
    federation: bool = False
    last_round: bool = False


@dataclass(frozen=True, slots=True)
class FreeForAllOptions:
    round_number: int
    random_seed: int = 0
    first_table: int = 1
    #: round 1: "seed" (players' seeds, then ranks) or "lot" (shuffled with ``random_seed``)
    first_round: str = "seed"
