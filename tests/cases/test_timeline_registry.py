"""The timeline's merge and keyset paging over registered sources (no database rows needed)."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseflow.cases import timeline
from caseflow.cases.timeline import Cursor, Entry, Query, Source, key_of

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def _source(kind: str, times: list[int]) -> Source:
    """A source of ``kind`` whose rows are at T0 + each minute in ``times`` (pk = index + 1),
    filtered as a database source would filter them."""
    rows = [(T0 + dt.timedelta(minutes=m), i + 1) for i, m in enumerate(times)]

    def fetch(case, query: Query) -> list[Entry]:
        out = []
        for at, pk in rows:
            c = query.before
            if c is not None and (at, kind, key_of(pk)) >= (c.at, c.kind, c.key):
                continue
            if query.since is not None and at < query.since:
                continue
            if query.until is not None and at >= query.until:
                continue
            out.append(Entry(at=at, kind=kind, key=key_of(pk), title=kind))
        out.sort(key=lambda e: (e.at, e.key), reverse=True)
        return out[: query.limit]

    return Source(kind=kind, label=kind, fetch=fetch, order=0)


def _walk(sources, limit):
    seen, cursor, pages = [], None, 0
    while True:
        page = timeline.page(None, Query(limit=limit, before=cursor), sources)
        seen.extend(page.entries)
        pages += 1
        if page.next is None:
            return seen, pages
        cursor = page.next


@pytest.mark.parametrize("limit", [1, 2, 3, 7, 100])
def test_pages_cover_every_entry_once_in_order_with_ties(limit):
    # Ties on time across kinds and within a kind.
    sources = [
        _source("note", [0, 5, 5, 9]),
        _source("incident", [5, 5, 1]),
        _source("contact", [9]),
    ]
    seen, pages = _walk(sources, limit)
    keys = [(e.at, e.kind, e.key) for e in seen]
    assert len(keys) == 8 and len(set(keys)) == 8
    assert keys == sorted(keys, reverse=True)
    assert pages == max(1, -(-8 // limit))


def test_kind_filter_and_last_page_has_no_cursor():
    sources = [_source("note", [1, 2]), _source("incident", [3])]
    page = timeline.page(None, Query(limit=10, kinds=frozenset({"note"})), sources)
    assert [e.kind for e in page.entries] == ["note", "note"]
    assert page.next is None


def test_keyset_filter_excludes_the_cursor_and_what_comes_before_it():
    cursor = Cursor(T0, "note", key_of(5))
    same_kind = timeline.keyset(Query(before=cursor), "note", "at")
    later_kind = timeline.keyset(Query(before=cursor), "safety", "at")
    earlier_kind = timeline.keyset(Query(before=cursor), "incident", "at")
    assert "pk__lt" in str(same_kind)
    assert str(later_kind) == str(timeline.keyset(Query(before=cursor), "zzz", "at"))
    assert "at__lt" in str(later_kind) and "('at', datetime" not in str(later_kind)
    assert "('at', datetime" in str(earlier_kind)


def _day_rows(query: Query, kind: str, rows: list[tuple[dt.date, int]]) -> list[tuple]:
    """What ``day_keyset`` lets through, evaluated by hand on (day, pk) rows."""
    q = timeline.day_keyset(query, kind, "day")

    def admits(node, day, pk) -> bool:
        if isinstance(node, tuple):
            name, value = node
            field, _, op = name.partition("__")
            have = day if field == "day" else pk
            return {"": have == value, "lt": have < value, "gte": have >= value}[op]
        results = [admits(child, day, pk) for child in node.children]
        ok = any(results) if node.connector == "OR" else all(results)
        return not ok if node.negated else ok

    return [(d, p) for d, p in rows if admits(q, d, p)]


@pytest.mark.parametrize("cursor_kind", ["a_kind", "day_kind", "z_kind"])
@pytest.mark.parametrize("hour", [0, 5])
def test_day_keyset_places_a_day_at_midnight_utc(cursor_kind, hour):
    days = [dt.date(2026, 3, d) for d in (1, 2, 3)]
    rows = [(d, pk) for d in days for pk in (1, 2, 3)]
    cursor = Cursor(dt.datetime(2026, 3, 2, hour, 0, tzinfo=dt.UTC), cursor_kind, key_of(2))
    admitted = _day_rows(Query(before=cursor), "day_kind", rows)
    expected = [
        (d, p)
        for d, p in rows
        if (timeline.day_start(d), "day_kind", key_of(p)) < (cursor.at, cursor.kind, cursor.key)
    ]
    assert admitted == expected and admitted
    since = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    until = dt.datetime(2026, 3, 3, 0, 0, tzinfo=dt.UTC)
    window = _day_rows(Query(since=since, until=until), "day_kind", rows)
    assert window == [(d, p) for d, p in rows if since <= timeline.day_start(d) < until]


def _counting(source: Source, asked: list[Query]) -> Source:
    def fetch(case, query: Query) -> list[Entry]:
        asked.append(query)
        return source.fetch(case, query)

    return Source(kind=source.kind, label=source.label, fetch=fetch, order=0)


def test_sources_asked_after_a_full_page_read_only_what_could_still_be_on_it():
    # The notes alone fill a page of 3 (and the one more that says a page follows): minutes
    # 50, 40, 30 and 20. The incidents are asked after them, from minute 20 on.
    asked: list[Query] = []
    sources = [
        _source("note", [10, 20, 30, 40, 50]),
        _counting(_source("incident", [5, 20, 45]), asked),
    ]
    page = timeline.page(None, Query(limit=3), sources)
    assert [(e.kind, e.at.minute) for e in page.entries] == [
        ("note", 50),
        ("incident", 45),
        ("note", 40),
    ]
    assert page.next == page.entries[-1].position
    assert asked[0].since == T0 + dt.timedelta(minutes=20)
    # A later "since" of the reader's own is kept; an earlier one gives way to the bound.
    asked.clear()
    timeline.page(None, Query(limit=3, since=T0 + dt.timedelta(minutes=25)), sources)
    assert asked[0].since == T0 + dt.timedelta(minutes=25)


@given(
    times=st.lists(
        st.lists(st.integers(min_value=0, max_value=30), max_size=12), min_size=1, max_size=5
    ),
    limit=st.integers(min_value=1, max_value=10),
    since=st.one_of(st.none(), st.integers(min_value=0, max_value=30)),
)
def test_a_page_is_the_newest_entries_of_every_source_whatever_order_they_are_asked_in(
    times, limit, since
):
    sources = [_source(f"kind{n}", minutes) for n, minutes in enumerate(times)]
    start = None if since is None else T0 + dt.timedelta(minutes=since)
    every = sorted(
        (e for s in sources for e in s.fetch(None, Query(limit=1000, since=start))),
        key=lambda e: (e.at, e.kind, e.key),
        reverse=True,
    )
    for ordered in (sources, sources[::-1]):
        page = timeline.page(None, Query(limit=limit, since=start), ordered)
        assert page.entries == every[:limit]
        assert (page.next is None) == (len(every) <= limit)
