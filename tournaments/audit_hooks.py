"""Audit entries (``accounts.audit``) for what ``tournaments.results`` changes: sanctions are
logged from the model's signals (a sanction row names who recorded and who revoked it), and
finishing a round goes through ``finish_round`` here, which the pages and the API call."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save, pre_save

from accounts import audit
from tournaments import results
from tournaments.models import Round, Sanction

SANCTION_FIELDS = ("entry", "player", "round_number", "kind", "match_points", "game_points",
                   "pairing", "reason")  # fmt: skip


def finish_round(user: Any, round_id: int) -> Round:
    """``results.finish_round`` with an audit entry when the round's status changed."""
    with transaction.atomic():
        before = Round.objects.filter(pk=round_id).values_list("status", flat=True).first()
        round_ = results.finish_round(user, round_id)
        if before != round_.status:
            audit.record(user, "round.finish", round_, tournament_id=round_.tournament_id,
                         before={"status": before}, after={"status": round_.status})  # fmt: skip
    return round_


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
