"""The court demo: high-risk cases get a past hearing with its outcome and an upcoming one with
its safety steps."""

from __future__ import annotations

import datetime as dt
import random

import pytest
import time_machine

from caseflow.cases.models import RiskLevel
from caseflow.checkins.models import CheckIn
from caseflow.court import demo
from caseflow.court.models import CourtFollowUpKind, Hearing, HearingOutcome
from caseflow.demo.seed import DemoContext
from caseflow.inbox.models import FollowUp
from caseflow.safety.services import plan_save

pytestmark = pytest.mark.django_db

# Monday 7 December 2026, 08:00 in London.
NOW = dt.datetime(2026, 12, 7, 8, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_demo_hearings_past_with_outcomes_and_upcoming_with_steps(cast):
    for case in (cast.case, cast.team2_case):
        case.risk_level = RiskLevel.HIGH
        case.save(update_fields=["risk_level"])
    plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={"protective_orders": [{"court": "Demo court", "reference": "DEMO-1"}]},
    )
    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.team2_case, cast.restricted_case],
        staff={},
        now=NOW,
    )
    demo.seed_demo(context)
    # Restricted and standard-risk cases are left alone.
    assert set(Hearing.objects.values_list("case_id", flat=True)) == {
        cast.case.pk,
        cast.team2_case.pk,
    }
    past = Hearing.objects.filter(starts_at__lt=NOW)
    assert past.count() == 2 and all(h.outcome for h in past)
    made = past.get(case=cast.case)
    assert made.outcome == HearingOutcome.ORDER_MADE and len(made.orders) == 1
    assert Hearing.objects.filter(starts_at__gt=NOW, outcome="").count() == 2
    assert FollowUp.objects.filter(kind=CourtFollowUpKind.ACCOMPANIMENT).count() == 2
    assert CheckIn.objects.filter(case=cast.case).count() == 2
