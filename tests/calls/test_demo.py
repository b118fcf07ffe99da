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


@pytest.mark.demo
def test_a_slow_seed_logs_every_call_of_its_three_months(monkeypatch):
    """The seed reads the clock once at its start and takes minutes; the calls service reads it
    at every call. A call the seed dated just inside the oldest a call may be logged is outside
    by the time the service sees it, and must not stop the demo."""
    from types import SimpleNamespace

    from django.utils import timezone

    from caseflow.calls import services

    later = NOW + dt.timedelta(hours=18)
    clock = SimpleNamespace(now=lambda: later, localdate=timezone.localdate)
    monkeypatch.setattr(services, "timezone", clock)
    # The limit moved to a month, among the demo's daily calls, so the days where the two clocks
    # disagree certainly hold calls.
    monkeypatch.setattr(services, "OLDEST", dt.timedelta(days=30))
    with time_machine.travel(NOW, tick=False):
        seed.seed()
    calls = Call.objects.all()
    assert calls.count() >= 150
    # Calls were dated where the two clocks disagree: inside the oldest by the seed's, outside
    # by the service's.
    assert calls.filter(taken_at__range=(NOW - services.OLDEST, later - services.OLDEST)).exists()
