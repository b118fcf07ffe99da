"""The demo shows the case timeline in use: its cases have records of most kinds on it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.cases import timeline
from caseflow.cases.models import Case
from caseflow.cases.timeline import Query
from caseflow.demo import seed


@pytest.mark.demo
def test_demo_cases_fill_the_timeline(db, login):
    seed.seed()
    kinds_by_case = {}
    for case in Case.objects.all():
        entries = timeline.page(case, Query(limit=1000)).entries
        kinds_by_case[case.pk] = {e.kind for e in entries}
    assert all("case_status" in kinds for kinds in kinds_by_case.values())
    richest = max(kinds_by_case, key=lambda pk: len(kinds_by_case[pk]))
    assert len(kinds_by_case[richest]) >= 6, kinds_by_case[richest]
    seen = set().union(*kinds_by_case.values())
    assert seen >= {
        "contact",
        "breach",
        "agreement_version",
        "checkin",
        "plan_version",
        "risk_assessment",
        "release",
        "disclosure",
        "case_status",
    }, seen
    case = Case.objects.get(pk=richest)
    client = login(case.primary_advocate)
    page = client.get(reverse("cases:timeline", args=[case.public_id]))
    assert page.status_code == 200
    assert page.content.count(b'class="timeline-entry') >= 10
