"""A round's life: pairing it in Celery, the organiser's review, publication, finishing it.

Owns: ``clock`` (the round clock: start, pause, resume, extend, pushed to the tables'
matches), ``services`` (start the pairing, swap, lock, regenerate, referees, publish, finish a
round, close the event), ``order`` (which round may be paired now, the organiser's override),
``tables`` (a table's match changed in place, blank ones dropped), ``planning`` (the bridge to
the pure algorithms of ``tournaments.pairing``: what the tables would be), ``job`` (the pairing
job's body: writing the tables and their matches), ``tasks`` (the Celery task), ``selectors``
(history, snapshot ranking, round data), ``labels`` and ``explain`` (each table's flags in
words: a float, a same-club table, a repeated opponent told with names and numbers),
``notes`` (the pairing's log notes told with names, those the tables already say left out), the
organiser's round pages and the published round (``views``), and their API (``api``).

May use: registration, results (finishing a round takes the standings snapshot), stages (a
knock-out round is paired from its bracket, and the next one once it is finished), the pure
``pairing`` package, ``scoring`` (each table's match). Must not: be imported by registration or
results; hold pairing algorithms (they are pure, in ``tournaments.pairing``).
"""

from tournaments.rounds.clock import extend_clock, pause_clock, resume_clock, start_clock
from tournaments.rounds.job import fail_pairing, run_pairing
from tournaments.rounds.order import Turn, pairing_override, round_to_pair
from tournaments.rounds.planning import Plan, PlannedTable, plan_round
from tournaments.rounds.services import (
    assign_referee,
    close_tournament,
    finish_round,
    publish,
    regenerate,
    set_locked,
    start_final_stage,
    start_pairing,
    swap,
)
from tournaments.rounds.tasks import pair_round

__all__ = [
    "Plan", "PlannedTable", "Turn", "assign_referee", "close_tournament", "extend_clock",
    "fail_pairing", "pause_clock", "resume_clock", "start_clock",
    "finish_round", "pair_round", "pairing_override", "plan_round", "publish", "regenerate",
    "round_to_pair", "run_pairing", "set_locked", "start_final_stage", "start_pairing", "swap",
]  # fmt: skip
