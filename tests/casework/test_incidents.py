"""Incidents: recording, what makes one serious, and the escalation of a serious one (a risk
re-assessment for the advocate; the supervisors told once on a high-risk case)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import RiskLevel
from caseflow.casework import services, tasks
from caseflow.casework.models import CaseworkFollowUpKind, Incident
from caseflow.inbox.models import FollowUp, Notification
from caseflow.outbox.models import Intent
from tests.casework.helpers import make_incident

pytestmark = pytest.mark.django_db


def _high_risk(case):
    case.risk_level = RiskLevel.HIGH
    case.save(update_fields=["risk_level"])
    return case


def test_recording_an_incident_through_the_form(cast, login):
    client = login(cast.assigned)
    url = reverse("casework:incident_new", args=[cast.case.public_id])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "kinds": ["coercive", "economic"],
            "occurred_on": "2025-03-02",
            "date_confirmed": "2025-03-02",
            "approximate": "on",
            "when_described": "early March",
            "place": "At home",
            "person": "other_party",
            "what_happened": "Took her bank card.",
            "police": "yes",
            "police_reference": "PR-77",
            "witnesses": "Her sister",
        },
    )
    assert response.status_code == 302
    incident = Incident.objects.get()
    incident.case = cast.case
    assert incident.kinds == ["coercive", "economic"]
    assert incident.approximate and incident.when_described == "early March"
    assert (incident.police, incident.police_reference, incident.serious) == ("yes", "PR-77", False)
    event = AuditEvent.objects.get(action="incident.create")
    assert event.detail["kinds"] == ["coercive", "economic"]
    assert "bank" not in str(event.detail)
    page = client.get(response["Location"]).content.decode()
    assert "Took her bank card." in page and "early March" in page and "PR-77" in page
    assert AuditEvent.objects.filter(action="incident.view").exists()


def test_a_police_reference_without_police_and_a_missing_description_are_form_errors(cast, login):
    response = login(cast.assigned).post(
        reverse("casework:incident_new", args=[cast.case.public_id]),
        {
            "kinds": ["threats"],
            "occurred_on": "2025-03-02",
            "approximate": "on",
            "person": "other_party",
            "what_happened": "Threatened her.",
            "police": "no",
            "police_reference": "PR-1",
        },
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Say when, as the survivor put it." in body
    assert "if the police were involved" in body
    assert not Incident.objects.exists()


@pytest.mark.parametrize(
    ("kinds", "injuries", "marked", "serious"),
    [
        (["economic"], "", False, False),
        (["physical"], "", False, True),
        (["threats", "economic"], "", False, True),
        (["coercive"], "Bruised arm", False, True),
        (["court_order"], "", True, True),
        (["court_order"], "  ", False, False),
    ],
)
def test_what_makes_an_incident_serious(kinds, injuries, marked, serious):
    assert services.is_serious(kinds=kinds, injuries=injuries, marked=marked) is serious


def test_only_a_serious_incident_is_escalated_and_only_ids_go_to_the_task(
    cast, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks():
        make_incident(cast.case, cast.assigned, kinds=["economic"])
    assert not Intent.objects.exists()
    with django_capture_on_commit_callbacks():
        incident = make_incident(cast.case, cast.assigned, kinds=["physical"])
    intent = Intent.objects.get()
    assert (intent.task, intent.kwargs) == (
        tasks.escalate_incident.name,
        {"incident_id": incident.pk},
    )


def test_a_serious_incident_proposes_a_risk_reassessment_but_tells_no_supervisor_below_high(
    cast,
):
    incident = make_incident(cast.case, cast.assigned, kinds=["physical"])
    assert services.incident_escalate(incident_id=incident.pk) is False
    followup = FollowUp.objects.get(source_key=f"incident:{incident.pk}:risk")
    assert followup.kind == CaseworkFollowUpKind.INCIDENT_RISK_REVIEW
    assert followup.assignee == cast.case.primary_advocate
    assert not Notification.objects.filter(kind="incident_escalation").exists()
    assert not AuditEvent.objects.filter(action="incident.escalation").exists()


def test_on_a_high_risk_case_the_supervisors_are_told_once_however_often_it_runs(cast):
    _high_risk(cast.case)
    incident = make_incident(cast.case, cast.assigned, kinds=["sexual"])
    assert services.incident_escalate(incident_id=incident.pk) is True
    tasks.escalate_incident(incident_id=incident.pk)  # a retry
    assert services.incident_escalate(incident_id=incident.pk) is False
    told = Notification.objects.filter(kind="incident_escalation")
    assert [n.recipient for n in told] == [cast.supervisor]
    text = told.get().text
    assert text == "Case CASE-1: a serious incident was recorded on a high-risk case."
    assert FollowUp.objects.filter(source_key=f"incident:{incident.pk}:risk").count() == 1
    assert AuditEvent.objects.filter(action="incident.escalation").count() == 1
    incident.refresh_from_db()
    assert incident.supervisors_told_at is not None


def test_a_missing_or_not_serious_incident_is_a_no_op(cast):
    assert services.incident_escalate(incident_id=999_999) is False
    incident = make_incident(cast.case, cast.assigned, kinds=["economic"])
    assert services.incident_escalate(incident_id=incident.pk) is False
    assert not FollowUp.objects.filter(source_key__startswith="incident:").exists()
