"""The demo shows the audit workspace in use."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.accounts.models import User
from caseflow.audit.heads import latest_shipped
from caseflow.audit.models import AuditEvent
from caseflow.audit.verify import verify_chain
from caseflow.cases.models import BreakGlassGrant
from caseflow.demo import seed
from caseflow.inbox.models import FollowUp


@pytest.mark.demo
def test_demo_populates_the_audit_workspace(db, login):
    seed.seed()
    grants = BreakGlassGrant.objects.all()
    assert grants.filter(reviewed_at__isnull=True).count() >= 1
    assert grants.filter(reviewed_at__isnull=False).count() >= 1
    readers = set(AuditEvent.objects.filter(action="case.view").values_list("actor_id", flat=True))
    assert len(readers) >= 5
    # The seed chains its events and ships a signed head; the log verifies against it.
    shipped = latest_shipped()
    assert shipped is not None and shipped.tree_size == AuditEvent.objects.count()
    assert verify_chain(shipped=shipped).ok
    client = login(User.objects.get(username="nadia.supervisor"))
    page = client.get(reverse("audit:events"))
    assert page.status_code == 200 and len(page.context["page"].events) == 50
    queue = client.get(reverse("audit:break_glass")).context
    assert queue["done"]
    # One review asked for follow-up: the crisis call is on the case, the follow-up on her list.
    followed = grants.get(review_outcome="follow_up")
    assert followed.notes_written.count() == 1
    nadia = User.objects.get(username="nadia.supervisor")
    assert FollowUp.objects.filter(
        case=followed.case, assignee=nadia, kind="break_glass_follow_up"
    ).exists()
    client = login(User.objects.get(username="sam.supervisor"))
    assert client.get(reverse("audit:break_glass")).context["pending"]
    client = login(User.objects.get(username="oli.auditor"))
    assert client.get(reverse("audit:events")).status_code == 200
