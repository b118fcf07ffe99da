"""The timeline asks only the sources whose table holds a row of the case, after one statement
that says which do; a source with no model is always asked."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from caseflow.agreements.models import ContactEvent
from caseflow.cases import timeline
from caseflow.cases.models import PartyRole
from caseflow.cases.timeline import Query, Source
from caseflow.checkins.models import CheckIn
from caseflow.safety.models import SafetyPlanVersion
from tests import factories as f
from tests.cases.timeline_helpers import fill

pytestmark = pytest.mark.django_db


def _source(kind: str, model, asked: list[str]) -> Source:
    def fetch(case, query):
        asked.append(kind)
        return []

    return Source(kind=kind, label=kind, fetch=fetch, order=1, model=model)


def test_a_source_is_asked_only_when_its_table_holds_a_row_of_the_case(cast):
    other = f.open_case(cast.team1, [cast.assigned], reference="OTHER")
    f.add_party(other, PartyRole.SURVIVOR, full_name="Other survivor")
    fill(other, cast.assigned, 20)  # rows of every kind, on another case
    asked: list[str] = []
    sources = [
        _source("contact", ContactEvent, asked),
        _source("checkin", CheckIn, asked),
        _source("plan_version", SafetyPlanVersion, asked),
        _source("always", None, asked),
    ]
    with CaptureQueriesContext(connection) as captured:
        timeline.page(cast.case, Query(), sources)
    assert asked == ["always"]
    assert len(captured) == 1

    fill(cast.case, cast.assigned, 20)
    assert timeline.present(cast.case, sources) == {"contact", "checkin", "plan_version", "always"}
    asked.clear()
    timeline.page(cast.case, Query(), sources)
    assert asked == ["contact", "checkin", "plan_version", "always"]


def test_a_case_without_rows_of_a_kind_shows_the_same_page_as_when_every_source_is_asked(cast):
    fill(cast.case, cast.assigned, 60)
    registered = timeline.registered_sources()
    assert any(s.model is not None for s in registered)
    ungated = [Source(kind=s.kind, label=s.label, fetch=s.fetch, order=s.order) for s in registered]
    for query in (Query(), Query(limit=7), Query(kinds=frozenset({"contact", "note"}))):
        gated = timeline.page(cast.case, query)
        assert gated.entries
        assert gated == timeline.page(cast.case, query, ungated)


def test_one_table_alone_is_asked_directly(cast):
    asked: list[str] = []
    sources = [_source("contact", ContactEvent, asked), _source("always", None, asked)]
    with CaptureQueriesContext(connection) as captured:
        timeline.page(cast.case, Query(), sources)
    assert asked == ["contact", "always"]
    assert len(captured) == 0  # the fakes ask nothing; no statement of presence either
