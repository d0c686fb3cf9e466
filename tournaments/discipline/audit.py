"""Audit entries (``accounts.audit``) for sanctions, logged from the model's signals: a sanction
row names who recorded and who revoked it. ``connect()`` is called once, from the app's
``ready``."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save, pre_save

from accounts import audit
from tournaments.models import Sanction

SANCTION_FIELDS = ("entry", "player", "round_number", "kind", "match_points", "game_points",
                   "pairing", "reason")  # fmt: skip


def _remember_revocation(sender: Any, instance: Sanction, **kwargs: Any) -> None:
    if instance.pk:
        instance._audit_was_revoked = (  # type: ignore[attr-defined]
            Sanction.objects.filter(pk=instance.pk, revoked_at__isnull=False).exists()
        )


def _log_sanction(sender: Any, instance: Sanction, created: bool, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return
    if created:
        audit.record(instance.created_by, "sanction.record", instance,
                     tournament_id=instance.tournament_id,
                     after=audit.snapshot(instance, SANCTION_FIELDS))  # fmt: skip
    elif instance.revoked_at is not None and not getattr(instance, "_audit_was_revoked", True):
        audit.record(
            instance.revoked_by,
            "sanction.revoke",
            instance,
            tournament_id=instance.tournament_id,
            before={"active": True},
            after={"active": False, "revoke_reason": instance.revoke_reason},
        )


def connect() -> None:
    pre_save.connect(_remember_revocation, sender=Sanction, dispatch_uid="audit.sanction.pre")
    post_save.connect(_log_sanction, sender=Sanction, dispatch_uid="audit.sanction.post")
