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
    response = client.post(url, {"outcome": "justified", "comment": "Advocate on leave."})
    assert response.status_code == 302
    grant = BreakGlassGrant.objects.select_related("case").get(pk=grant.pk)
    assert grant.reviewed_by == cast.other_supervisor and grant.reviewed_at is not None
    assert grant.review_comment == "Advocate on leave." and grant.review_outcome == "justified"
    event = AuditEvent.objects.get(action="break_glass.review")
    assert event.case_id == grant.case_id
    assert event.detail["outcome"] == "justified"
    assert event.detail["fields"] == ["review_outcome", "review_comment"]
    assert "Advocate on leave" not in str(event.detail)
    queue = client.get(reverse("audit:break_glass")).context
    assert queue["pending"] == [] and [g.pk for g in queue["done"]] == [grant.pk]


def test_a_review_needs_a_comment_unless_justified_and_is_never_overwritten(cast, login, grant):
    client = login(cast.other_supervisor)
    url = reverse("audit:break_glass_review", args=[grant.pk])
    # Not justified and needing follow-up are explained; a blank comment is no explanation.
    for outcome in ("not_justified", "follow_up"):
        for comment in ("", "   "):
            response = client.post(url, {"outcome": outcome, "comment": comment})
            assert response.status_code == 200
            assert "Say why, in a sentence or two." in response.context["form"].errors["comment"]
    assert client.post(url, {"outcome": "justified", "comment": "x" * 2001}).context["form"].errors
    # The outcome is asked for: without it, or with one that is not offered, nothing is saved.
    for outcome in ("", "fine"):
        response = client.post(url, {"outcome": outcome, "comment": "First"})
        assert response.status_code == 200 and "outcome" in response.context["form"].errors
    assert not AuditEvent.objects.filter(action="break_glass.review").exists()
    client.post(url, {"outcome": "not_justified", "comment": "First"})
    client.post(url, {"outcome": "justified", "comment": "Second"})
    grant = BreakGlassGrant.objects.select_related("case").get(pk=grant.pk)
    assert grant.review_comment == "First" and grant.review_outcome == "not_justified"
    assert AuditEvent.objects.filter(action="break_glass.review").count() == 1


def test_nobody_reviews_their_own_emergency_access(cast, login):
    grant = cases.break_glass_open(actor=cast.supervisor, reference="CASE-2", reason="Cover")
    # The supervisor of team 1 opened a team 2 case: only team 2's supervisor reviews it.
    response = login(cast.supervisor).get(reverse("audit:break_glass_review", args=[grant.pk]))
    assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        oversight.break_glass_review(
            actor=cast.supervisor, grant=grant, outcome="justified", comment="ok"
        )


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
        actor=cast.other_supervisor, grant=grant, outcome="justified", comment="Duty call."
    )
    assert not asked.filter(read_at__isnull=True).exists()


def test_the_outcome_is_shown_in_words_on_the_review_and_the_queue(cast, login, grant):
    oversight.break_glass_review(
        actor=cast.other_supervisor, grant=grant, outcome="follow_up", comment="Talk it over."
    )
    client = login(cast.other_supervisor)
    review = client.get(reverse("audit:break_glass_review", args=[grant.pk])).content.decode()
    assert "Needs follow-up" in review and "Talk it over." in review
    assert "follow_up" not in review
    queue = client.get(reverse("audit:break_glass")).content.decode()
    assert "Needs follow-up" in queue and "follow_up" not in queue


def test_an_unknown_outcome_is_refused_by_the_service(cast, grant):
    with pytest.raises(ValueError):
        oversight.break_glass_review(
            actor=cast.other_supervisor, grant=grant, outcome="fine", comment="x"
        )
    assert not BreakGlassGrant.objects.filter(pk=grant.pk, reviewed_at__isnull=False).exists()


def test_the_case_page_says_honestly_what_emergency_access_allows_and_until_when(
    cast, login, grant
):
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        page = login(cast.same_team).get(reverse("cases:detail", args=[grant.case.public_id]))
    body = page.content.decode()
    assert "read-only" not in body
    assert "You can read the case and record notes until" in body
    assert "your supervisor will review it" in body


def test_not_justified_is_raised_with_the_agency_admins_in_words_without_personal_data(
    cast, login, grant
):
    from django.utils import translation

    from caseflow.inbox.models import Notification

    raised = Notification.objects.filter(kind="break_glass_not_justified")
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        oversight.break_glass_review(
            actor=cast.other_supervisor,
            grant=grant,
            outcome="not_justified",
            comment="No reason to open it.",
        )
    assert set(raised.values_list("recipient_id", flat=True)) == {cast.agency_admin.pk}
    note = raised.get()
    assert note.case_id is None
    assert note.link == reverse("agency:staff_edit", args=[cast.same_team.pk])
    for personal in ("CASE-2", "Duty line", "No reason", cast.same_team.username):
        assert personal not in note.text
    # Delivered by the scheduler like every notification (a case-less one to an active admin).
    from caseflow.checkins.scheduler import notification_deliver

    assert notification_deliver(notification_id=note.pk) == "sent"
    page = login(cast.agency_admin).get(reverse("checkins:notifications")).content.decode()
    assert "reviewed by a supervisor as not justified" in page
    with translation.override("es"):
        assert note.words != note.text and "justificad" in note.words


def test_justified_or_follow_up_raises_nothing_with_the_admins(cast, grant):
    from caseflow.inbox.models import Notification

    oversight.break_glass_review(
        actor=cast.other_supervisor, grant=grant, outcome="follow_up", comment="Talk it over."
    )
    assert not Notification.objects.filter(kind="break_glass_not_justified").exists()


def test_justified_needs_no_comment(cast, login, grant):
    client = login(cast.other_supervisor)
    response = client.post(
        reverse("audit:break_glass_review", args=[grant.pk]), {"outcome": "justified"}
    )
    assert response.status_code == 302
    grant = BreakGlassGrant.objects.select_related("case").get(pk=grant.pk)
    assert (grant.review_outcome, grant.review_comment) == ("justified", "")
    assert grant.reviewed_by == cast.other_supervisor


def test_the_service_refuses_a_review_that_needs_a_comment_without_one(cast, grant):
    for outcome in ("not_justified", "follow_up"):
        with pytest.raises(ValueError):
            oversight.break_glass_review(
                actor=cast.other_supervisor, grant=grant, outcome=outcome, comment=" "
            )
    assert not BreakGlassGrant.objects.filter(pk=grant.pk, reviewed_at__isnull=False).exists()


def test_needs_follow_up_puts_a_follow_up_on_the_reviewers_list(cast, login, grant):
    from caseflow.inbox.models import FollowUp, FollowUpStatus

    client = login(cast.other_supervisor)
    reviewed_at = T0 + dt.timedelta(hours=3)
    with time_machine.travel(reviewed_at, tick=False):
        response = client.post(
            reverse("audit:break_glass_review", args=[grant.pk]),
            {"outcome": "follow_up", "comment": "Talk to her about the duty rota."},
            follow=True,
        )
    assert "A follow-up on the case is on your list." in response.content.decode()
    followup = FollowUp.objects.get(case=grant.case)
    assert followup.assignee == cast.other_supervisor
    assert followup.kind == "break_glass_follow_up"
    assert followup.status == FollowUpStatus.OPEN
    assert followup.due_at == reviewed_at + dt.timedelta(days=oversight.FOLLOW_UP_DAYS)
    assert followup.details == "Talk to her about the duty rota."
    # Recorded by code: the outcome and the follow-up's kind, never the comment.
    review = AuditEvent.objects.get(action="break_glass.review")
    assert review.detail["outcome"] == "follow_up"
    created = AuditEvent.objects.get(action="followup.create")
    assert created.detail == {"kind": "break_glass_follow_up", "source": "break_glass"}
    events = AuditEvent.objects.filter(action__in=["break_glass.review", "followup.create"])
    assert events.count() == 2
    for event in events:
        assert "duty rota" not in str(event.detail)
    # The supervisor finds it among their own follow-ups, in words.
    with time_machine.travel(reviewed_at + dt.timedelta(hours=1), tick=False):
        home = client.get(reverse("checkins:home")).content.decode()
    assert "Emergency access follow-up" in home and "break_glass_follow_up" not in home


def test_justified_and_not_justified_add_no_follow_up(cast, grant):
    from caseflow.inbox.models import FollowUp

    oversight.break_glass_review(
        actor=cast.other_supervisor, grant=grant, outcome="justified", comment=""
    )
    second = cases.break_glass_open(actor=cast.same_team, reference="CASE-2", reason="Again")
    oversight.break_glass_review(
        actor=cast.other_supervisor, grant=second, outcome="not_justified", comment="No need."
    )
    assert not FollowUp.objects.exists()
