"""Querysets compiled to SQL once per process, then run again with new values.

The game page, its HTMX fragment, every socket push and every move read the same few
querysets — the game with its clock hints and the viewer's visit, its seats with players, the
log's last lines, the chat — differing only in a game id or a player id. Django builds and
compiles a queryset's SQL anew on each run, and for these (four EXISTS subqueries, the
league joins) that compiling cost more than the database's answer: about 3 ms of a 7 ms read
on this machine. A ``CompiledQuery`` builds its queryset once with a placeholder for each
value that varies (its slots), keeps the compiled SQL and the compiler that knows how to turn
its rows into models, and on each run puts the real values where the placeholders were.

What a run returns is exactly what the queryset would have returned: the same SQL, the same
model instances (``select_related`` objects, annotations, deferred fields). The database
server then also gets the same statement text every time, which is what its prepared
statements key on (napad_site/database.py).

Only values that Django passes to the database as parameters can be slots (a filter's value,
an annotation's filter, a date): a value compiled into the SQL text (``LIMIT``, a column
name) must be a constant of the queryset, and ``build`` must not depend on anything else
that changes.

``read_together`` runs a one-row query and other queries' rows as one statement on
PostgreSQL (a game and its seats: every page, fragment, push and move reads both; the page
its chat too), each part turned into models by its own compiler as if it had run alone.
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar

from django.db import connections, router
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

# Placeholders: values in range for every integer column (an out-of-range integer makes
# Django drop the condition, so the placeholder would not reach the parameters) and unlike
# anything a table of the club holds, so finding one among the parameters means it is a slot.
_PLACEHOLDERS = (2_038_461_979, 2_038_461_983, 2_038_461_997, 2_038_462_001)


# Compilations kept per query (per key, alias and vendor); a dict keeps insertion order.
KEPT_PER_QUERY = 32


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet
    compiler: Any
    sql: str
    params: tuple[Any, ...]
    # slot name → the positions of its placeholder among ``params``
    positions: Mapping[str, tuple[int, ...]]
    # Per connection: how each column's value is converted (a JSON field's text parsed, a
    # SQLite date read). Django works this out again on every run from the selected columns,
    # which never change here; the backend's converters belong to a connection, so each
    # thread's connection gets its own.
    converters: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)


class CompiledQuery(Generic[M]):
    """``build(**slots)`` → a queryset of ``model``; ``run(**values)`` → its rows as a list.

    ``slots``: the names of ``build``'s keyword arguments that vary between runs. ``keyed``:
    ``build`` also depends on ``key`` (a date that changes daily, say), given to each run; one
    compilation is kept per key and database alias. ``for_write``: the query locks rows
    (``select_for_update``), so it runs on the database the router writes to."""

    def __init__(
        self,
        model: type[M],
        build: Callable[..., QuerySet[M]],
        *slots: str,
        keyed: bool = False,
        for_write: bool = False,
    ):
        if len(slots) > len(_PLACEHOLDERS):
            raise ValueError(f"at most {len(_PLACEHOLDERS)} slots")
        self._model = model
        self._build = build
        self._slots = slots
        self._keyed = keyed
        self._route = router.db_for_write if for_write else router.db_for_read
        self._compiled: dict[tuple[str, str, Any], _Compiled] = {}
        self._lock = threading.Lock()

    def run(self, *, key: Any = None, **values: Any) -> list[M]:
        compiled, params = self._bound(key, values)
        return list(_bound_queryset(compiled, params))

    def _bound(self, key: Any, values: Mapping[str, Any]) -> tuple[_Compiled, tuple[Any, ...]]:
        """The compilation for this key on the routed database, and its parameters with
        ``values`` put in their slots."""
        if set(values) != set(self._slots):
            raise TypeError(f"run() takes exactly {self._slots}, got {tuple(values)}")
        alias = self._route(self._model)
        compiled = self._compiled_for((alias, connections[alias].vendor, key), alias)
        params = list(compiled.params)
        for name, positions in compiled.positions.items():
            for position in positions:
                params[position] = values[name]
        return compiled, tuple(params)

    def _compiled_for(self, cache_key: tuple[str, str, Any], alias: str) -> _Compiled:
        # Keyed by the vendor too: the bench (and a test) may point an alias elsewhere.
        compiled = self._compiled.get(cache_key)
        if compiled is not None:
            return compiled
        with self._lock:
            placeholders = dict(zip(self._slots, _PLACEHOLDERS, strict=False))
            key = cache_key[2]
            queryset = self._build(**placeholders, **({"key": key} if self._keyed else {}))
            compiled = _compile(queryset.using(alias), placeholders)
            if len(self._compiled) >= KEPT_PER_QUERY:
                # The oldest first: yesterday's date, a limit not asked for in a while.
                del self._compiled[next(iter(self._compiled))]
            self._compiled[cache_key] = compiled
        return compiled


def _compile(queryset: QuerySet, placeholders: Mapping[str, int]) -> _Compiled:
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    positions = {
        name: tuple(i for i, value in enumerate(params) if value == placeholder)
        for name, placeholder in placeholders.items()
    }
    missing = [name for name, found in positions.items() if not found]
    if missing:
        raise ValueError(f"the queryset passes no parameter for {missing}: {sql}")
    return _Compiled(queryset, compiler, sql, tuple(params), positions)


def _converters_kept(compiled: _Compiled, compiler: Any, connection: Any, expressions) -> dict:
    # Only ``results_iter`` asks, always for the same selected columns (the SQL is fixed).
    kept = compiled.converters.get(connection)
    if kept is None:
        kept = compiled.converters[connection] = type(compiler).get_converters(
            compiler, expressions
        )
    return kept


def _bound_queryset(
    compiled: _Compiled, params: tuple[Any, ...], rows: list[tuple] | None = None
) -> QuerySet:
    """A fresh clone of the compiled queryset whose compiler answers with the kept SQL and
    these parameters, on this thread's connection (a compiler holds a connection, and each
    thread has its own). ``rows``: already fetched (``read_together``), only to be turned
    into models."""
    compiler = copy.copy(compiled.compiler)
    connection = compiler.connection = connections[compiled.queryset.db]
    compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)
    compiler.get_converters = partial(_converters_kept, compiled, compiler, connection)
    if rows is not None:
        # What execute_sql returns for a list: an iterable of fetched chunks.
        compiler.execute_sql = lambda *args, **kwargs: [rows]
    queryset = compiled.queryset._chain()
    queryset.query.get_compiler = lambda *args, **kwargs: compiler
    return queryset


@dataclass(frozen=True)
class RowsRead(Generic[M]):
    """One of the row sets ``read_together`` reads with a one-row query: its compiled query,
    the values (and ``key``) of its run, and the order its rows are wanted in (``order_by``,
    a sort key: the statement that joins them does not keep the query's own order)."""

    query: CompiledQuery[M]
    values: Mapping[str, Any]
    order_by: Callable[[M], Any]
    key: Any = None


# One statement for all: the one row's columns, then each row set's columns, side by side —
# its first row beside the one row, its second below that, and so on (row numbers joined;
# NULLs where a set has no row of that number). PostgreSQL allows the repeated column names
# ("id") of a derived table as long as nothing refers to them by name, and nothing does: the
# rows are split by position, each part ending with its row number.
_ONE_ROW = "SELECT * FROM (SELECT *, 1 AS nth FROM ({}) AS one_) AS r0"
_ROW_SET = (
    " FULL JOIN (SELECT *, row_number() OVER () AS nth FROM ({sql}) AS rows_) AS r{n}"
    " ON r{n}.nth = COALESCE({earlier})"
)
_KEPT_STATEMENTS = 64
_together_sql: dict[tuple[str, ...], str] = {}


def _together(sqls: tuple[str, ...]) -> str:
    sql = _together_sql.get(sqls)
    if sql is None:
        parts = [_ONE_ROW.format(sqls[0])]
        for n, rows_sql in enumerate(sqls[1:], start=1):
            earlier = ", ".join(f"r{m}.nth" for m in range(n))
            parts.append(_ROW_SET.format(sql=rows_sql, n=n, earlier=earlier))
        if len(_together_sql) >= _KEPT_STATEMENTS:
            _together_sql.clear()
        sql = _together_sql[sqls] = "".join(parts)
    return sql


def read_together(
    one: CompiledQuery[Any],
    *rows: RowsRead[Any],
    values: Mapping[str, Any],
    key: Any = None,
) -> tuple[Any | None, list[list[Any]]]:
    """``one``'s row (``None`` when it finds none) and each of ``rows``' rows, as their own
    runs would return them — in one statement on PostgreSQL, where each query's round trip
    and its driver's work cost more than the join (measured: the game, its seats and its
    chat); elsewhere (SQLite, in-process) one run after the other. ``rows``' values must not
    depend on ``one``'s answer: all are asked at once. Found nothing for ``one``: no rows."""
    one_compiled, one_params = one._bound(key, values)
    bound = [read.query._bound(read.key, read.values) for read in rows]
    alias = one_compiled.queryset.db
    if connections[alias].vendor != "postgresql" or any(c.queryset.db != alias for c, _ in bound):
        found = list(_bound_queryset(one_compiled, one_params))
        if not found:
            return None, []
        return found[0], [
            sorted(_bound_queryset(compiled, params), key=read.order_by)
            for read, (compiled, params) in zip(rows, bound, strict=True)
        ]
    sql = _together((one_compiled.sql, *(compiled.sql for compiled, _ in bound)))
    params = one_params + tuple(value for _, params in bound for value in params)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    widths = [one_compiled.compiler.col_count, *(c.compiler.col_count for c, _ in bound)]
    if fetched and len(fetched[0]) != sum(widths) + len(widths):
        # A query selecting more than its models' columns (an ordering not among them)
        # cannot be split by position.
        raise RuntimeError(f"read_together: {len(fetched[0])} columns, not the queries'")
    # Each part's columns: (start, end), its row number at ``end``.
    spans, start = [], 0
    for width in widths:
        spans.append((start, start + width))
        start += width + 1
    (one_start, one_end), *row_spans = spans
    first = next((row for row in fetched if row[one_end] == 1), None)
    if first is None:
        return None, []
    found = list(_bound_queryset(one_compiled, one_params, [first[one_start:one_end]]))
    answers = []
    for read, (compiled, params), (begin, end) in zip(rows, bound, row_spans, strict=True):
        parts = [row[begin:end] for row in fetched if row[end] is not None]
        answers.append(sorted(_bound_queryset(compiled, params, parts), key=read.order_by))
    return (found[0] if found else None), answers
