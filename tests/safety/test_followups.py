"""The follow-up sweep: overdue plan reviews and protective orders about to expire."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings

from caseflow.cases.models import CaseStatus
from caseflow.inbox.models import FollowUp
from caseflow.safety import services, tasks
from tests.conftest import Cast

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC)


def plan(cast: Cast, case=None, actor=None, **content):
    with time_machine.travel(START, tick=False):
        return services.plan_save(
            actor=actor or cast.assigned,
            case=case or cast.case,
            expected_version=0,
            content=content,
        )


def at(day: dt.date):
    return time_machine.travel(dt.datetime.combine(day, dt.time(8), tzinfo=dt.UTC), tick=False)


def test_overdue_review_gets_one_follow_up_however_often_the_sweep_runs(cast: Cast):
    version = plan(cast)
    assert version.plan.review_by == dt.date(2026, 2, 4)
    with at(dt.date(2026, 2, 4)):
        assert services.safety_followups_sweep() == {"plan_review": 0, "order_expiry": 0}
    with at(dt.date(2026, 2, 5)):
        assert services.safety_followups_sweep()["plan_review"] == 1
        assert services.safety_followups_sweep()["plan_review"] == 0
    with at(dt.date(2026, 2, 9)):
        assert services.safety_followups_sweep()["plan_review"] == 0
    followup = FollowUp.objects.get(case=cast.case)
    assert followup.kind == "plan_review"
    assert followup.assignee == cast.assigned
    assert followup.due_at.date() == dt.date(2026, 2, 4)
    assert followup.source_key == f"plan:{version.plan.pk}:review:2026-02-04"


def test_a_reviewed_plan_is_not_overdue(cast: Cast):
    plan(cast)
    with at(dt.date(2026, 2, 1)):
        services.plan_mark_reviewed(actor=cast.assigned, case=cast.case)
    with at(dt.date(2026, 2, 20)):
        assert services.safety_followups_sweep()["plan_review"] == 0
    assert not FollowUp.objects.exists()


def test_orders_expiring_within_the_warning_period_get_a_follow_up(cast: Cast):
    orders = [
        {"court": "Family Court", "reference": "FC1", "expires": "2026-02-20"},
        {"court": "Magistrates", "reference": "M2", "expires": "2026-04-30"},
    ]
    version = plan(cast, protective_orders=orders)
    with at(dt.date(2026, 1, 10)):  # 41 days before the first expiry
        assert services.safety_followups_sweep()["order_expiry"] == 0
    with at(dt.date(2026, 1, 23)):  # 28 days before
        assert services.safety_followups_sweep()["order_expiry"] == 1
        assert services.safety_followups_sweep()["order_expiry"] == 0
    followup = FollowUp.objects.get(kind="order_expiry")
    assert followup.source_key == f"plan:{version.plan.pk}:order:2026-02-20"
    assert followup.details == ""  # the court and reference stay in the encrypted plan
    assert settings.ORDER_EXPIRY_WARNING_DAYS == 28


def test_the_warning_period_is_configurable(cast: Cast, settings):
    settings.ORDER_EXPIRY_WARNING_DAYS = 60
    plan(cast, protective_orders=[{"court": "Family Court", "expires": "2026-03-01"}])
    with at(dt.date(2026, 1, 10)):
        assert services.safety_followups_sweep()["order_expiry"] == 1


def test_expired_orders_and_closed_cases_are_left_alone(cast: Cast):
    plan(cast, protective_orders=[{"court": "Family Court", "expires": "2026-01-20"}])
    plan(
        cast,
        case=cast.team2_case,
        actor=cast.other_team,
        protective_orders=[{"court": "Family Court", "expires": "2026-02-20"}],
    )
    cast.team2_case.status = CaseStatus.CLOSED
    cast.team2_case.save()
    with at(dt.date(2026, 1, 25)):
        assert services.safety_followups_sweep() == {"plan_review": 0, "order_expiry": 0}
    with at(dt.date(2026, 3, 1)):
        assert services.safety_followups_sweep() == {"plan_review": 1, "order_expiry": 0}
    assert FollowUp.objects.get().case == cast.case


def test_the_beat_task_runs_the_sweep(cast: Cast):
    plan(cast)
    schedule = settings.CELERY_BEAT_SCHEDULE["safety-followups-sweep"]
    assert schedule["task"] == tasks.followups_sweep.name
    with at(dt.date(2026, 3, 1)):
        assert tasks.followups_sweep() == {"plan_review": 1, "order_expiry": 0}
        assert tasks.followups_sweep() == {"plan_review": 0, "order_expiry": 0}
