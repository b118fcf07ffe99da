"""Aggregate-only reports with small-cell suppression; per-agency intake field settings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, FieldSetting, Party, PartyRole, RiskLevel
from tests import factories as f
from tests.conftest import canary

pytestmark = pytest.mark.django_db

QUERY = {"period": "month", "start": "2025-01-01", "end": "2025-12-31"}


def _cases(team, n: int, day: dt.datetime, risk=RiskLevel.HIGH) -> None:
    for _ in range(n):
        f.open_case(team, opened_at=day, risk_level=risk)


@pytest.fixture
def counted(cast):
    _cases(cast.team1, 7, dt.datetime(2025, 1, 15, tzinfo=dt.UTC))
    _cases(cast.team1, 2, dt.datetime(2025, 2, 15, tzinfo=dt.UTC))
    _cases(cast.team2, 6, dt.datetime(2025, 2, 20, tzinfo=dt.UTC), RiskLevel.MEDIUM)
    _cases(cast.other_agency_team, 9, dt.datetime(2025, 2, 20, tzinfo=dt.UTC))
    return cast


def _rows(body: str) -> str:
    return " ".join(body.split())


def test_counts_by_period_with_small_cells_suppressed(counted, login):
    client = login(counted.auditor)
    response = client.get(reverse("confidentiality:reports"), QUERY)
    body = _rows(response.content.decode())
    assert "<td>2025-01</td><td>7</td>" in body
    # February: 2 + 6 in this agency; the other agency's 9 are never counted.
    assert "<td>2025-02</td><td>8</td>" in body
    assert "<td>9</td>" not in body and "<td>17</td>" not in body


def test_breakdown_suppresses_cells_under_the_threshold(counted, login, settings):
    settings.AGGREGATE_MIN_CELL = 5
    client = login(counted.supervisor)
    query = {**QUERY, "dimensions": ["team", "risk_level"]}
    body = _rows(client.get(reverse("confidentiality:reports"), query).content.decode())
    assert "<td>2025-01</td><td>Team 1</td><td>High</td><td>7</td>" in body
    assert "<td>2025-02</td><td>Team 1</td><td>High</td><td>*</td>" in body
    # February's total (8) is shown, so its 6 is hidden too: else 8 - 6 gives the 2 away.
    assert "<td>2025-02</td><td>All</td><td>All</td><td>8</td>" in body
    assert "<td>2025-02</td><td>Team 2</td><td>Medium</td><td>*</td>" in body
    assert "<td>All periods</td><td>All</td><td>All</td><td>15</td>" in body
    csv = client.get(reverse("confidentiality:report_csv"), query)
    assert csv["Content-Type"].startswith("text/csv")
    text = csv.content.decode()
    assert "2025-02,Team 1,High,*" in text
    assert "Month,Service (team),Risk band,Cases" in text
    assert ",2\r\n" not in text
    event = AuditEvent.objects.filter(action="report.aggregate").last()
    assert event.detail["dimensions"] == ["team", "risk_level"]


def test_quarters_and_threshold_setting(counted, login, settings):
    settings.AGGREGATE_MIN_CELL = 10
    client = login(counted.agency_admin)
    query = {**QUERY, "period": "quarter"}
    body = _rows(client.get(reverse("confidentiality:reports"), query).content.decode())
    assert "<td>2025 Q1</td><td>15</td>" in body
    query["dimensions"] = ["status"]
    body = _rows(client.get(reverse("confidentiality:reports"), query).content.decode())
    assert "<td>2025 Q1</td><td>Referral</td><td>15</td>" in body


def test_no_identifying_field_can_be_selected(counted, login):
    client = login(counted.auditor)
    query = {**QUERY, "dimensions": ["full_name"]}
    response = client.get(reverse("confidentiality:reports"), query)
    body = response.content.decode()
    assert "Select a valid choice" in body
    assert "Preview: exactly" not in body
    for case in (counted.case, counted.team2_case):
        assert canary(case) not in body
    csv = client.get(reverse("confidentiality:report_csv"), query)
    assert csv.status_code == 302


def test_advocates_cannot_run_reports(counted, login):
    client = login(counted.assigned)
    assert client.get(reverse("confidentiality:reports"), QUERY).status_code == 403


def test_hidden_intake_field_is_not_rendered_or_collected(cast, login):
    admin = login(cast.agency_admin)
    data = {
        "survivor_phone__hidden": "on",
        "summary__label": "Why they came to us",
        "other_date_of_birth__hidden": "on",
    }
    assert admin.post(reverse("confidentiality:fields"), data).status_code == 302
    assert FieldSetting.objects.filter(agency=cast.agency, hidden=True).count() == 2
    # Another agency keeps the default form.
    assert not FieldSetting.objects.exclude(agency=cast.agency).exists()

    client = login(cast.assigned)
    form = client.get(reverse("cases:new")).content.decode()
    assert 'name="survivor_phone"' not in form
    assert 'name="other_date_of_birth"' not in form
    assert 'name="survivor_email"' in form
    assert "Why they came to us" in form
    response = client.post(
        reverse("cases:new"),
        {
            "team": cast.team1.pk,
            "risk_level": "unknown",
            "survivor_full_name": "Hidden Field Test",
            "survivor_phone": "07700 900999",
            "other_full_name": "Other Person",
            "other_date_of_birth": "1980-01-01",
        },
    )
    assert response.status_code == 302
    case = Case.objects.order_by("-pk").first()
    survivor = Party.objects.get(case=case, role=PartyRole.SURVIVOR)
    assert survivor.phone == ""
    other = Party.objects.get(case=case, role=PartyRole.OTHER_PARTY)
    assert other.date_of_birth is None

    other_agency = login(cast.other_agency)
    assert 'name="survivor_phone"' in other_agency.get(reverse("cases:new")).content.decode()


def test_field_settings_only_for_agency_admins(cast, login):
    assert login(cast.supervisor).get(reverse("confidentiality:fields")).status_code == 403
    response = login(cast.agency_admin).post(
        reverse("confidentiality:fields"), {"summary__label": "x" * 81}
    )
    assert "at most 80 characters" in response.content.decode()
    assert not FieldSetting.objects.exists()
