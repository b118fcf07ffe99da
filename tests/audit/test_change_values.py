"""The change history shows before/after values to those who may read the case, and only the
field names to everyone else; the values are stored encrypted with the case key."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import CaseChange

pytestmark = pytest.mark.django_db


def _edit_summary(client, case, text):
    case.refresh_from_db()
    return client.post(
        reverse("cases:edit", args=[case.public_id]),
        {
            "reference": case.reference,
            "risk_level": case.risk_level,
            "summary": text,
            "version": case.version,
        },
    )


def test_values_are_shown_to_caseworkers_and_hidden_from_auditors(cast, login):
    client = login(cast.assigned)
    assert _edit_summary(client, cast.case, "Moved to a refuge ZEBRA").status_code == 302
    timeline = reverse("audit:case", args=[cast.case.public_id])

    body = login(cast.assigned).get(timeline).content.decode()
    assert "Moved to a refuge ZEBRA" in body
    assert f"summary CANARY{cast.case.pk}X" in body  # the value before the change

    auditor = login(cast.auditor).get(timeline)
    assert auditor.status_code == 200
    text = auditor.content.decode()
    assert "summary" in text
    assert "ZEBRA" not in text and "CANARY" not in text
    shown = AuditEvent.objects.filter(action="audit.case.view", case_id=cast.case.pk)
    assert [e.detail["values"] for e in shown.order_by("seq")] == [True, False]


def test_values_are_encrypted_and_the_event_holds_names_only(cast, login):
    _edit_summary(login(cast.assigned), cast.case, "Secret new plan ZEBRA")
    change = CaseChange.objects.get(case=cast.case)
    event = AuditEvent.objects.get(seq=change.audit_seq)
    assert event.action == "case.update"
    assert event.detail == {"fields": ["summary"]}
    with connection.cursor() as cur:
        cur.execute("SELECT changes FROM cases_casechange WHERE id = %s", [change.pk])
        stored = cur.fetchone()[0]
    assert "ZEBRA" not in stored
    assert change.changes[0][0] == "summary"
    assert change.changes[0][2] == "Secret new plan ZEBRA"


def test_party_and_profile_changes_keep_their_values(cast, login):
    client = login(cast.assigned)
    party = cast.case.parties.get(role="other_party")
    client.post(
        reverse("cases:party_edit", args=[cast.case.public_id, party.public_id]),
        {"role": "other_party", "full_name": "Renamed Person"},
    )
    change = CaseChange.objects.filter(case=cast.case).first()
    assert ["full_name", f"Other CANARY{cast.case.pk}X", "Renamed Person"] in change.changes


def test_a_narratives_purge_removes_old_values():
    from caseflow.confidentiality.narratives import evidence_models

    assert CaseChange in evidence_models()
