"""A queryset built and compiled to SQL once per process, then run with new values.

Building a queryset with a few ``Exists`` subqueries and compiling it to SQL costs milliseconds of
CPU, every time, though the statement differs from one request to the next only in its values
(who asks, which case, what time it is). :class:`CompiledQuery` builds it once per database
alias, with a stand-in value for each parameter, finds where each stand-in lands among the
statement's parameters, and from then on runs the same SQL with the request's values in their
places, turning the rows into model instances (``select_related`` and annotations included)
the way the queryset itself would, each column's converters (its field's and the backend's, which
turn database values into Python's) looked up once per connection rather than on every run.
:class:`CompiledCount` and :class:`CompiledExists` do the same for ``count()`` and ``exists()``,
and :class:`CompiledForIds` for a list of ids, whose ``IN`` makes one statement for each number
of them.

The statement run is exactly the one the queryset would compile with the request's values
(tests compare the two): only a builder whose *shape* does not depend on the values may be
compiled, so a value that changes the shape (a role, an empty list) chooses between compiled
queries rather than being one of their parameters.
"""

from __future__ import annotations

import copy
import datetime as dt
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable

M = TypeVar("M", bound=Model)

#: The kinds of value a compiled query takes, each written as the ORM writes that kind of field.
Kind = Literal["int", "str", "datetime", "date"]


@dataclass(frozen=True)
class _Slot:
    name: str
    kind: Kind
    #: The type the ORM gave this parameter, where the backend marks the value with its own
    #: subclass (PostgreSQL's driver is handed ``Int8(n)`` for a big integer column).
    wrap: type | None = None


def _stand_in(kind: Kind, n: int) -> Any:
    """A value no real parameter of a statement holds, distinct for each slot."""
    if kind == "int":
        return 1_987_654_321 + n  # within every integer column's range, so no lookup drops it
    if kind == "str":
        return f"\x1ecompiled-slot-{n}\x1e"
    if kind == "date":
        return dt.date(1901, 2, 3) + dt.timedelta(days=n)
    return dt.datetime(1901, 2, 3, 4, 5, 6, 100_000 + n, tzinfo=dt.UTC)


def _adapt(kind: Kind, value: Any, using: str) -> Any:
    """``value`` as the ORM hands a field of ``kind`` to the database driver."""
    if kind == "int":
        return int(value)
    if kind == "str":
        return str(value)
    if kind == "date":
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
            raise ValueError("a compiled query takes dates (not datetimes) for a date")
        return connections[using].ops.adapt_datefield_value(value)
    if not isinstance(value, dt.datetime) or value.tzinfo is None:
        raise ValueError("a compiled query takes aware datetimes only")
    return connections[using].ops.adapt_datetimefield_value(value)


def _stand_ins(slots: dict[str, Kind]) -> dict[str, Any]:
    return {name: _stand_in(kind, n) for n, (name, kind) in enumerate(slots.items())}


def _place(slots: dict[str, Kind], params: Any, using: str) -> tuple[Any, ...]:
    """``params`` of a statement built with :func:`_stand_ins`: each stand-in replaced by its
    slot, the statement's own constants kept."""
    stand_ins = _stand_ins(slots)
    adapted = {name: _adapt(kind, stand_ins[name], using) for name, kind in slots.items()}
    placed: list[Any] = []
    found = set()
    for param in params:
        slot = next(
            (
                _Slot(name, slots[name], None if type(param) is type(value) else type(param))
                for name, value in adapted.items()
                if isinstance(param, type(value)) and not isinstance(param, bool) and param == value
            ),
            None,
        )
        if slot is None:
            placed.append(param)
        else:
            found.add(slot.name)
            placed.append(slot)
    missing = set(slots) - found
    if missing:
        raise ValueError(f"the built query takes no parameter for {sorted(missing)}")
    return tuple(placed)


def _fill(
    slots: dict[str, Kind], placed: tuple[Any, ...], values: dict[str, Any], using: str
) -> tuple[Any, ...]:
    """The parameters of a compiled statement for ``values``."""
    if set(values) != set(slots):
        raise TypeError(f"a compiled query takes exactly {sorted(slots)}")
    adapted = {name: _adapt(kind, values[name], using) for name, kind in slots.items()}
    return tuple(
        (adapted[p.name] if p.wrap is None else p.wrap(adapted[p.name]))
        if isinstance(p, _Slot)
        else p
        for p in placed
    )


@dataclass(frozen=True)
class _Compiled:
    compiler: Any
    sql: str
    #: Each parameter of ``sql``: a slot to fill, or a constant of the statement.
    params: tuple[Any, ...]
    #: By connection: the columns asked for and their converters (``get_converters``'s answer).
    converters: weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], dict[int, Any]]] = field(
        default_factory=weakref.WeakKeyDictionary, compare=False
    )

    def ready(self, using: str, sql: str, params: tuple[Any, ...]) -> Any:
        """A copy of the compiler for this thread's connection, sending ``sql`` with
        ``params``, its converters looked up once per connection."""
        compiler = copy.copy(self.compiler)
        connection = compiler.connection = connections[using]  # this thread's connection
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        looked_up = type(compiler).get_converters
        kept = self.converters

        def get_converters(expressions: list[Any]) -> dict[int, Any]:
            # The compiler asks for its select's columns, the same objects on every run.
            known = kept.get(connection)
            if known is not None and _same(known[0], expressions):
                return known[1]
            converters: dict[int, Any] = looked_up(compiler, expressions)
            kept[connection] = (tuple(expressions), converters)
            return converters

        compiler.get_converters = get_converters
        return compiler


def _same(kept: tuple[Any, ...], asked: list[Any]) -> bool:
    return len(kept) == len(asked) and all(a is b for a, b in zip(kept, asked, strict=True))


class _Rows:
    """What :class:`ModelIterable` reads of a queryset, around a ready compiler."""

    _known_related_objects: dict[Any, Any] = {}

    def __init__(self, model: type[Model], using: str, compiler: Any):
        self.model = model
        self.db = using
        self._compiler = compiler

    @property
    def query(self) -> _Rows:
        return self

    def get_compiler(self, using: str) -> Any:
        return self._compiler


class CompiledQuery(Generic[M]):
    """``build(**values)`` compiled once per database alias; :meth:`rows` runs it."""

    def __init__(self, model: type[M], build: Callable[..., QuerySet[M]], **slots: Kind):
        self.model = model
        self.build = build
        self.slots = slots
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, using: str) -> _Compiled:
        compiled = self._compiled.get(using)
        if compiled is not None:
            return compiled
        with self._lock:
            if using not in self._compiled:
                self._compiled[using] = self._prepare(using)
            return self._compiled[using]

    def _prepare(self, using: str) -> _Compiled:
        stand_ins = _stand_ins(self.slots)
        queryset = self.build(**stand_ins)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        return _Compiled(compiler=compiler, sql=sql, params=_place(self.slots, params, using))

    def sql(self, using: str | None = None, **values: Any) -> tuple[str, tuple[Any, ...]]:
        """The statement and its parameters for ``values``."""
        using = using or router.db_for_read(self.model)
        return self._compile(using).sql, _fill(
            self.slots, self._compile(using).params, values, using
        )

    def rows(self, using: str | None = None, **values: Any) -> list[M]:
        """The model instances the built queryset would give for ``values``."""
        using = using or router.db_for_read(self.model)
        sql, params = self.sql(using, **values)
        compiler = self._compile(using).ready(using, sql, params)
        return list(ModelIterable(_Rows(self.model, using, compiler)))  # type: ignore[arg-type]

    def dicts(self, using: str | None = None, **values: Any) -> list[dict[str, Any]]:
        """The rows of a ``values()`` queryset (aggregates included) for ``values``: each a
        dictionary as the built queryset gives it."""
        using = using or router.db_for_read(self.model)
        sql, params = self.sql(using, **values)
        compiler = self._compile(using).ready(using, sql, params)
        query = compiler.query
        names = (
            list(query.selected)
            if query.selected
            else [*query.extra_select, *query.values_select, *query.annotation_select]
        )
        indexes = range(len(names))
        return [{names[i]: row[i] for i in indexes} for row in compiler.results_iter()]


class _Captured(Exception):
    def __init__(self, sql: str, params: Any):
        self.sql, self.params = sql, params


def _capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    raise _Captured(sql, params)


class CompiledCount:
    """``build(**values)`` (a queryset) counted with SQL built once per database alias: the very
    statement ``count()`` sends, taken from the database connection on its way out (and not
    run) the first time."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet[Any]], **slots: Kind):
        self.model = model
        self.build = build
        self.slots = slots
        self._compiled: dict[str, tuple[str, tuple[Any, ...]]] = {}

    def _compile(self, using: str) -> tuple[str, tuple[Any, ...]]:
        compiled = self._compiled.get(using)
        if compiled is None:
            queryset = self.build(**_stand_ins(self.slots)).using(using)
            connection = connections[using]
            # A statement stopped on its way out is no query: the log of queries (the tests'
            # counts) does not see it.
            logging, connection.force_debug_cursor = connection.force_debug_cursor, False
            try:
                with connection.execute_wrapper(_capture):
                    self._send(queryset)
            except _Captured as sent:
                compiled = (sent.sql, _place(self.slots, sent.params, using))
            else:  # pragma: no cover - count() and exists() always ask the database
                raise ValueError("the built query sent no statement")
            finally:
                connection.force_debug_cursor = logging
            self._compiled[using] = compiled
        return compiled

    def _send(self, queryset: QuerySet[Any]) -> None:
        queryset.count()

    def sql(self, using: str | None = None, **values: Any) -> tuple[str, tuple[Any, ...]]:
        """The statement and its parameters for ``values``."""
        using = using or router.db_for_read(self.model)
        sql, placed = self._compile(using)
        return sql, _fill(self.slots, placed, values, using)

    def count(self, using: str | None = None, **values: Any) -> int:
        using = using or router.db_for_read(self.model)
        sql, params = self.sql(using, **values)
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        return int(row[0])


class CompiledExists(CompiledCount):
    """:class:`CompiledCount` for ``exists()``: the very statement it sends, built once."""

    def _send(self, queryset: QuerySet[Any]) -> None:
        queryset.exists()

    def exists(self, using: str | None = None, **values: Any) -> bool:
        using = using or router.db_for_read(self.model)
        sql, params = self.sql(using, **values)
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone() is not None


class CompiledForIds(Generic[M]):
    """``build(ids, **values)``, a queryset of the rows of a list of ``ids`` (an ``IN``, whose
    statement depends on how many there are), compiled once per process for each number of ids
    up to ``most``: :meth:`rows` gives None for a list it holds no statement for (empty, or of
    more than ``most``), which the caller builds as before."""

    def __init__(
        self, model: type[M], build: Callable[..., QuerySet[M]], *, most: int, **slots: Kind
    ):
        self.model = model
        self.build = build
        self.most = most
        self.slots = slots
        self._by_size: dict[int, CompiledQuery[M]] = {}

    def _compiled(self, size: int) -> CompiledQuery[M] | None:
        compiled = self._by_size.get(size)
        if compiled is None and 0 < size <= self.most:
            names = [f"id_{n}" for n in range(size)]

            def build(**values: Any) -> QuerySet[M]:
                return self.build([values.pop(name) for name in names], **values)

            slots: dict[str, Kind] = {**self.slots, **dict.fromkeys(names, "int")}
            compiled = self._by_size.setdefault(size, CompiledQuery(self.model, build, **slots))
        return compiled

    @staticmethod
    def _ids(ids: Sequence[int]) -> dict[str, Any]:
        return {f"id_{n}": pk for n, pk in enumerate(ids)}

    def sql(self, ids: Sequence[int], **values: Any) -> tuple[str, tuple[Any, ...]] | None:
        """The statement and its parameters for ``ids`` and ``values``; None as :meth:`rows`."""
        compiled = self._compiled(len(ids))
        return None if compiled is None else compiled.sql(**values, **self._ids(ids))

    def rows(self, ids: Sequence[int], **values: Any) -> list[M] | None:
        """The model instances ``build(ids, **values)`` gives; None where it is built instead."""
        compiled = self._compiled(len(ids))
        return None if compiled is None else compiled.rows(**values, **self._ids(ids))
