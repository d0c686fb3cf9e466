"""The statements every write of a protocol makes, compiled by Django's ORM once per process
and database instead of on every call: the match row locked, the stored deals of the match, the
match's changed fields saved, a new row (a deal, a history row) inserted.

Compiling a query (columns, joins, quoting) cost more CPU than running it: the lock of the
match (36 columns) took about 1 ms a deal, of which a third was PostgreSQL's answer. Here each
query is an ordinary QuerySet, compiled the first time with a marker value in place of its one
parameter; later calls send the same SQL with the real value and read the rows through the
same converters the ORM applies (JSON decoded, times made aware), then ``Model.from_db`` as
the ORM does. Nothing else changes: the same statement, the same row lock, in the caller's
transaction. A query whose compiled form does not have the marker as its only parameter is
refused at the first call (a bug, not a user's error).

The writes keep what ``Model.save`` does for these models: each field's ``pre_save`` (the
``auto_now`` times), its ``get_db_prep_save`` (JSON adapted), the ``pre_save`` and
``post_save`` signals (the live pages hear of a saved match), the new row's key read back, and
an update that finds no row is a ``DatabaseError``. What they leave out is what these models do
not use: parents, ``order_with_respect_to``, expressions as values, unsaved related objects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connections, router
from django.db.models import Model, QuerySet
from django.db.models.signals import post_save, pre_save
from django.db.models.sql import InsertQuery, UpdateQuery

from scoring.models import Deal, Match

#: the value compiled in place of the parameter: an id no row has
_MARK = -7_310_251


@dataclass(frozen=True)
class _Statement:
    sql: str
    #: (column index, converter functions, expression) as the ORM's compiler found them
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    columns: tuple[str, ...]


_STATEMENTS: dict[tuple[str, str], _Statement] = {}


def _compile(queryset: QuerySet[Any], alias: str) -> _Statement:
    compiler = queryset.query.get_compiler(alias)
    sql, params = compiler.as_sql()
    if tuple(params) != (_MARK,):
        raise ValueError(f"a compiled statement takes one parameter, not {params!r}")
    selected = [column for column, _sql, _alias in compiler.select]
    found = compiler.get_converters(selected)
    converters = tuple((i, tuple(functions), expression)
                       for i, (functions, expression) in sorted(found.items()))  # fmt: skip
    columns = tuple(getattr(getattr(c, "target", None), "attname", "") for c in selected)
    return _Statement(sql, converters, columns)


def _rows(name: str, alias: str, build: Callable[[int], QuerySet[Any]],
          value: int) -> list[list[Any]]:  # fmt: skip
    """The rows of ``build(value)`` on database ``alias``, compiled once (``name`` tells the
    statements apart)."""
    statement = _STATEMENTS.get((alias, name))
    if statement is None:
        statement = _STATEMENTS[(alias, name)] = _compile(build(_MARK), alias)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [value])
        rows = [list(row) for row in cursor.fetchall()]
    for row in rows:
        for i, functions, expression in statement.converters:
            for function in functions:
                row[i] = function(row[i], expression, connection)
    return rows


def _instance(model: type[Model], alias: str, name: str, row: list[Any]) -> Any:
    columns = _STATEMENTS[(alias, name)].columns
    if columns != tuple(f.attname for f in model._meta.concrete_fields):
        raise ValueError(f"{name} does not select every column of {model.__name__}")
    return model.from_db(alias, list(columns), row)


def lock_match(match_id: int) -> Match:
    """``Match.objects.select_for_update().get(pk=match_id)``: the row locked until the end of
    the caller's transaction; ``Match.DoesNotExist`` when there is none."""
    alias = router.db_for_write(Match)
    rows = _rows("lock_match", alias, lambda pk: Match.objects.using(alias)
                 .select_for_update().filter(pk=pk), match_id)  # fmt: skip
    if not rows:
        raise Match.DoesNotExist("Match matching query does not exist.")
    return _instance(Match, alias, "lock_match", rows[0])  # type: ignore[no-any-return]


def stored_deals(match: Match) -> list[tuple[Any, Any, bool]]:
    """``(client_id, record, time_up_by_clock)`` of the match's deals in order (read where the
    match was, in the caller's transaction)."""
    alias = match._state.db or router.db_for_read(Deal)
    rows = _rows("stored_deals", alias, lambda pk: Deal.objects.using(alias).filter(match_id=pk)
                 .order_by("n").values_list("client_id", "record", "time_up_by_clock"),
                 match.pk)  # fmt: skip
    return [(row[0], row[1], row[2]) for row in rows]


# --- writes ---------------------------------------------------------------------------------


def _prepared(field: Any, instance: Model, add: bool, connection: Any) -> Any:
    return field.get_db_prep_save(field.pre_save(instance, add), connection=connection)


def save_fields(instance: Model, update_fields: Sequence[str]) -> None:
    """``instance.save(update_fields=update_fields)`` (fields named by their names)."""
    model, meta = type(instance), instance._meta
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    fields = [meta.get_field(name) for name in update_fields]
    key = (alias, f"update {meta.label} {','.join(update_fields)}")
    statement = _STATEMENTS.get(key)
    if statement is None:
        query = UpdateQuery(model)
        query.add_update_fields([(f, None, f.pre_save(instance, False)) for f in fields])
        query.add_filter("pk", _MARK)
        sql, params = query.get_compiler(alias).as_sql()
        if len(params) != len(fields) + 1 or params[-1] != _MARK:
            raise ValueError(f"{key[1]}: unexpected parameters {params!r}")
        statement = _STATEMENTS[key] = _Statement(sql, (), ())
    frozen = frozenset(update_fields)
    pre_save.send(sender=model, instance=instance, raw=False, using=alias, update_fields=frozen)
    values = [_prepared(f, instance, False, connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [*values, instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    instance._state.db = alias
    post_save.send(sender=model, instance=instance, created=False, update_fields=frozen,
                   raw=False, using=alias)  # fmt: skip


def insert(instance: Model) -> None:
    """``instance.save()`` of a new row whose key the database gives (``objects.create``)."""
    model, meta = type(instance), instance._meta
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    fields = [f for f in meta.local_concrete_fields
              if not f.generated and f is not meta.auto_field]  # fmt: skip
    key = (alias, f"insert {meta.label}")
    statement = _STATEMENTS.get(key)
    if statement is None:
        if instance.pk is not None or meta.auto_field is None or meta.parents:
            raise ValueError(f"{meta.label}: not a new row with a key from the database")
        query = InsertQuery(model)
        query.insert_values(fields, [instance])
        compiler = query.get_compiler(alias)
        compiler.returning_fields = [meta.pk]
        [(sql, params)] = compiler.as_sql()
        if len(params) != len(fields):
            raise ValueError(f"{key[1]}: unexpected parameters {params!r}")
        statement = _STATEMENTS[key] = _Statement(sql, (), ())
    pre_save.send(sender=model, instance=instance, raw=False, using=alias, update_fields=None)
    values = [_prepared(f, instance, True, connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, values)
        if connection.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    setattr(instance, meta.pk.attname, pk)
    instance._state.adding = False
    instance._state.db = alias
    post_save.send(sender=model, instance=instance, created=True, update_fields=None,
                   raw=False, using=alias)  # fmt: skip
