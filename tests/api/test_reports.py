"""The funder reports' aggregate figures through the API: the page's periods only, suppressed
exactly as on the page, recorded like a generation on the page."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.lib.suppression import Told, Unchecked
from caseflow.reporting import reports

#: A day after the quarter the cast's cases were opened in (10 March 2026) was given out.
LATER = dt.datetime(2026, 7, 15, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(LATER, tick=False)
def test_the_list_names_each_report_and_its_fixed_periods(cast, make_caller):
    response = make_caller([policy.SCOPE_REPORTS]).get(reverse("api:reports"))
    assert response.status_code == 200
    listed = {row["report"]: row for row in response.json()}
    assert set(listed) == set(reports.REPORTS)
    assert listed["voca"]["periods"], "at least one period"


@time_machine.travel(LATER, tick=False)
def test_figures_are_suppressed_exactly_as_on_the_page(cast, make_caller):
    caller = make_caller([policy.SCOPE_REPORTS])
    listed = {r["report"]: r for r in caller.get(reverse("api:reports")).json()}
    periods = reports.periods("federal_quarter", timezone.localdate(), dt.date(2026, 3, 10))
    assert [p["start"] for p in listed["voca"]["periods"]] == [p.start.isoformat() for p in periods]
    period = periods[0]
    response = caller.get(reverse("api:report", args=["voca", period.start.isoformat()]))
    assert response.status_code == 200, response.content
    body = response.json()
    page = reports.release("voca", cast.agency.pk, period)
    expected = [
        [[c.text for c in cells] for _label, cells in page.table(section)]
        for section in page.sections
    ]
    got = [[[c["text"] for c in row["cells"]] for row in s["rows"]] for s in body["sections"]]
    assert got == expected
    assert any(row for section in got for row in section), "the report has rows"
    hidden = [
        c for s in body["sections"] for r in s["rows"] for c in r["cells"] if c["text"] == "*"
    ]
    assert all(c["value"] is None for c in hidden)
    event = AuditEvent.objects.get(action="report.funder")
    assert event.actor_id == caller.integration.account_id
    assert event.detail["format"] == "api"


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        (Unchecked("no answer"), "Ask for it again in a few minutes"),
        (Told("1 small counts could be worked out"), "whatever else was hidden"),
    ],
)
@time_machine.travel(LATER, tick=False)
def test_a_release_that_cannot_be_checked_or_would_tell_gives_nothing_out(
    cast, make_caller, fault, says, caplog
):
    caller = make_caller([policy.SCOPE_REPORTS])
    period = reports.periods("federal_quarter", timezone.localdate(), dt.date(2026, 3, 10))[0]
    with mock.patch.object(reports, "release", side_effect=fault):
        response = caller.get(reverse("api:report", args=["voca", period.start.isoformat()]))
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert says in body["detail"] and "sections" not in body
    assert "small counts could be worked out" not in body["detail"]  # the log's words only
    assert not AuditEvent.objects.filter(action="report.funder").exists()
    # Logged for the agency's IT with the report's name only.
    assert [r.getMessage() for r in caplog.records if r.name == "caseflow.api.endpoints"] == [
        f"report voca not given out by the API: {fault}"
    ]


def test_a_period_not_given_out_is_404_and_nothing_is_recorded(cast, make_caller):
    caller = make_caller([policy.SCOPE_REPORTS])
    for slug, start in (("voca", "2026-01-02"), ("nonesuch", "2025-10-01"), ("voca", "soon")):
        response = caller.get(reverse("api:report", args=[slug, start]))
        assert response.status_code == 404, (slug, start)
        assert response["Content-Type"] == "application/problem+json"
    assert not AuditEvent.objects.filter(action="report.funder").exists()


def test_without_the_scope_403(cast, make_caller):
    caller = make_caller([policy.SCOPE_CASES_SUMMARY])
    assert caller.get(reverse("api:reports")).status_code == 403
    assert caller.get(reverse("api:report", args=["voca", "2025-10-01"])).status_code == 403
