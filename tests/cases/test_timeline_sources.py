"""The timeline's sources: every part of caseflow registers its own, each pages by keyset so
that walking the pages shows every entry once, newest first, and applies the filters itself."""

from __future__ import annotations

import datetime as dt

import pytest

from caseflow.cases import timeline
from caseflow.cases.timeline import Query
from tests.cases.timeline_helpers import START, fill

pytestmark = pytest.mark.django_db

KINDS = {
    "contact",
    "breach",
    "agreement_version",
    "checkin",
    "plan_version",
    "risk_assessment",
    "case_status",
    "release",
    "disclosure",
    "episode",
}


def _walk(case, query: Query) -> list[timeline.Entry]:
    seen, pages = [], 0
    while True:
        result = timeline.page(case, query)
        seen.extend(result.entries)
        pages += 1
        assert pages < 1000
        if result.next is None:
            return seen
        query = Query(
            limit=query.limit,
            before=result.next,
            since=query.since,
            until=query.until,
            kinds=query.kinds,
            person=query.person,
        )


def test_every_part_of_caseflow_registers_its_sources():
    assert {s.kind for s in timeline.registered_sources()} >= KINDS


def test_keyset_pages_show_every_entry_once_newest_first(cast):
    counts = fill(cast.case, cast.assigned, 60)
    everything = _walk(cast.case, Query(limit=500))
    assert {e.kind for e in everything} == KINDS
    for limit in (1, 7, 25):
        seen = _walk(cast.case, Query(limit=limit))
        keys = [(e.at, e.kind, e.key) for e in seen]
        assert keys == [(e.at, e.kind, e.key) for e in everything]
        assert len(set(keys)) == len(keys)
        assert keys == sorted(keys, reverse=True)
    by_kind = {k: sum(e.kind == k for e in everything) for k in KINDS}
    assert by_kind["contact"] == counts["contact"]
    assert by_kind["breach"] == counts["breach"]
    assert by_kind["checkin"] == counts["checkin"]
    # Each release was signed and has run out; the case was opened and made active.
    assert by_kind["release"] == 2 * counts["release"]
    assert by_kind["case_status"] == 2
    # Made active: the case's first episode began (it was made before episodes were kept).
    assert by_kind["episode"] == 1


def test_filters_by_kind_dates_and_person(cast):
    fill(cast.case, cast.assigned, 60)
    everything = _walk(cast.case, Query(limit=500))
    only = _walk(cast.case, Query(limit=5, kinds=frozenset({"contact", "checkin"})))
    assert only and {e.kind for e in only} == {"contact", "checkin"}
    assert len(only) == sum(e.kind in ("contact", "checkin") for e in everything)

    since, until = START + dt.timedelta(hours=10), START + dt.timedelta(hours=30)
    window = _walk(cast.case, Query(limit=4, since=since, until=until))
    assert window and all(since <= e.at < until for e in window)
    assert len(window) == sum(since <= e.at < until for e in everything)

    agencies = _walk(cast.case, Query(limit=3, person="other_agency"))
    assert agencies and {e.kind for e in agencies} == {"release", "disclosure"}
    survivor = _walk(cast.case, Query(limit=50, person="survivor"))
    assert "disclosure" not in {e.kind for e in survivor} and "contact" in {
        e.kind for e in survivor
    }


def test_a_contact_by_the_survivor_is_never_a_breach(cast):
    fill(cast.case, cast.assigned, 60)
    everything = _walk(cast.case, Query(limit=500))
    theirs = [e for e in everything if e.title == "The survivor contacted the other parent"]
    assert theirs
    assert all(dict(e.facts).get("Review") is None for e in theirs)
    breaches = [e for e in everything if e.kind == "breach"]
    assert breaches and all("other parent" in e.title for e in breaches)
