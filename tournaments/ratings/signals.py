"""A tournament made private (or public again) changes what is rated: its ratings are
recomputed once the change commits, so a private tournament's matches do not linger in anybody's
rating. Connected in ``tournaments.apps``; a queryset ``update`` bypasses it (the pages also read
only public tournaments' rating changes, ``selectors``)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save, pre_save

from tournaments.models import Tournament
from tournaments.ratings.tasks import schedule


def connect() -> None:
    pre_save.connect(_remember, sender=Tournament, dispatch_uid="tournaments.ratings.pre")
    post_save.connect(_changed, sender=Tournament, dispatch_uid="tournaments.ratings.post")


def _remember(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    if instance.pk is not None:
        stored = Tournament.objects.filter(pk=instance.pk).values_list("public", flat=True)
        instance._public_before = stored.first()  # type: ignore[attr-defined]


def _changed(sender: Any, instance: Tournament, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_public_before", None)
    if created or before is None or before == instance.public:
        return
    if instance.round_set.exists():  # nothing rated before a round is played
        schedule(instance.pk)
