"""Signals other apps may listen to (scoring knows nothing of them).

``protocol_corrected(sender=Match, match=...)`` is sent inside the correction's transaction, so a
listener's writes (tournaments retakes its standings snapshots) commit or roll back with it.
"""

from django.dispatch import Signal

protocol_corrected = Signal()
