"""Read-side queries for the case page: metadata only, nothing encrypted is loaded."""

from __future__ import annotations

from caseflow.cases.models import Case
from caseflow.safety.models import RiskAssessment, SafetyPlan


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
