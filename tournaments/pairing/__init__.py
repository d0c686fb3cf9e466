"""Pure pairing algorithms: plain data in, plain data out, no database, no Django.

The Celery task (``tournaments.rounds.tasks``) loads standings and the whole pairing history once,
turns them into the types below, calls one of these functions and writes the result in one
transaction.

    swiss(competitors, options)             fixed pairs (or teams) by the Swiss system
    individual(players, options)            rotating partners, four to a table
    free_for_all(players, options)          each for himself, three or four to a table
    round_robin(entry_ids)                  the whole Berger schedule
    round_robin_round(entry_ids, number)    one round of it as a RoundPairing
    groups_round(members, number)           one round of every group's round robin
    teams(teams, options)                   team against team, pair against pair
    knockout.bracket(...), knockout.next_games(bracket)   a knock-out stage's bracket and the
                                            games of its open ties
    acceleration.virtual_points(...), acceleration.group_a(...)   the accelerated Swiss (FIDE
                                            C.04.5.1, Baku): group A's virtual points for
                                            ``SwissOptions.virtual_points``

Every table and bye carries flags (see ``types.FLAGS``) that the organiser's page explains.
Each algorithm's module docstring states its objective exactly: the rules as tiers, each strictly
outranking all below it. Swiss (``swiss``, encoded by ``swiss_solver``) reaches the exact optimum
by maximum-weight matchings (``matching``) solved in stages, proved optimal by ``bounds`` where
a large field is paired on a pruned graph; the individual format (``individual``, costed by
``seating``) tries every seating of up to twelve players and otherwise improves a matching-built
seating by ``local_search``. The free-for-all (``free_for_all``) seats three or four players at a
table by a local search (``free_for_all_search``) whose order of rules its docstring gives.
"""

from .free_for_all import free_for_all
from .groups import groups_round
from .individual import individual
from .round_robin import round_robin, round_robin_round
from .swiss import swiss
from .teams import teams
from .types import (
    FLAGS,
    Bye,
    Competitor,
    FreeForAllOptions,
    IndividualOptions,
    RoundPairing,
    SwissOptions,
    Table,
)

__all__ = [
    "FLAGS",
    "Bye",
    "Competitor",
    "FreeForAllOptions",
    "IndividualOptions",
    "RoundPairing",
    "SwissOptions",
    "Table",
    "free_for_all",
    "groups_round",
    "individual",
    "round_robin",
    "round_robin_round",
    "swiss",
    "teams",
]
