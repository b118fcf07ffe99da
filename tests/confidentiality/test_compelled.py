"""Compelled disclosure: the record of what was disclosed and the follow-ups it starts."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import SafeContactProfile
from caseflow.confidentiality.models import (
    CompelledOrder,
    ConfidentialityFollowUpKind,
    Disclosure,
    DisclosureKind,
)
from caseflow.inbox.models import FollowUp, Notification
from caseflow.safety.models import SafetyFollowUpKind

pytestmark = pytest.mark.django_db

# A Saturday: the cast's safe windows are Mon-Fri 10:00-12:00 Europe/London.
SATURDAY = dt.datetime(2026, 3, 7, 12, 0, tzinfo=dt.UTC)


def _data(**over):
    data = {
        "kind": "subpoena",
        "received_on": "2026-03-05",
        "issuer": "County Court ISSUER-X",
        "reference": "REF-SECRET-1",
        "demanded": "All notes DEMAND-X",
        "recipient": "County Court RECIPIENT-X",
        "categories": ["narratives", "risk"],
        "disclosed_on": "2026-03-06",
    }
    data.update(over)
    return data


@time_machine.travel(SATURDAY, tick=False)
def test_compelled_disclosure_creates_record_and_follow_ups(cast, login):
    client = login(cast.assigned)
    url = reverse("confidentiality:compelled_new", args=[cast.case.public_id])
    response = client.post(url, _data())
    assert response.status_code == 302
    order = CompelledOrder.objects.get(case=cast.case)
    order.case = cast.case
    assert order.issuer == "County Court ISSUER-X"
    disclosure = Disclosure.objects.get(order=order)
    disclosure.case = cast.case
    assert disclosure.kind == DisclosureKind.COMPELLED
    assert disclosure.categories == ["narratives", "risk"]
    assert disclosure.recipient == "County Court RECIPIENT-X"
    assert disclosure.disclosed_on == dt.date(2026, 3, 6)

    followups = FollowUp.objects.filter(case=cast.case)
    legal = followups.get(kind=ConfidentialityFollowUpKind.LEGAL_REVIEW)
    assert legal.assignee == cast.supervisor
    assert followups.filter(kind=SafetyFollowUpKind.PLAN_REVIEW).count() == 1
    tell = followups.get(source_key=f"compelled:{order.pk}:tell_survivor")
    # The next safe slot: Monday 10:00 in London (GMT in March before the change) = 10:00 UTC.
    assert tell.due_at == dt.datetime(2026, 3, 9, 10, 0, tzinfo=dt.UTC)
    assert Notification.objects.filter(recipient=cast.supervisor, kind="legal_review").exists()

    event = AuditEvent.objects.get(action="disclosure.compelled")
    assert event.detail["categories"] == ["narratives", "risk"]
    assert event.detail["disclosure"] == disclosure.pk
    for secret in ("ISSUER-X", "REF-SECRET-1", "DEMAND-X", "RECIPIENT-X"):
        assert secret not in str(event.detail)
    notification = Notification.objects.get(recipient=cast.supervisor, kind="legal_review")
    assert "ISSUER-X" not in notification.text


@time_machine.travel(SATURDAY, tick=False)
def test_without_a_safe_contact_profile_the_task_says_so(cast, login):
    SafeContactProfile.objects.filter(case=cast.case).delete()
    client = login(cast.assigned)
    client.post(reverse("confidentiality:compelled_new", args=[cast.case.public_id]), _data())
    tell = FollowUp.objects.get(source_key__endswith=":tell_survivor")
    tell.case = cast.case
    assert tell.due_at == SATURDAY
    assert "no safe-contact profile" in tell.details


@time_machine.travel(SATURDAY, tick=False)
@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"categories": []}, "Choose at least one category"),
        ({"disclosed_on": "2026-03-01"}, "cannot come before the order was received"),
        ({"received_on": "2027-01-01"}, "cannot be in the future"),
        ({"kind": "letter"}, "Select a valid choice"),
    ],
)
def test_bad_compelled_input_gets_a_form_error(cast, login, over, message):
    client = login(cast.assigned)
    url = reverse("confidentiality:compelled_new", args=[cast.case.public_id])
    response = client.post(url, _data(**over))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not CompelledOrder.objects.exists()
    assert not FollowUp.objects.exists()
