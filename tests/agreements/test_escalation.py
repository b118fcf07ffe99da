"""Escalation: a breach at or above a severity, or N breaches within D days, asks for a risk
re-assessment once per rule firing, however often the evaluation runs."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import transaction

from caseflow.agreements import services, tasks
from caseflow.agreements.models import AgencyEscalationRule, EscalationFiring
from caseflow.celery import app as celery_app
from caseflow.inbox.models import FollowUp, Notification
from caseflow.outbox.models import Intent
from tests.agreements.helpers import london, make_agreement, record_breach

NOW = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)
pytestmark = pytest.mark.usefixtures("no_enqueue")


@pytest.fixture
def no_enqueue(monkeypatch):
    """Breach tests run the task function directly; nothing goes to a broker."""
    sent = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, kwargs, **options: sent.append((name, kwargs))
    )
    return sent


@time_machine.travel(NOW, tick=False)
def test_a_severe_breach_escalates_once_even_when_the_task_runs_twice(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    breach = record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0), severity="high")
    tasks.escalate_breach(breach.pk)
    tasks.escalate_breach(breach.pk)
    followups = FollowUp.objects.filter(case=cast.case, kind="breach_escalation")
    assert followups.count() == 1
    notes = Notification.objects.filter(kind="breach_escalation", case=cast.case)
    assert [n.recipient for n in notes] == [cast.supervisor]
    assert cast.case.reference in notes.get().text
    assert EscalationFiring.objects.get().rule == "severity"


@time_machine.travel(NOW, tick=False)
def test_a_low_breach_does_not_escalate(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    breach = record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0), severity="low")
    tasks.escalate_breach(breach.pk)
    assert not FollowUp.objects.exists()
    assert not Notification.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_n_breaches_within_d_days_fire_once(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    days = (2, 10, 20, 24)
    breaches = [
        record_breach(agreement, cast.assigned, london(2025, 2, day, 22, 0), severity="low")
        for day in days
    ]
    for breach in breaches:
        tasks.escalate_breach(breach.pk)
        tasks.escalate_breach(breach.pk)
    firings = EscalationFiring.objects.all()
    assert [(f.rule, f.breach_id) for f in firings] == [("frequency", breaches[2].pk)]
    assert FollowUp.objects.filter(kind="breach_escalation").count() == 1
    assert Notification.objects.filter(kind="breach_escalation").count() == 1


@time_machine.travel(NOW, tick=False)
def test_breaches_spread_wider_than_the_period_do_not_fire(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    for day in (dt.date(2025, 1, 7), dt.date(2025, 1, 28), dt.date(2025, 2, 20)):
        breach = record_breach(
            agreement, cast.assigned, london(day.year, day.month, day.day, 22, 0), severity="low"
        )
        tasks.escalate_breach(breach.pk)
    assert not EscalationFiring.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_the_agency_rule_overrides_the_defaults(cast):
    AgencyEscalationRule.objects.create(
        agency=cast.agency, severity_threshold="critical", count_threshold=2, window_days=7
    )
    agreement = make_agreement(cast.case, cast.assigned)
    high = record_breach(agreement, cast.assigned, london(2025, 2, 10, 22, 0), severity="high")
    tasks.escalate_breach(high.pk)
    assert not EscalationFiring.objects.exists()
    second = record_breach(agreement, cast.assigned, london(2025, 2, 14, 22, 0), severity="low")
    tasks.escalate_breach(second.pk)
    assert EscalationFiring.objects.get().rule == "frequency"


def test_a_missing_breach_is_a_no_op(db):
    assert services.breach_escalate(breach_id=999_999) == []


@time_machine.travel(NOW, tick=False)
def test_saving_a_breach_enqueues_the_task_with_the_id_only(
    cast, django_capture_on_commit_callbacks, no_enqueue
):
    agreement = make_agreement(cast.case, cast.assigned)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        breach = record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0))
    # The escalation only: the agency has no webhook subscription, so no event is fanned out.
    assert len(callbacks) == 1
    intent = Intent.objects.get()
    assert (intent.task, intent.kwargs) == (tasks.escalate_breach.name, {"breach_id": breach.pk})
    assert (intent.task, {"breach_id": breach.pk, "intent_id": intent.pk}) in no_enqueue


@time_machine.travel(NOW, tick=False)
def test_a_breach_is_an_event_for_an_agency_subscribed_to_breaches(
    cast, django_capture_on_commit_callbacks, no_enqueue
):
    from caseflow.api.services import webhook_subscribe
    from caseflow.outbox.events import EventKind

    webhook_subscribe(
        actor=cast.agency_admin,
        url="https://hooks.example.org/caseflow",
        kinds=[EventKind.BREACH_RECORDED],
    )
    agreement = make_agreement(cast.case, cast.assigned)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0))
    # The escalation, and the event for the agency's webhooks (ids only too).
    assert len(callbacks) == 2
    event = Intent.objects.get(task="caseflow.api.tasks.webhook_fanout")
    assert set(event.kwargs) == {"kind", "agency_id", "case", "at"}
    assert event.kwargs["case"] == cast.case.public_id


@time_machine.travel(NOW, tick=False)
def test_a_rolled_back_breach_enqueues_nothing(
    cast, django_capture_on_commit_callbacks, no_enqueue
):
    agreement = make_agreement(cast.case, cast.assigned)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0))
        raise RuntimeError("something later failed")
    assert callbacks == []
    assert no_enqueue == []
    assert not Intent.objects.exists()
