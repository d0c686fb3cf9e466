"""The reads every write of a protocol makes, compiled by Django's ORM once per process and
database instead of on every call: the match row locked, the stored deals of the match.

Compiling a query (columns, joins, quoting) cost more CPU than running it: the lock of the
match (36 columns) took about 1 ms a deal, of which a third was PostgreSQL's answer. Here each
query is an ordinary QuerySet, compiled the first time with a marker value in place of its one
parameter; later calls send the same SQL with the real value and read the rows through the
same converters the ORM applies (JSON decoded, times made aware), then ``Model.from_db`` as
the ORM does. Nothing else changes: the same statement, the same row lock, in the caller's
transaction. A query whose compiled form does not have the marker as its only parameter is
refused at the first call (a bug, not a user's error).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet

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
