"""The demo shows the duty line in use: months of calls, anonymous ones among them, some that
became cases or went on existing ones."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.accounts.models import User
from caseflow.audit.models import AuditEvent
from caseflow.calls.models import Call
from caseflow.demo import seed

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 10, 12, 0, tzinfo=dt.UTC)


@pytest.mark.demo
def test_demo_shows_the_duty_line(login):
    with time_machine.travel(NOW, tick=False):
        seed.seed()
        calls = Call.objects.all()
        assert calls.count() >= 150
        assert calls.filter(caller_kind="anonymous").count() >= calls.count() // 4
        oldest = calls.order_by("taken_at").first()
        assert oldest is not None and oldest.taken_at <= NOW - dt.timedelta(days=80)
        assert len({c.agency_id for c in calls}) == 2
        opened = AuditEvent.objects.filter(action="call.open_case").count()
        attached = AuditEvent.objects.filter(action="call.attach").count()
        assert (opened, attached) == (3, 2)
        assert calls.filter(case__isnull=False).count() == 5
        advocate = User.objects.get(username="aisha.advocate")
        page = login(advocate).get(reverse("calls:list"))
        assert page.status_code == 200
        assert sum(d.total for d in page.context["days"]) > 0
