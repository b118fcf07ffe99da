"""The demo finds safety plans and risk assessments in use."""

from __future__ import annotations

import pytest
from django.db.models import Count

from caseflow.demo.seed import seed
from caseflow.inbox.models import FollowUp
from caseflow.safety.models import RiskAssessment, RiskInstrument, SafetyPlan, SafetyPlanVersion

pytestmark = pytest.mark.django_db


@pytest.mark.demo
def test_demo_seed_populates_plans_assessments_and_follow_ups():
    seed()
    assert RiskInstrument.objects.filter(slug="caseflow-sample", agency__isnull=True).exists()
    # The demo's own histories (a caseload imported from another system brings its protective
    # order in one plan version: tests/imports).
    plans = SafetyPlan.objects.filter(case__import_record__isnull=True).annotate(
        n=Count("versions")
    )
    assert plans.count() >= 40
    assert all(2 <= plan.n <= 3 for plan in plans)
    assert {plan.n for plan in plans} == {2, 3}
    assert RiskAssessment.objects.values("case").distinct().count() == plans.count()
    assert RiskAssessment.objects.filter(band="high").exists()
    # Emotional safety is filled in on the plans of the longer histories.
    emotional = 0
    for version in SafetyPlanVersion.objects.select_related("case"):
        emotional += bool(version.content.get("triggers") and version.content.get("staying"))
    assert emotional >= 10
    # The overdue review (other parts of the demo add plan reviews of their own, e.g. after a
    # compelled disclosure).
    assert FollowUp.objects.filter(kind="plan_review", source_key__startswith="plan:").count() == 1
    assert FollowUp.objects.filter(kind="order_expiry", source_key__startswith="plan:").count() == 1
    assert FollowUp.objects.filter(kind="multi_agency_referral").exists()
    for plan in plans:
        assert (
            plan.case.risk_level
            == RiskAssessment.objects.filter(case=plan.case).first().effective_band
        )


@pytest.mark.demo
def test_the_demo_high_risk_cases_show_hard_dates_with_check_ins_proposed():
    from caseflow.cases.models import Case, RiskLevel
    from caseflow.checkins.proposals import proposed_checkins
    from caseflow.safety.models import HardDate

    seed()
    high = Case.objects.filter(risk_level=RiskLevel.HIGH, hard_dates__isnull=False).distinct()
    assert high.count() >= 2
    assert not HardDate.objects.exclude(case__risk_level=RiskLevel.HIGH).exists()
    assert HardDate.objects.filter(yearly=True).exists()
    assert HardDate.objects.filter(yearly=False).exists()
    assert FollowUp.objects.filter(kind="proposed_checkin").exists()
    for case in high:
        assert proposed_checkins(case)
