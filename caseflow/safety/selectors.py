"""Read-side queries for the case page: metadata only, nothing encrypted is loaded."""

from __future__ import annotations

from django.http import Http404

from caseflow.cases.models import Case
from caseflow.safety.models import HardDate, RiskAssessment, SafetyPlan


def plan_status(case: Case) -> SafetyPlan | None:
    return (
        SafetyPlan.objects.filter(case=case)
        .only("version", "review_by", "last_reviewed_at", "updated_at", "case_id")
        .first()
    )


def recent_bands(case: Case, limit: int) -> list[RiskAssessment]:
    """The case's latest assessments, newest first: dates and bands only."""
    return list(
        RiskAssessment.objects.filter(case=case)
        .only("band", "override_band", "created_at", "case_id")
        .order_by("-created_at", "-pk")[:limit]
    )


def hard_date_get(case: Case, hard_date_id: str) -> HardDate:
    """A hard date of ``case`` (already resolved through policy), or 404."""
    found = HardDate.objects.filter(case=case, public_id=hard_date_id).first()
    if found is None:
        raise Http404
    found.case = case
    return found
