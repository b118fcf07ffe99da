"""The case timeline: every dated record of a case, from every part of caseflow, in one order.

Each feature of a case (:mod:`caseflow.cases.features`) brings a :class:`Source` for each kind
of record it keeps (notes, incidents, contacts, breaches, check-ins, plan versions, releases…).
The timeline asks every chosen source for one page and merges the answers, so a page costs one
query (or a fixed few) per source, whatever the number of rows the case holds. Once the sources
asked so far have given a page's worth, the rest are asked only for entries at least as new as
the last of it (their ``since`` moves up): nothing older could be on the page, so a busy kind of
record does not read rows another kind has already pushed off it.

The order is newest first by ``(at, kind, key)``, descending. A page ends at a :class:`Cursor`
(the last entry shown); the next page asks every source for entries strictly after it in that
order (keyset pagination: no OFFSET, so page 50 costs what page 1 costs).

A source's ``fetch(case, query)`` must:

- return at most ``query.limit`` entries of its own kind, newest first in the order above;
- apply ``query.since`` / ``query.until`` (on ``at``), ``query.person`` (see :data:`PEOPLE`)
  and ``query.before`` in its database query (:func:`keyset` builds the ``before`` filter);
- run a constant number of queries (``select_related`` what it shows);
- hold only what may be shown to someone who may read the case: the view resolved the case
  through policy before it asked, and records the read.

A source whose entries are all made from one model's rows of the case names that ``model``:
the timeline first asks, in one statement for every such source, which of those tables hold a
row of the case, and does not ask a source whose table holds none. A page then costs one query
per kind of record the case has, plus one, never more as its rows grow.

:func:`newest` applies all of that to a queryset of one kind (:func:`newest_compiled` to a
function building it, its SQL compiled once per process for each shape of page: a source read on
most pages uses it); :func:`about` answers the person filter for a source whose entries are
always about the same people. A record kept as a date
without a time (a release signed on a day) is placed at midnight UTC of that day
(:func:`day_start`), paged with :func:`newest_days` and shown as the date alone
(``Entry.date_only``).

A position travels in a query string as :meth:`Cursor.token` (time, kind, key; nothing else) and
comes back through :meth:`Cursor.parse`, which refuses anything else. :func:`chronology` gives the
whole filtered timeline for printing with a SHA-256 of its content; each source's ``categories``
say what its entries would tell someone outside the agency (the confidentiality app requires a
release covering all of them before a chronology leaves).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import ForeignKey, Model, Q, QuerySet

from caseflow.cases import features
from caseflow.lib.compiled import CompiledQuery, Kind
from caseflow.lib.i18n import gettext_lazy as _

#: Who an entry can be about, for the "person" filter. Sources tag their entries with these.
SURVIVOR = "survivor"
OTHER_PARTY = "other_party"
OTHER_PERSON = "other_person"
OTHER_AGENCY = "other_agency"
STAFF = "staff"
PEOPLE: dict[str, str] = {
    SURVIVOR: _("The survivor"),
    OTHER_PARTY: _("The other party"),
    OTHER_PERSON: _("Someone else"),
    OTHER_AGENCY: _("Another agency"),
    STAFF: _("Our staff"),
}

#: Width of a numeric key, so that keys sort as strings the way their numbers do.
KEY_WIDTH = 12


def key_of(pk: int) -> str:
    return f"{pk:0{KEY_WIDTH}d}"


@dataclass(frozen=True)
class Entry:
    at: dt.datetime
    kind: str
    #: Unique within the kind and stable (``key_of(pk)`` for a row): the order's tie-break.
    key: str
    #: Plain words: "Call with the survivor", "Contact outside the agreed times".
    title: str
    #: The record's text, decrypted, for people who may read the case. Never logged.
    body: str = ""
    people: frozenset[str] = field(default_factory=frozenset)
    #: The time is approximate (the survivor remembers "early March").
    approximate: bool = False
    #: The record's own page, if it has one.
    url: str = ""
    #: Short facts shown beside the title: ("Duration", "20 minutes"), ("Outcome", "Reached").
    facts: tuple[tuple[str, str], ...] = ()
    #: The record holds a day, not a time: show the date alone (``at`` is midnight UTC).
    date_only: bool = False

    @property
    def position(self) -> Cursor:
        return Cursor(self.at, self.kind, self.key)


@dataclass(frozen=True)
class Cursor:
    at: dt.datetime
    kind: str
    key: str

    def __lt__(self, other: Cursor) -> bool:
        return (self.at, self.kind, self.key) < (other.at, other.kind, other.key)

    def token(self) -> str:
        """The cursor for a query string: time (UTC, microseconds), kind and key, nothing else."""
        at = self.at.astimezone(dt.UTC)
        return f"{at:%Y%m%dT%H%M%S.%fZ}.{self.kind}.{self.key}"

    @classmethod
    def parse(cls, token: str, kinds: Iterable[str]) -> Cursor:
        """The cursor ``token`` names, or :class:`ValueError` if it is not one of ours (a kind
        that is not registered, a key that is not a number, a time that does not exist)."""
        match = _TOKEN.fullmatch(token or "")
        if match is None or match["kind"] not in set(kinds):
            raise ValueError("not a timeline position")
        at = dt.datetime.strptime(match["at"], "%Y%m%dT%H%M%S.%f").replace(tzinfo=dt.UTC)
        return cls(at, match["kind"], match["key"])


_TOKEN = re.compile(
    r"(?P<at>\d{8}T\d{6}\.\d{6})Z\.(?P<kind>[a-z][a-z0-9_]{0,39})\.(?P<key>\d{1,18})"
)


@dataclass(frozen=True)
class Query:
    limit: int = 50
    before: Cursor | None = None
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    kinds: frozenset[str] | None = None
    person: str | None = None


@dataclass(frozen=True)
class Source:
    kind: str
    #: Plain words for the kind filter: "Case notes", "Incidents".
    label: str
    fetch: Callable[[Any, Query], list[Entry]]
    order: int
    #: What the entries tell someone who reads them, in the confidentiality app's category
    #: names ("narratives", "evidence", "risk", ...): a printed chronology leaves the agency only
    #: under a release covering every category of the kinds it holds. ``None``: every category.
    categories: frozenset[str] | None = None
    #: The model whose rows of the case (its ``case`` foreign key) the entries are made from, if
    #: there is one: a case with no such row is not asked (see :func:`present`).
    model: type[Model] | None = None


def registered_sources() -> tuple[Source, ...]:
    """Every feature's timeline sources, by ``(order, kind)``."""
    return tuple(sorted(features.members(lambda f: f.timeline), key=lambda s: (s.order, s.kind)))


def keyset(query: Query, kind: str, at_field: str, pk_field: str = "pk") -> Q:
    """The filter for ``query.since``/``until``/``before`` on rows whose time is ``at_field`` and
    whose key is ``key_of(pk_field)``, for a source of ``kind``. Order the rows by
    ``(-at_field, -pk_field)``."""
    q = Q()
    if query.since is not None:
        q &= Q(**{f"{at_field}__gte": query.since})
    if query.until is not None:
        q &= Q(**{f"{at_field}__lt": query.until})
    before = query.before
    if before is not None:
        older = Q(**{f"{at_field}__lt": before.at})
        if kind < before.kind:
            older |= Q(**{at_field: before.at})
        elif kind == before.kind:
            older |= Q(**{at_field: before.at, f"{pk_field}__lt": int(before.key)})
        q &= older
    return q


def about(query: Query, people: frozenset[str]) -> bool:
    """Whether a source whose entries are always about ``people`` has any for ``query``'s
    person filter (when it has none, it need not ask the database)."""
    return query.person is None or query.person in people


def newest(qs: QuerySet, query: Query, kind: str, at_field: str, pk_field: str = "pk") -> list:
    """The rows of ``qs`` for one page of ``kind``: the keyset filter, newest first, at most
    ``query.limit`` of them, in one query."""
    return list(_newest_queryset(qs, query, kind, at_field, pk_field))


def _newest_queryset(
    qs: QuerySet, query: Query, kind: str, at_field: str, pk_field: str = "pk"
) -> QuerySet:
    return qs.filter(keyset(query, kind, at_field, pk_field)).order_by(
        f"-{at_field}", f"-{pk_field}"
    )[: query.limit]


#: The compiled statements of :func:`newest_compiled`, by source and shape of query; past this
#: many (a caller asking for ever new page sizes) the rest are built each time instead.
_COMPILED: dict[tuple[Any, ...], CompiledQuery[Any]] = {}
_COMPILED_MAX = 256


def _slot_kind(value: Any) -> Kind | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return "datetime"
    return None


def newest_compiled(
    model: type[Model],
    base: Callable[..., QuerySet],
    query: Query,
    kind: str,
    at_field: str,
    pk_field: str = "pk",
    **values: Any,
) -> list:
    """:func:`newest` of ``base(**values)``, its SQL built and compiled once per process for
    each shape of ``query`` (which of since, until and before it has, where the cursor's kind
    sorts against ``kind``, the page size) rather than on every page: the same statement, with
    the page's values in it. ``base`` must build the same shape of queryset for any
    ``values`` (ints, strings, aware datetimes; the case's id, never the case)."""
    before = query.before
    relation = None
    keys = dict(values)
    if query.since is not None:
        keys["_since"] = query.since
    if query.until is not None:
        keys["_until"] = query.until
    if before is not None:
        relation = "<" if kind < before.kind else "=" if kind == before.kind else ">"
        keys["_before_at"] = before.at
        if relation == "=":
            keys["_before_key"] = int(before.key)
    slots = {name: _slot_kind(value) for name, value in keys.items()}
    shape = (base, model, kind, at_field, pk_field, query.limit, relation, tuple(sorted(slots)))
    compiled = _COMPILED.get(shape)
    if compiled is None:
        if None in slots.values() or len(_COMPILED) >= _COMPILED_MAX:
            return newest(base(**values), query, kind, at_field, pk_field)
        cursor_kind = before.kind if before is not None else ""

        def build(
            *,
            _since: dt.datetime | None = None,
            _until: dt.datetime | None = None,
            _before_at: dt.datetime | None = None,
            _before_key: int = 0,
            **given: Any,
        ) -> QuerySet:
            shaped = Query(
                limit=query.limit,
                since=_since,
                until=_until,
                before=None
                if _before_at is None
                else Cursor(_before_at, cursor_kind, str(_before_key)),
            )
            return _newest_queryset(base(**given), shaped, kind, at_field, pk_field)

        compiled = _COMPILED.setdefault(
            shape,
            CompiledQuery(model, build, **{k: v for k, v in slots.items() if v is not None}),
        )
    return compiled.rows(**keys)


def day_start(day: dt.date) -> dt.datetime:
    """Where a record kept as a day (no time) is placed: midnight UTC of that day."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC)


def _first_day_at_or_after(moment: dt.datetime) -> dt.date:
    """The first day whose :func:`day_start` is not before ``moment``."""
    moment = moment.astimezone(dt.UTC)
    day = moment.date()
    return day if day_start(day) == moment else day + dt.timedelta(days=1)


def day_keyset(query: Query, kind: str, day_field: str, pk_field: str = "pk") -> Q:
    """:func:`keyset` for rows kept as a day (``day_field``, a date), placed at its
    :func:`day_start`: the same filter, on the date column itself (so no database has to turn
    dates into times, and every database compares them the same way)."""
    q = Q()
    if query.since is not None:
        q &= Q(**{f"{day_field}__gte": _first_day_at_or_after(query.since)})
    if query.until is not None:
        q &= Q(**{f"{day_field}__lt": _first_day_at_or_after(query.until)})
    before = query.before
    if before is not None:
        older = Q(**{f"{day_field}__lt": _first_day_at_or_after(before.at)})
        at = before.at.astimezone(dt.UTC)
        if day_start(at.date()) == at:  # rows of that very day sit at the cursor's time
            if kind < before.kind:
                older |= Q(**{day_field: at.date()})
            elif kind == before.kind:
                older |= Q(**{day_field: at.date(), f"{pk_field}__lt": int(before.key)})
        q &= older
    return q


def newest_days(
    qs: QuerySet, query: Query, kind: str, day_field: str, pk_field: str = "pk"
) -> list:
    """:func:`newest` for rows kept as a day (see :func:`day_keyset`)."""
    return list(
        qs.filter(day_keyset(query, kind, day_field, pk_field)).order_by(
            f"-{day_field}", f"-{pk_field}"
        )[: query.limit]
    )


@dataclass(frozen=True)
class Page:
    entries: list[Entry]
    #: Where the next page starts, or None on the last page.
    next: Cursor | None


@functools.cache
def _presence_sql(tables: tuple[tuple[str, str], ...]) -> str:
    """One statement answering, for each ``(table, case column)``, whether the case has a row
    there: the position of each table that has one (built once per set of tables)."""
    quote = connection.ops.quote_name
    return " UNION ALL ".join(
        # Only the models' own table and column names are written in; the case is a parameter.
        f"SELECT {n} WHERE EXISTS (SELECT 1 FROM {quote(table)} WHERE {quote(column)} = %s)"  # noqa: S608
        for n, (table, column) in enumerate(tables)
    )


def _case_table(model: type[Model]) -> tuple[str, str]:
    """The model's table and the column of its ``case`` foreign key."""
    case_field = model._meta.get_field("case")
    assert isinstance(case_field, ForeignKey)
    return model._meta.db_table, case_field.column


def present(case: Any, sources: Iterable[Source]) -> set[str]:
    """The kinds of ``sources`` that may have entries for ``case``: every source without a
    ``model``, and those whose model holds a row of the case (one statement for all of them,
    none when fewer than two tables would be asked about)."""
    kinds, gated = set(), {}
    for source in sources:
        if source.model is None:
            kinds.add(source.kind)
        else:
            gated[source.kind] = _case_table(source.model)
    tables = tuple(sorted(set(gated.values())))
    if len(tables) < 2:  # asking whether one table holds a row costs what asking it does
        return kinds | set(gated)
    with connection.cursor() as cursor:
        cursor.execute(_presence_sql(tables), [case.pk] * len(tables))
        held = {tables[n] for (n,) in cursor.fetchall()}
    return kinds | {kind for kind, table in gated.items() if table in held}


def page(case: Any, query: Query, sources: Iterable[Source] | None = None) -> Page:
    """One page of ``case``'s timeline: ``query.limit`` entries from every chosen source that
    may have any (:func:`present`)."""
    chosen = [
        s
        for s in (registered_sources() if sources is None else sources)
        if query.kinds is None or s.kind in query.kinds
    ]
    kinds = present(case, chosen)
    chosen = [s for s in chosen if s.kind in kinds]
    # One more than the page, to know whether another page follows.
    ask = Query(
        limit=query.limit + 1,
        before=query.before,
        since=query.since,
        until=query.until,
        kinds=query.kinds,
        person=query.person,
    )
    entries: list[Entry] = []
    for source in chosen:
        entries.extend(source.fetch(case, ask))
        if len(entries) >= ask.limit:
            # The page holds no entry older than the newest ``ask.limit`` seen so far: the
            # sources still to ask read only what is at least as new as the last of those.
            entries.sort(key=_position, reverse=True)
            del entries[ask.limit :]
            bound = entries[-1].at
            if ask.since is None or bound > ask.since:
                ask = replace(ask, since=bound)
    entries.sort(key=_position, reverse=True)
    more = len(entries) > query.limit
    shown = entries[: query.limit]
    return Page(shown, shown[-1].position if more and shown else None)


def _position(entry: Entry) -> tuple[dt.datetime, str, str]:
    return (entry.at, entry.kind, entry.key)


# --- The printed chronology ---------------------------------------------------------------------

#: The most entries one printed chronology holds; a longer record is printed a period at a time.
PRINT_MAX = 5000


@dataclass(frozen=True)
class Chronology:
    #: Oldest first, as a chronology is read.
    entries: list[Entry]
    #: False when the record had more than :data:`PRINT_MAX` entries (the oldest were left out).
    complete: bool
    #: SHA-256 over the content (not over when or for whom it was generated).
    sha256: str
    #: The kinds of record it holds (its sources), for what it may disclose.
    sources: tuple[Source, ...]


def chronology(case: Any, query: Query, heading: dict[str, Any]) -> Chronology:
    """The whole (filtered) timeline of ``case`` for printing, newest :data:`PRINT_MAX` at most,
    with a fingerprint over ``heading`` (the case and the filters, as shown) and every entry."""
    chosen = tuple(s for s in registered_sources() if query.kinds is None or s.kind in query.kinds)
    result = page(
        case,
        Query(
            limit=PRINT_MAX,
            since=query.since,
            until=query.until,
            kinds=query.kinds,
            person=query.person,
        ),
        chosen,
    )
    entries = list(reversed(result.entries))
    labels = {s.kind: s.label for s in chosen}
    content = {
        "heading": heading,
        "entries": [
            {
                "at": e.at.astimezone(dt.UTC).isoformat(),
                "date_only": e.date_only,
                "approximate": e.approximate,
                "kind": labels.get(e.kind, e.kind),
                "title": e.title,
                "facts": [list(f) for f in e.facts],
                "body": e.body,
            }
            for e in entries
        ],
    }
    canonical = json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder
    )
    return Chronology(
        entries=entries,
        complete=result.next is None,
        sha256=hashlib.sha256(canonical.encode()).hexdigest(),
        sources=chosen,
    )
