"""The one write of personal links: a new key for an entry, which revokes the old link.

    new_link(user, entry_id) -> Entry     the tournament's organisers only (``not_organiser``,
                                          403); audited as ``entry.new_link`` (no keys)

One transaction with the entry locked. The audit says that the link changed, never the keys:
the audit page is read by every organiser and chief referee of the tournament, and a key there
would be a working link.
"""

from __future__ import annotations

from django.db import transaction

from accounts import audit
from tournaments.access import User, require_manager
from tournaments.models import Entry
from tournaments.models.registration import new_entry_token


def new_link(user: User, entry_id: int) -> Entry:
    with transaction.atomic():
        entry = (Entry.objects.select_for_update(of=("self",)).select_related("tournament")
                 .get(pk=entry_id))  # fmt: skip
        require_manager(user, entry.tournament)
        entry.token = new_entry_token()
        entry.save(update_fields=["token"])
        audit.record(user, "entry.new_link", entry, tournament_id=entry.tournament_id)
    return entry
