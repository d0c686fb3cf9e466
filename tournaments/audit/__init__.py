"""The organisers' audit page: every logged change of a tournament, read only.

Owns ``views`` (``/manage/<pk>/audit/``). The log itself is ``accounts.audit``; what gets logged
is decided where the change is made (each concern's services, ``discipline.audit``). Writes
nothing; no concern imports it.
"""
