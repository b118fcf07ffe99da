"""No audit event, log line or exception message carries a sensitive field's value."""

from __future__ import annotations

import json
import logging

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import BreakGlassGrant, Case
from caseflow.checkins import services as checkin_services
from tests.conftest import canary

SECRET = "SENSITIVE7731Q"


def _everything_recorded() -> str:
    rows = AuditEvent.objects.order_by("seq").values()
    return json.dumps(list(rows), default=str)


def test_no_sensitive_value_reaches_the_audit_trail_logs_or_exceptions(
    cast, login, caplog, monkeypatch
):
    caplog.set_level(logging.DEBUG)
    case = cast.case
    client = login(cast.assigned)
    version = Case.objects.get(pk=case.pk).version
    client.post(
        reverse("cases:edit", args=[case.public_id]),
        {"reference": "CASE-1", "risk_level": "high", "summary": f"s {SECRET}", "version": version},
    )
    party = case.parties.first()
    client.post(
        reverse("cases:party_edit", args=[case.public_id, party.public_id]),
        {
            "role": party.role,
            "full_name": f"Name {SECRET}",
            "date_of_birth": "1990-01-01",
            "address": f"1 {SECRET} Street",
            "phone": "07700 900123",
            "email": "",
            "notes": f"notes {SECRET}",
        },
    )
    checkin_services.safe_contact_save(
        actor=cast.assigned,
        case=case,
        expected_version=None,
        timezone_name="Europe/London",
        rules={"channels": ["text"], "windows": [], "voicemail_safe": False},
        details={"safe_phone": "", "safe_email": "", "third_party": "", "code_word": SECRET},
    )
    login(cast.other_team).post(
        reverse("cases:break_glass"), {"reference": "CASE-1", "reason": f"because {SECRET} now"}
    )
    grant = BreakGlassGrant.objects.get(user=cast.other_team)
    login(cast.supervisor).post(
        reverse("audit:break_glass_review", args=[grant.pk]),
        {"outcome": "justified", "comment": f"ok {SECRET}"},
    )
    login(None).post(reverse("accounts:login"), {"username": SECRET, "password": SECRET})
    login(cast.supervisor).get(reverse("audit:events"), {"case": SECRET, "action": "case.view"})
    login(cast.auditor).get(reverse("audit:export"), {"case": SECRET})
    # Denied looks at other cases.
    client = login(cast.same_team)
    client.get(reverse("cases:detail", args=[cast.restricted_case.public_id]))
    client.get(reverse("audit:case", args=[cast.team2_case.public_id]))

    # And a request whose audit write fails.
    def refuse(self, *args, **kwargs):
        raise RuntimeError("insert refused")

    monkeypatch.setattr(AuditEvent, "save", refuse)
    client = login(cast.assigned)
    with pytest.raises(Exception) as info:
        client.get(reverse("cases:detail", args=[case.public_id]))
    monkeypatch.undo()
    messages = []
    exc: BaseException | None = info.value
    while exc is not None:
        messages.append(f"{type(exc).__name__}: {exc}")
        exc = exc.__cause__ or exc.__context__

    assert Case.objects.get(pk=case.pk).summary == f"s {SECRET}"  # the edits did happen
    assert BreakGlassGrant.objects.select_related("case").get(pk=grant.pk).reviewed_at
    marks = [SECRET, *(canary(c) for c in (case, cast.restricted_case, cast.team2_case))]
    recorded = _everything_recorded()
    assert AuditEvent.objects.filter(action="party.update").exists()
    for mark in marks:
        assert mark not in recorded
        assert mark not in caplog.text
        assert all(mark not in m for m in messages)
