"""Results: the bridge from the tables to the pure ``standings`` package, and what shows them.

Owns: ``ledger`` (every round of every entry loaded from the database), ``places`` (what one
table gives each entry at it), ``tables`` (standings of entries, teams and players),
``snapshots`` (the standings kept after a finished round, and the fingerprint of what they
depend on), ``live_state`` (the live table of entries kept between requests and brought up to
date from what changed), ``display`` (the standings as pages and the API show them, cached),
``crosstable``, ``history`` (a player's every match), ``exports`` (CSV, XLSX), the public results
pages (``views``) and the results API (``api``).

Reads every table of the tournament and writes only ``Standing`` snapshots. Must not: import
rounds, discipline or archive (they use it), hold tie-break arithmetic (``tournaments.standings``).
"""

from tournaments.results.display import cached_results_table, results_table
from tournaments.results.ledger import COUNTED, Cell, Ledger, load, lot_seed, standings_settings
from tournaments.results.snapshots import refresh_snapshots, results_stamp, take_snapshot
from tournaments.results.tables import Line, Table, default_scope, live_table, table

__all__ = [
    "COUNTED", "Cell", "Ledger", "Line", "Table", "cached_results_table", "default_scope",
    "live_table", "load", "lot_seed", "refresh_snapshots", "results_stamp", "results_table",
    "standings_settings", "table", "take_snapshot",
]  # fmt: skip
