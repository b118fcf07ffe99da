"""The demo shows check-ins in use: today, overdue, upcoming, recurring, outcomes, follow-ups,
notifications."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.accounts.models import User
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.demo import seed
from caseflow.inbox.models import FollowUp, Notification

pytestmark = pytest.mark.django_db


def test_demo_populates_check_ins(login):
    seed.seed()
    assert CheckIn.objects.filter(status=CheckInStatus.SCHEDULED, schedule__isnull=False).exists()
    assert CheckIn.objects.filter(status=CheckInStatus.MISSED).exists()
    assert CheckIn.objects.filter(status=CheckInStatus.DONE, outcome="not_safe").exists()
    assert FollowUp.objects.filter(created_by__isnull=False).count() >= 4
    assert Notification.objects.filter(kind="checkin_missed", sent_at__isnull=False).exists()
    advocate = User.objects.get(username="aisha.advocate")
    response = login(advocate).get(reverse("checkins:home"))
    ctx = response.context
    assert ctx["overdue"] and (ctx["today"] or ctx["upcoming"]) and ctx["followups"]
    assert Notification.objects.filter(recipient=advocate, sent_at__isnull=False).exists()
