"""A tournament made private (or public again), rated or unrated, or moved to another date
changes what is rated or its order: the ratings are recomputed once the change commits, so a
private tournament's matches do not linger in anybody's rating. Connected in ``tournaments.apps``;
a queryset ``update`` bypasses it (the pages also read only public tournaments' rating changes,
``selectors``)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save, pre_save

from tournaments.models import Tournament
from tournaments.ratings.tasks import schedule

#: what decides whether and where a tournament's matches sit in the rated history
RATED_BY = ("public", "rated", "start_date")


def connect() -> None:
    pre_save.connect(_remember, sender=Tournament, dispatch_uid="tournaments.ratings.pre")
    post_save.connect(_changed, sender=Tournament, dispatch_uid="tournaments.ratings.post")


def _remember(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    if instance.pk is not None:
        stored = Tournament.objects.filter(pk=instance.pk).values_list(*RATED_BY).first()
        instance._rated_before = stored  # type: ignore[attr-defined]


def _changed(sender: Any, instance: Tournament, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_rated_before", None)
    if created or before is None or before == tuple(getattr(instance, f) for f in RATED_BY):
        return
    if instance.round_set.exists():  # nothing rated before a round is played
        schedule(instance.pk)
