"""The event "high-risk case without a plan": a case whose risk became high and that has had no
safety plan for the grace period is told to the agency's subscribed systems once per
occurrence, by a sweep, with nothing personal in the body."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from caseflow.api import services
from caseflow.api.models import HighRiskNotice
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseStatus, RiskLevel, RiskLevelChange, RiskSource
from caseflow.outbox import events
from caseflow.outbox.events import EventKind
from caseflow.outbox.models import Intent
from caseflow.safety.models import SafetyPlan
from tests.api.conftest import NOW
from tests.api.test_webhooks import receivers, run_intents, subscribe  # noqa: F401
from tests.conftest import canary

KIND = EventKind.HIGH_RISK_WITHOUT_PLAN
HOUR = dt.timedelta(hours=1)


def set_risk(case: Case, level: str, at: dt.datetime) -> None:
    """The case's risk changes at ``at`` (as an assessment or a change by hand records it)."""
    previous = case.risk_level
    RiskLevelChange.objects.create(
        case=case, level=level, previous=previous, source=RiskSource.OVERRIDE, at=at
    )
    Case.objects.filter(pk=case.pk).update(risk_level=level)
    case.refresh_from_db()


def published() -> list[str]:
    """The cases a fan-out of this kind was queued for, in order."""
    return [
        i.kwargs["case"]
        for i in Intent.objects.filter(task=events.FANOUT_TASK).order_by("pk")
        if i.kwargs["kind"] == KIND
    ]


@pytest.fixture
def listening(cast, receivers):  # noqa: F811
    receiver = receivers()
    _subscription, secret = subscribe(cast, receiver.url, kinds=[KIND])
    return receiver, secret


def test_the_event_comes_once_after_the_grace_period_with_nothing_personal(cast, listening):
    receiver, _secret = listening
    set_risk(cast.case, RiskLevel.HIGH, NOW - 23 * HOUR)
    assert services.high_risk_sweep(now=NOW) == 0
    assert published() == []

    assert services.high_risk_sweep(now=NOW + 2 * HOUR) == 1
    assert published() == [cast.case.public_id]
    # However often the sweep runs, the occurrence is told once.
    assert services.high_risk_sweep(now=NOW + 3 * HOUR) == 0
    assert services.high_risk_sweep(now=NOW + 48 * HOUR) == 0
    assert published() == [cast.case.public_id]
    assert HighRiskNotice.objects.get().since == NOW - 23 * HOUR
    assert AuditEvent.objects.get(action="api.high_risk_without_plan").detail == {
        "cases": [cast.case.pk]
    }

    assert run_intents("caseflow.api.tasks.webhook_fanout") == 1
    assert run_intents("caseflow.api.tasks.deliver_webhook") == 1
    assert len(receiver.received) == 1
    body = receiver.received[0][1]
    assert json.loads(body) == {
        "kind": "case.high_risk_without_plan",
        "occurred_at": NOW.isoformat().replace("+00:00", "Z"),
        "id": cast.case.public_id,
    }
    text = body.decode()
    for personal in (cast.case.reference, canary(cast.case), "high risk"):
        assert personal not in text


def test_a_case_with_a_plan_is_not_told(cast, listening):
    set_risk(cast.case, RiskLevel.HIGH, NOW - 30 * HOUR)
    SafetyPlan.objects.create(case=cast.case, version=1)
    assert services.high_risk_sweep(now=NOW) == 0
    assert published() == []


def test_an_empty_plan_is_no_plan(cast, listening):
    """A plan row with no saved version yet (version 0) is not a plan."""
    set_risk(cast.case, RiskLevel.HIGH, NOW - 30 * HOUR)
    SafetyPlan.objects.create(case=cast.case, version=0)
    assert services.high_risk_sweep(now=NOW) == 1
    assert published() == [cast.case.public_id]


def test_a_closed_case_or_one_not_at_high_risk_is_not_told(cast, listening):
    set_risk(cast.case, RiskLevel.MEDIUM, NOW - 30 * HOUR)
    set_risk(cast.team2_case, RiskLevel.HIGH, NOW - 30 * HOUR)
    Case.objects.filter(pk=cast.team2_case.pk).update(status=CaseStatus.CLOSED)
    assert services.high_risk_sweep(now=NOW) == 0
    assert published() == []


def test_it_is_told_again_when_the_risk_becomes_high_again(cast, listening):
    set_risk(cast.case, RiskLevel.HIGH, NOW - 30 * HOUR)
    assert services.high_risk_sweep(now=NOW) == 1
    # A new assessment at high is the same occurrence.
    set_risk(cast.case, RiskLevel.HIGH, NOW + 1 * HOUR)
    assert services.high_risk_sweep(now=NOW + 30 * HOUR) == 0
    # The risk falls, then becomes high again, still without a plan: a new occurrence.
    set_risk(cast.case, RiskLevel.MEDIUM, NOW + 31 * HOUR)
    assert services.high_risk_sweep(now=NOW + 40 * HOUR) == 0
    set_risk(cast.case, RiskLevel.HIGH, NOW + 50 * HOUR)
    assert services.high_risk_sweep(now=NOW + 60 * HOUR) == 0
    assert services.high_risk_sweep(now=NOW + 75 * HOUR) == 1
    assert published() == [cast.case.public_id, cast.case.public_id]
    assert HighRiskNotice.objects.filter(case=cast.case).count() == 2


def test_a_high_level_without_recorded_changes_counts_from_the_opening(cast, listening):
    Case.objects.filter(pk=cast.case.pk).update(
        risk_level=RiskLevel.HIGH, opened_at=NOW - 25 * HOUR
    )
    assert services.high_risk_sweep(now=NOW) == 1
    assert HighRiskNotice.objects.get().since == NOW - 25 * HOUR


def test_never_for_an_agency_without_a_live_subscription_to_the_kind(cast, receivers):  # noqa: F811
    # Subscribed to other kinds, and an ended subscription to this one.
    subscribe(cast, receivers().url, kinds=[EventKind.BREACH_RECORDED])
    ended, _secret = subscribe(cast, receivers().url, kinds=[KIND])
    ended.ended_at = NOW
    ended.save()
    set_risk(cast.case, RiskLevel.HIGH, NOW - 30 * HOUR)
    set_risk(cast.foreign_case, RiskLevel.HIGH, NOW - 30 * HOUR)
    assert services.high_risk_sweep(now=NOW) == 2
    assert not Intent.objects.filter(task=events.FANOUT_TASK).exists()
    # The occurrence was noticed: a subscription made later hears of the next one, not this.
    subscribe(cast, receivers().url, kinds=[KIND])
    assert services.high_risk_sweep(now=NOW + HOUR) == 0
    assert published() == []


def test_each_agency_hears_of_its_own_cases_only(cast, listening):
    set_risk(cast.case, RiskLevel.HIGH, NOW - 30 * HOUR)
    set_risk(cast.foreign_case, RiskLevel.HIGH, NOW - 30 * HOUR)
    assert services.high_risk_sweep(now=NOW) == 2
    assert published() == [cast.case.public_id]


def test_a_restricted_case_is_noticed_but_nothing_is_sent(cast, listening):
    receiver, _secret = listening
    set_risk(cast.restricted_case, RiskLevel.HIGH, NOW - 30 * HOUR)
    assert services.high_risk_sweep(now=NOW) == 1
    run_intents("caseflow.api.tasks.webhook_fanout")
    assert run_intents("caseflow.api.tasks.deliver_webhook") == 0
    assert receiver.received == []


def test_the_sweep_works_in_batches(cast, listening):
    cases = [cast.case, cast.team2_case, cast.restricted_case]
    for case in cases:
        set_risk(case, RiskLevel.HIGH, NOW - 30 * HOUR)
    assert services.high_risk_sweep(now=NOW, batch_size=2) == 3
    assert HighRiskNotice.objects.count() == 3
    assert sorted(published()) == sorted(c.public_id for c in cases)


def test_the_task_carries_no_arguments(cast, listening):
    from caseflow.api import tasks

    set_risk(cast.case, RiskLevel.HIGH, NOW - 30 * HOUR)
    tasks.high_risk_sweep()
    assert published() == [cast.case.public_id]
