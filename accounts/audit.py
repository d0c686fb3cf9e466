"""The audit log: who changed what in a tournament, when, with the fields before and after.

    record(user, action, obj=None, *, tournament_id=None, before=None, after=None) -> AuditEntry
    snapshot(instance, fields) -> dict            JSON-ready values (foreign keys as ids)
    changed(before, after) -> (before, after)     only the keys whose values differ

Call ``record`` inside the transaction of the change, so the entry commits or rolls back with
it. Actions are dotted names: ``tournament.update``, ``entry.add``, ``round.publish`` …;
``object_type`` is the object's model name (``tournament``, ``entry``, ``round``, ``pairing``,
``sanction``). Protocol changes have their own history (``scoring.models.MatchVersion``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from accounts.models import AuditEntry


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def snapshot(instance: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in fields:
        field = instance._meta.get_field(name)
        if field.many_to_many:
            out[name] = sorted(instance.pk and getattr(instance, name).values_list("pk", flat=True)
                               or [])  # fmt: skip
        elif field.is_relation:
            out[name] = getattr(instance, field.attname)  # type: ignore[attr-defined]
        else:
            out[name] = getattr(instance, name)
    return _json(out)  # type: ignore[no-any-return]


def changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[dict, dict]:
    keys = [k for k in {**before, **after} if before.get(k) != after.get(k)]
    return ({k: before.get(k) for k in keys}, {k: after.get(k) for k in keys})


def record(
    user: Any,
    action: str,
    obj: models.Model | None = None,
    *,
    tournament_id: int | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    object_type: str | None = None,
    object_id: Any = None,
) -> AuditEntry:
    known = user is not None and getattr(user, "is_authenticated", False)
    return AuditEntry.objects.create(
        user=user if known else None,
        username=user.get_username() if known else "",
        action=action,
        object_type=object_type or (obj._meta.model_name if obj is not None else ""),
        object_id=str(object_id if object_id is not None else getattr(obj, "pk", "") or ""),
        object_repr=str(obj)[:200] if obj is not None else "",
        tournament_id=tournament_id,
        before=None if before is None else _json(dict(before)),
        after=None if after is None else _json(dict(after)),
    )


def entries_of(tournament_id: int) -> models.QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(tournament_id=tournament_id).select_related("user")
