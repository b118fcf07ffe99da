"""The wellbeing demo: each agency's admin chooses its questions, and open high-risk cases get a
rated trend across several check-ins at which she was reached."""

from __future__ import annotations

import datetime as dt
import random

import pytest
import time_machine

from caseflow.cases import trend
from caseflow.cases.models import RiskLevel
from caseflow.checkins.models import CheckInOutcome
from caseflow.demo.seed import DemoContext
from caseflow.wellbeing import demo
from caseflow.wellbeing.models import Rating

pytestmark = pytest.mark.django_db

# Monday 7 December 2026, 08:00 UTC.
NOW = dt.datetime(2026, 12, 7, 8, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_demo_high_risk_cases_have_a_rated_trend(cast):
    for case in (cast.case, cast.team2_case, cast.restricted_case):
        case.risk_level = RiskLevel.HIGH
        case.opened_at = NOW - dt.timedelta(days=60)
        case.save(update_fields=["risk_level", "opened_at"])
    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.team2_case, cast.restricted_case, cast.foreign_case],
        staff={},
        now=NOW,
    )
    demo.seed_demo(context)
    # Restricted and standard-risk cases are left alone.
    assert set(Rating.objects.values_list("case_id", flat=True)) == {
        cast.case.pk,
        cast.team2_case.pk,
    }
    ratings = list(Rating.objects.filter(case=cast.case).select_related("checkin"))
    assert len(ratings) == 5
    for rating in ratings:
        rating.case = cast.case
        assert rating.checkin.outcome == CheckInOutcome.REACHED
        assert rating.taken_at < NOW
        assert set(rating.answers) == {"safe", "coping"}
    assert any(r.words for r in ratings)
    safe = [r.answers["safe"] for r in ratings]
    assert safe[-1] > safe[0]
    picture = trend.build(cast.case, [])
    assert any("at first" in line and "most recently" in line for line in picture.summary)
