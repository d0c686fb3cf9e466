"""Discipline: the chief referee's sanctions (deductions, yellow/red/black cards, forfeits).

Owns: ``services`` (record and revoke a sanction), ``audit`` (their audit entries), the
discipline page (``views``, ``forms``) and its API (``api``); the roll call before a round and
the desk's no-shows (``roll_call``, ``roll_call_views``: an absence, a forfeit, a withdrawal).

May use: results (a sanction of a finished round retakes its snapshots). Must not: be imported by
registration, rounds or results; results read sanctions from the model, not from here.
"""

from tournaments.discipline.services import record_sanction, revoke_sanction, sanctions_of

__all__ = ["record_sanction", "revoke_sanction", "sanctions_of"]
