"""Counting calls: for reports by caller kind in a period, and on the list by day."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from caseflow.calls import selectors, services
from caseflow.calls.models import Call

NOW = dt.datetime(2026, 10, 1, 9, 0, tzinfo=dt.UTC)
LONDON = ZoneInfo("Europe/London")


def _call(user, kind: str, at: dt.datetime, **kw) -> Call:
    with time_machine.travel(at, tick=False):
        return services.call_log(actor=user, caller_kind=kind, **kw)


def test_calls_by_caller_kind_counts_a_known_population(cast):
    q3_start = dt.datetime(2026, 7, 1, tzinfo=dt.UTC)
    q3_end = dt.datetime(2026, 10, 1, tzinfo=dt.UTC)
    seeded = [
        ("anonymous", dt.datetime(2026, 7, 1, 0, 0, tzinfo=dt.UTC)),  # first moment: in
        ("anonymous", dt.datetime(2026, 8, 14, 22, 0, tzinfo=dt.UTC)),
        ("anonymous", dt.datetime(2026, 9, 30, 23, 59, tzinfo=dt.UTC)),
        ("survivor", dt.datetime(2026, 8, 2, 10, 0, tzinfo=dt.UTC)),
        ("survivor", dt.datetime(2026, 9, 3, 10, 0, tzinfo=dt.UTC)),
        ("professional", dt.datetime(2026, 7, 20, 10, 0, tzinfo=dt.UTC)),
        ("survivor", dt.datetime(2026, 6, 30, 23, 59, tzinfo=dt.UTC)),  # before: out
        ("friend_family", dt.datetime(2026, 10, 1, 0, 0, tzinfo=dt.UTC)),  # the end: out
    ]
    for kind, at in seeded:
        _call(cast.assigned, kind, at)
    # Another agency's calls are never counted.
    _call(cast.other_agency, "anonymous", dt.datetime(2026, 8, 1, tzinfo=dt.UTC))
    # A call on a case still counts once.
    attached = _call(cast.assigned, "survivor", dt.datetime(2026, 9, 10, tzinfo=dt.UTC))
    with time_machine.travel(NOW, tick=False):
        services.call_attach(actor=cast.assigned, call=attached, case=cast.case)
    with CaptureQueriesContext(connection) as queries:
        counts = selectors.calls_by_caller_kind(
            agency_id=cast.agency.pk, start=q3_start, end=q3_end
        )
    assert len(queries) == 1
    assert counts == {
        "survivor": 3,
        "friend_family": 0,
        "professional": 1,
        "anonymous": 3,
        "total": 7,
    }


def test_calls_by_caller_kind_wants_aware_bounds(cast):
    with pytest.raises(ValueError):
        selectors.calls_by_caller_kind(
            agency_id=cast.agency.pk, start=dt.datetime(2026, 7, 1), end=NOW
        )


def test_counts_by_day_follow_the_agencys_day(cast):
    # 23:30 UTC on 30 September is already 1 October in London (summer time).
    _call(cast.assigned, "anonymous", dt.datetime(2026, 9, 30, 23, 30, tzinfo=dt.UTC))
    _call(cast.same_team, "survivor", dt.datetime(2026, 10, 1, 8, 0, tzinfo=dt.UTC))
    _call(cast.assigned, "anonymous", dt.datetime(2026, 9, 29, 12, 0, tzinfo=dt.UTC))
    _call(cast.other_agency, "anonymous", dt.datetime(2026, 10, 1, 8, 0, tzinfo=dt.UTC))
    with time_machine.travel(NOW, tick=False):
        days = selectors.counts_by_day(cast.supervisor, days=3, zone=LONDON)
    assert [(d.day, d.total, d.anonymous) for d in days] == [
        (dt.date(2026, 10, 1), 2, 1),
        (dt.date(2026, 9, 30), 0, 0),
        (dt.date(2026, 9, 29), 1, 1),
    ]


def test_the_list_reads_no_encrypted_field_in_constant_queries(cast):
    def rows():
        with time_machine.travel(NOW, tick=False), CaptureQueriesContext(connection) as q:
            out = selectors.call_rows(cast.same_team, since=NOW - dt.timedelta(days=31))
        return out, q

    _call(cast.assigned, "survivor", NOW - dt.timedelta(hours=2), caller_name="Rowan Ashby")
    one, few = rows()
    for n in range(5):
        _call(cast.supervisor, "anonymous", NOW - dt.timedelta(hours=3 + n))
    many, more = rows()
    assert (len(one), len(many)) == (1, 6)
    assert len(few) == len(more)
    sql = " ".join(q["sql"] for q in more.captured_queries)
    assert "caller_name" not in sql and "notes" not in sql
    # same_team may list them all, but reads none of them (not theirs, not a supervisor).
    assert [r.readable for r in many] == [False] * 6
