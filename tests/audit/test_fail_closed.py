"""If the audit event cannot be written, the request fails and nothing it did is kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case
from tests.conftest import canary


@pytest.fixture
def broken_audit(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(AuditEvent, "save", refuse)


def test_a_read_that_cannot_be_audited_shows_nothing(cast, login, broken_audit):
    client = login(cast.assigned)
    client.raise_request_exception = False
    response = client.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert response.status_code == 500
    body = response.content.decode()
    assert canary(cast.case) not in body
    assert cast.case.reference not in body
    assert "Survivor" not in body


def test_a_write_that_cannot_be_audited_commits_nothing(cast, login, monkeypatch):
    client = login(cast.assigned)
    client.raise_request_exception = False
    before = AuditEvent.objects.count()
    version = Case.objects.get(pk=cast.case.pk).version

    def refuse(self, *args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(AuditEvent, "save", refuse)
    response = client.post(
        reverse("cases:edit", args=[cast.case.public_id]),
        {
            "reference": "CHANGED-1",
            "risk_level": "high",
            "summary": "new words",
            "version": version,
        },
    )
    monkeypatch.undo()
    assert response.status_code == 500
    assert canary(cast.case) not in response.content.decode()
    case = Case.objects.get(pk=cast.case.pk)
    assert (case.reference, case.version) == ("CASE-1", version)
    assert canary(cast.case) in case.summary
    assert AuditEvent.objects.count() == before


def test_the_same_write_succeeds_when_the_audit_can_be_written(cast, login):
    client = login(cast.assigned)
    version = Case.objects.get(pk=cast.case.pk).version
    response = client.post(
        reverse("cases:edit", args=[cast.case.public_id]),
        {"reference": "CHANGED-1", "risk_level": "high", "summary": "new", "version": version},
    )
    assert response.status_code == 302
    assert Case.objects.get(pk=cast.case.pk).reference == "CHANGED-1"
