"""The busiest timeline sources run SQL compiled once per process for each shape of page: the
very statements, and so the very pages, that building their querysets anew gives."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from caseflow.cases import timeline
from caseflow.cases.timeline import OTHER_PERSON, SURVIVOR, Query
from tests.cases.timeline_helpers import START, fill

pytestmark = pytest.mark.django_db


def _pages(case, queries):
    """Each query's page and the SQL of all of them, as sent."""
    with CaptureQueriesContext(connection) as captured:
        pages = [timeline.page(case, q) for q in queries]
    return pages, [q["sql"] for q in captured]


def _queries(case) -> list[Query]:
    first = timeline.page(case, Query(limit=7))
    assert first.next is not None
    queries = [
        Query(),
        Query(limit=7),
        Query(limit=7, before=first.next),
        Query(since=START + dt.timedelta(hours=5)),
        Query(until=START + dt.timedelta(hours=30)),
        Query(
            limit=3,
            since=START,
            until=START + dt.timedelta(hours=40),
            before=first.entries[2].position,
        ),
        Query(person=OTHER_PERSON),
        Query(person=SURVIVOR, kinds=frozenset({"contact", "checkin", "breach"})),
    ]
    # A cursor at each converted kind, so the tie-breaks on its key are asked too.
    everything = timeline.page(case, Query(limit=500)).entries
    for kind in ("contact", "breach", "checkin", "plan_version", "agreement_version"):
        entry = next(e for e in everything if e.kind == kind)
        queries.append(Query(limit=5, before=entry.position))
    return queries


def test_compiled_sources_send_the_statements_built_ones_would(cast, monkeypatch):
    fill(cast.case, cast.assigned, 60)
    queries = _queries(cast.case)
    with time_machine.travel(START + dt.timedelta(days=400), tick=False):  # the same "now"
        compiled, compiled_sql = _pages(cast.case, queries)
    assert timeline._COMPILED  # the converted sources were compiled
    # Past the limit of compiled shapes every source builds its queryset each time.
    monkeypatch.setattr(timeline, "_COMPILED", {})
    monkeypatch.setattr(timeline, "_COMPILED_MAX", 0)
    with time_machine.travel(START + dt.timedelta(days=400), tick=False):
        built, built_sql = _pages(cast.case, queries)
    assert not timeline._COMPILED
    assert compiled == built
    assert compiled_sql == built_sql
    assert any(p.entries for p in built) and any(p.next for p in built)
