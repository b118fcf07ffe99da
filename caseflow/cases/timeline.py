"""The case timeline: every dated record of a case, from every part of caseflow, in one order.

Each part of caseflow above cases registers a :class:`Source` for each kind of record it keeps
(notes, incidents, contacts, breaches, check-ins, plan versions, releases…) in its
``AppConfig.ready``; cases cannot import them. The timeline asks every chosen source for one page
and merges the answers, so a page costs one query (or a fixed few) per source, whatever the
number of rows the case holds.

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
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

#: Who an entry can be about, for the "person" filter. Sources tag their entries with these.
SURVIVOR = "survivor"
OTHER_PARTY = "other_party"
OTHER_PERSON = "other_person"
OTHER_AGENCY = "other_agency"
STAFF = "staff"
PEOPLE: dict[str, str] = {
    SURVIVOR: "The survivor",
    OTHER_PARTY: "The other party",
    OTHER_PERSON: "Someone else",
    OTHER_AGENCY: "Another agency",
    STAFF: "Our staff",
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


_SOURCES: list[Source] = []


def register_timeline_source(source: Source) -> None:
    """Show ``source``'s records on the case timeline (called from an ``AppConfig.ready``)."""
    if any(s.kind == source.kind for s in _SOURCES):
        existing = next(s for s in _SOURCES if s.kind == source.kind)
        if existing.fetch is source.fetch:
            return
        raise ValueError(f"two timeline sources both want the kind {source.kind!r}")
    _SOURCES.append(source)
    _SOURCES.sort(key=lambda s: (s.order, s.kind))


def registered_sources() -> tuple[Source, ...]:
    return tuple(_SOURCES)


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


@dataclass(frozen=True)
class Page:
    entries: list[Entry]
    #: Where the next page starts, or None on the last page.
    next: Cursor | None


def page(case: Any, query: Query, sources: Iterable[Source] | None = None) -> Page:
    """One page of ``case``'s timeline: ``query.limit`` entries from every chosen source."""
    chosen = [
        s
        for s in (registered_sources() if sources is None else sources)
        if query.kinds is None or s.kind in query.kinds
    ]
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
    entries.sort(key=lambda e: (e.at, e.kind, e.key), reverse=True)
    more = len(entries) > query.limit
    shown = entries[: query.limit]
    return Page(shown, shown[-1].position if more and shown else None)
