"""Emergency access: its review queue, its review, and its expiry on the record."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import services as cases
from caseflow.cases.models import BreakGlassGrant
from caseflow.oversight import services as oversight

T0 = dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def grant(cast):
    with time_machine.travel(T0, tick=False):
        return cases.break_glass_open(
            actor=cast.same_team, reference="CASE-2", reason="Duty line call"
        )


def test_queue_lists_the_grant_for_the_case_team_supervisor(cast, login, grant):
    response = login(cast.other_supervisor).get(reverse("audit:break_glass"))
    assert [g.pk for g in response.context["pending"]] == [grant.pk]
    assert "Duty line call" not in response.content.decode()  # the reason is on the review page
    assert login(cast.supervisor).get(reverse("audit:break_glass")).context["pending"] == []
    assert [g.pk for g in login(cast.auditor).get(reverse("audit:break_glass")).context["pending"]]


def test_review_marks_it_reviewed_with_a_comment(cast, login, grant):
    client = login(cast.other_supervisor)
    url = reverse("audit:break_glass_review", args=[grant.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Duty line call" in page.content.decode()
    response = client.post(url, {"comment": "Justified: advocate on leave."})
    assert response.status_code == 302
    grant = BreakGlassGrant.objects.select_related("case").get(pk=grant.pk)
    assert grant.reviewed_by == cast.other_supervisor and grant.reviewed_at is not None
    assert grant.review_comment == "Justified: advocate on leave."
    event = AuditEvent.objects.get(action="break_glass.review")
    assert event.case_id == grant.case_id and event.detail["fields"] == ["review_comment"]
    queue = client.get(reverse("audit:break_glass")).context
    assert queue["pending"] == [] and [g.pk for g in queue["done"]] == [grant.pk]


def test_a_review_needs_a_comment_and_is_never_overwritten(cast, login, grant):
    client = login(cast.other_supervisor)
    url = reverse("audit:break_glass_review", args=[grant.pk])
    response = client.post(url, {"comment": ""})
    assert response.status_code == 200 and response.context["form"].errors
    assert client.post(url, {"comment": "x" * 2001}).context["form"].errors
    assert not AuditEvent.objects.filter(action="break_glass.review").exists()
    client.post(url, {"comment": "First"})
    client.post(url, {"comment": "Second"})
    grant = BreakGlassGrant.objects.select_related("case").get(pk=grant.pk)
    assert grant.review_comment == "First"
    assert AuditEvent.objects.filter(action="break_glass.review").count() == 1


def test_nobody_reviews_their_own_emergency_access(cast, login):
    grant = cases.break_glass_open(actor=cast.supervisor, reference="CASE-2", reason="Cover")
    # The supervisor of team 1 opened a team 2 case: only team 2's supervisor reviews it.
    response = login(cast.supervisor).get(reverse("audit:break_glass_review", args=[grant.pk]))
    assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        oversight.break_glass_review(actor=cast.supervisor, grant=grant, comment="ok")


def test_auditor_sees_the_queue_without_reasons_and_cannot_review(cast, login, grant):
    client = login(cast.auditor)
    assert "Duty line call" not in client.get(reverse("audit:break_glass")).content.decode()
    response = client.get(reverse("audit:break_glass_review", args=[grant.pk]))
    assert response.status_code == 403
    assert "Duty line call" not in response.content.decode()


def test_expiry_is_recorded_once_after_the_grant_runs_out(cast, grant):
    minutes = settings.BREAK_GLASS_MINUTES
    with time_machine.travel(T0 + dt.timedelta(minutes=minutes - 1), tick=False):
        assert oversight.break_glass_expire_sweep() == 0
    with time_machine.travel(T0 + dt.timedelta(minutes=minutes + 1), tick=False):
        assert oversight.break_glass_expire_sweep() == 1
        assert oversight.break_glass_expire_sweep() == 0
    event = AuditEvent.objects.get(action="break_glass.expire")
    assert (event.case_id, event.object_id) == (grant.case_id, str(grant.pk))
    assert event.detail["user"] == cast.same_team.pk
    assert event.actor_id is None


def test_expiry_sweep_is_registered_with_beat():
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "caseflow.oversight.tasks.break_glass_expiry",
        "caseflow.oversight.tasks.unusual_access",
    } <= (tasks)


def test_the_task_calls_the_sweep(cast, grant):
    from caseflow.oversight.tasks import break_glass_expiry

    with time_machine.travel(T0 + dt.timedelta(days=1), tick=False):
        assert break_glass_expiry() == 1


def test_opening_emergency_access_is_recorded_with_its_reason_kept_out(cast, grant):
    event = AuditEvent.objects.get(action="break_glass.open")
    assert event.case_id == grant.case_id
    assert "Duty line call" not in str(event.detail)


def test_the_review_clears_the_request_to_review_for_every_supervisor(cast, grant):
    from caseflow.inbox.models import Notification

    asked = Notification.objects.filter(key=f"break_glass:{grant.pk}")
    assert asked.exists() and asked.filter(read_at__isnull=True).count() == asked.count()
    oversight.break_glass_review(
        actor=cast.other_supervisor, grant=grant, comment="Justified: duty call."
    )
    assert not asked.filter(read_at__isnull=True).exists()
