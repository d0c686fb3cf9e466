"""Registration: a tournament's setup, clubs, players, entries and their absences, CSV import.

Owns: ``services`` (create and change a tournament, add and edit entries, withdraw, absences),
``csv_import`` (players, clubs and entries from a file: all or nothing), ``selectors``, the
organiser's setup and entries pages and the public tournament pages (``views``, ``forms``), and
their API (``api``: setup, entries, clubs, players).

Must not: import another concern (rounds, results, discipline, archive), pair or score anything.
Other concerns may use the services re-exported here.
"""

from tournaments.registration.csv_import import import_csv
from tournaments.registration.services import (
    SETUP_FIELDS,
    add_entry,
    create_tournament,
    next_round_number,
    reinstate_entry,
    set_absence,
    set_chief_referees,
    update_entry,
    update_tournament,
    withdraw_entry,
)

__all__ = [
    "SETUP_FIELDS", "add_entry", "create_tournament", "import_csv", "next_round_number",
    "reinstate_entry", "set_absence", "set_chief_referees", "update_entry", "update_tournament",
    "withdraw_entry",
]  # fmt: skip
