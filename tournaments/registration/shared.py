"""Players and clubs are shared by every tournament of the site: each change to one is logged
(``accounts.audit``) in the audit log of every tournament that uses it.

    acting(user)                  a context: changes saved inside it are logged as ``user``'s
    tournaments_using(instance)   ids of the tournaments whose entries use the player or club
    connect()                     the model signals (called once, from the app's ``ready``)

Logged from the models' signals, so that no path escapes the log: the admin (which wraps its
saves and deletes in ``acting``), the shell, any future service. A change made outside
``acting`` is logged without a user. ``QuerySet.update`` sends no signal; nothing in the project
updates players or clubs that way (a deleted club empties its players' club that way, and the
club's deletion is logged). The registration services and imports never change an existing
player or club (``csv_import``, ``archive``): they link to it as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db.models import Model, Q
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save

from accounts import audit
from tournaments.models import Club, Player, Tournament

#: what the log keeps of each
FIELDS: dict[type[Model], tuple[str, ...]] = {
    Player: ("last_name", "first_name", "club", "rating", "federation_id", "sex", "birth_year"),
    Club: ("name", "city"),
}

_actor: ContextVar[Any] = ContextVar("shared_rows_actor", default=None)


@contextmanager
def acting(user: Any) -> Iterator[None]:
    token = _actor.set(user)
    try:
        yield
    finally:
        _actor.reset(token)


def tournaments_using(instance: Player | Club) -> list[int]:
    if isinstance(instance, Player):
        using = Tournament.objects.filter(entries__players=instance)
    else:
        using = Tournament.objects.filter(Q(entries__club=instance)
                                          | Q(entries__players__club=instance))  # fmt: skip
    return sorted(set(using.values_list("pk", flat=True)))


def _log(instance: Any, verb: str, before: Any, after: Any, tournaments: list[int]) -> None:
    """One entry in each tournament's log (one without a tournament when none uses it, so that
    the site-wide log in the admin has it too)."""
    action = f"{instance._meta.model_name}.{verb}"
    for tournament_id in tournaments or [None]:
        audit.record(_actor.get(), action, instance, tournament_id=tournament_id, before=before,
                     after=after, object_id=instance.pk)  # fmt: skip


def _remember(sender: type[Model], instance: Any, **kwargs: Any) -> None:
    if kwargs.get("raw") or not instance.pk:
        instance._shared_before = None
        return
    old = sender._default_manager.filter(pk=instance.pk).first()
    instance._shared_before = old and audit.snapshot(old, FIELDS[sender])


def _changed(sender: type[Model], instance: Any, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_shared_before", None)
    if kwargs.get("raw") or created or before is None:
        return
    old, new = audit.changed(before, audit.snapshot(instance, FIELDS[sender]))
    if new:
        _log(instance, "update", old, new, tournaments_using(instance))


def _before_delete(sender: type[Model], instance: Any, **kwargs: Any) -> None:
    # the entries' links go with the row: who used it must be read first
    instance._shared_before = audit.snapshot(instance, FIELDS[sender])
    instance._shared_tournaments = tournaments_using(instance)


def _deleted(sender: type[Model], instance: Any, **kwargs: Any) -> None:
    _log(instance, "delete", instance._shared_before, None, instance._shared_tournaments)


def connect() -> None:
    for model in FIELDS:
        name = model._meta.model_name
        pre_save.connect(_remember, sender=model, dispatch_uid=f"audit.{name}.pre_save")
        post_save.connect(_changed, sender=model, dispatch_uid=f"audit.{name}.post_save")
        pre_delete.connect(_before_delete, sender=model, dispatch_uid=f"audit.{name}.pre_delete")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"audit.{name}.post_delete")
