"""Substitutes: a player who sits in for a player of an entry for one round or from a round
on, set by the organiser before the round's protocols start.

Owns: ``services`` (set and remove a substitute, audited; the tables of the rounds already
paired reseated), ``views`` (the organiser's page ``/manage/<pk>/substitutes/``) and ``forms``.
Who actually played is read by everyone through ``tournaments.selectors.lineups`` (the seats of
new tables, the players' standings, a player's page, the ratings); the entry keeps its results.

May use: the shared layer, ``rounds`` (a table reseated in place), ``scoring``. Must not: be
imported by another concern.
"""

from tournaments.substitutes.services import remove_substitute, set_substitute

__all__ = ["remove_substitute", "set_substitute"]
