"""The safety section of the case page: plan status, reviews, latest risk band and its trend."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.utils import timezone

from caseflow.cases.models import RiskLevel
from caseflow.cases.panels import loaded, may_have
from caseflow.safety import selectors
from caseflow.safety.models import RiskAssessment

# Loaded with the case page's facts query (caseflow/cases/panels.py): the plan row is metadata.
CASE_RELATED = ("safety_plan",)

TREND_LENGTH = 6
_HEIGHT = {RiskLevel.STANDARD: 8, RiskLevel.MEDIUM: 15, RiskLevel.HIGH: 22}
_COLOUR = {RiskLevel.STANDARD: "#146c43", RiskLevel.MEDIUM: "#b58105", RiskLevel.HIGH: "#b02a37"}


def case_facts() -> dict:
    return {"has_risk_assessments": Exists(RiskAssessment.objects.filter(case=OuterRef("pk")))}


def case_panel(request, case):
    """(template, context) for the case page. Loads metadata only: no encrypted field. With the
    case page's facts: no query for the plan, and none for the bands of an unassessed case."""
    plan = loaded(case, "safety_plan", lambda: selectors.plan_status(case))
    recent = (
        selectors.recent_bands(case, TREND_LENGTH) if may_have(case, "has_risk_assessments") else []
    )
    trend = []
    for index, assessment in enumerate(reversed(recent)):
        band = assessment.effective_band
        height = _HEIGHT.get(band, 4)
        trend.append(
            {
                "x": index * 14 + 1,
                "y": 24 - height,
                "h": height,
                "colour": _COLOUR.get(band, "#6c757d"),
                "label": RiskLevel(band).label,
            }
        )
    overdue = bool(plan and plan.review_by and plan.review_by < timezone.localdate())
    return (
        "safety/_panel.html",
        {
            "case": case,
            "plan": plan,
            "overdue": overdue,
            "latest": recent[0] if recent else None,
            "trend": trend,
            "svg_width": max(len(trend) * 14, 14),
        },
    )
