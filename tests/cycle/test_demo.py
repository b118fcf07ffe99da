"""The cycle's demo: the high-risk cases' incidents are each followed by an apology (and more),
so their journey shows the pattern; restricted and lower-risk cases are left alone."""

from __future__ import annotations

import datetime as dt
import random

import pytest
import time_machine

from caseflow.cases import trend
from caseflow.cases.models import RiskLevel
from caseflow.cycle import demo
from caseflow.cycle.models import Mark
from caseflow.demo.seed import DemoContext
from tests.casework.helpers import make_incident

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 9, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_the_demo_gives_high_risk_cases_a_visible_cycle(cast):
    cast.case.risk_level = RiskLevel.HIGH
    # Opened before the incidents (the cast is made at the real, or the moved, clock).
    cast.case.opened_at = NOW - dt.timedelta(weeks=20)
    cast.case.save(update_fields=["risk_level", "opened_at"])
    for weeks in (12, 8, 4, 1):
        make_incident(cast.case, cast.assigned, when=NOW - dt.timedelta(weeks=weeks))
        make_incident(cast.team2_case, cast.other_team, when=NOW - dt.timedelta(weeks=weeks))
    # An incident this morning: nothing can have followed it yet.
    make_incident(cast.case, cast.assigned, when=NOW - dt.timedelta(hours=2))
    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.team2_case, cast.restricted_case],
        staff={},
        now=NOW,
    )
    demo.seed_demo(context)
    assert set(Mark.objects.values_list("case_id", flat=True)) == {cast.case.pk}
    assert not Mark.objects.filter(at__gt=NOW).exists()
    assert Mark.objects.filter(kind="apology").count() == 4
    picture = trend.build(cast.case, [], today=NOW.date())
    assert "An apology: after 3 of the last 4 incidents, within 3 days." in picture.summary


@pytest.mark.demo
def test_the_seeded_demo_shows_the_cycle_on_its_high_risk_cases(login):
    from django.urls import reverse

    from caseflow.cases.models import Case
    from caseflow.demo.seed import seed

    seed()
    marked = Case.objects.filter(pk__in=Mark.objects.values("case_id")).distinct()
    assert marked.exists()
    for case in marked:
        assert case.risk_level == RiskLevel.HIGH and not case.restricted
        page = login(case.primary_advocate).get(reverse("cases:journey", args=[case.public_id]))
        assert page.status_code == 200
        assert "An apology: after" in page.content.decode(), case.reference
