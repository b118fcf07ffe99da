"""Notes and incidents on the case timeline: keyset pages that neither skip nor repeat, filters
in the query, and a number of queries that does not grow with the rows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from caseflow.cases import timeline
from caseflow.cases.models import Case
from caseflow.casework.timeline import SOURCES
from tests.casework.helpers import make_incident, make_note

pytestmark = pytest.mark.django_db

BASE = dt.datetime(2025, 1, 6, 9, 0, tzinfo=dt.UTC)


def _fill(cast, notes: int, incidents: int) -> None:
    for i in range(notes):
        # Pairs at the same minute, so the key breaks ties.
        make_note(
            cast.case,
            cast.assigned,
            when=BASE + dt.timedelta(hours=i // 2),
            participants=["survivor"] if i % 3 else ["other_agency"],
        )
    for i in range(incidents):
        make_incident(
            cast.case,
            cast.assigned,
            when=BASE + dt.timedelta(hours=i),
            person="someone_else" if i % 2 else "other_party",
        )


def _walk(case, size: int, **filters) -> list[timeline.Entry]:
    shown: list[timeline.Entry] = []
    before = None
    pages = 0
    while True:
        page = timeline.page(case, timeline.Query(limit=size, before=before, **filters), SOURCES)
        shown.extend(page.entries)
        pages += 1
        assert len(page.entries) <= size
        if page.next is None:
            break
        before = page.next
        assert pages < 100
    return shown


def test_the_sources_page_through_everything_once_newest_first(cast):
    _fill(cast, notes=9, incidents=5)
    everything = _walk(Case.objects.get(pk=cast.case.pk), size=100)
    assert len(everything) == 14
    assert [e.position for e in everything] == sorted(
        (e.position for e in everything), reverse=True
    )
    for size in (1, 3, 4):
        paged = _walk(Case.objects.get(pk=cast.case.pk), size=size)
        assert [(e.kind, e.key) for e in paged] == [(e.kind, e.key) for e in everything]
    note = next(e for e in everything if e.kind == "note")
    assert note.body == "Talked through the week." and note.url.startswith("/cases/")
    assert timeline.SURVIVOR in next(e for e in everything if e.kind == "incident").people


def test_filters_are_applied_in_the_query(cast):
    _fill(cast, notes=6, incidents=4)
    case = Case.objects.get(pk=cast.case.pk)
    agency = _walk(case, size=2, person=timeline.OTHER_AGENCY)
    assert agency and all(e.kind == "note" and timeline.OTHER_AGENCY in e.people for e in agency)
    assert len(agency) == 2  # notes 0 and 3
    someone = _walk(case, size=2, person=timeline.OTHER_PERSON)
    assert len(someone) == 2 and {e.kind for e in someone} == {"incident"}
    since = BASE + dt.timedelta(hours=2)
    late = _walk(case, size=3, since=since)
    assert late and all(e.at >= since for e in late)
    assert len(late) == 2 + 2  # notes 4 and 5, incidents 2 and 3


def _queries(case_pk: int) -> int:
    case = Case.objects.get(pk=case_pk)
    with CaptureQueriesContext(connection) as ctx:
        page = timeline.page(case, timeline.Query(limit=20), SOURCES)
    assert page.entries
    return len(ctx.captured_queries)


def test_a_page_costs_the_same_queries_whatever_the_rows(cast):
    _fill(cast, notes=2, incidents=1)
    few = _queries(cast.case.pk)
    _fill(cast, notes=40, incidents=30)
    assert _queries(cast.case.pk) == few


def test_an_amended_note_says_so_on_the_timeline(cast):
    from caseflow.casework import services

    note = make_note(cast.case, cast.assigned, when=BASE)
    services.note_change(
        actor=cast.supervisor,
        note=note,
        changes={"text": "Corrected."},
        expected_version=1,
        reason="Typo.",
    )
    (entry,) = _walk(Case.objects.get(pk=cast.case.pk), size=5)
    assert ("Amended", "1 time") in entry.facts
    assert entry.body == "Corrected."
