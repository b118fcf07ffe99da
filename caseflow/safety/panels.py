"""The safety section of the case page: plan status, reviews, latest risk band and its trend."""

from __future__ import annotations

from django.utils import timezone

from caseflow.cases.models import RiskLevel
from caseflow.safety import selectors

TREND_LENGTH = 6
_HEIGHT = {RiskLevel.STANDARD: 8, RiskLevel.MEDIUM: 15, RiskLevel.HIGH: 22}
_COLOUR = {RiskLevel.STANDARD: "#146c43", RiskLevel.MEDIUM: "#b58105", RiskLevel.HIGH: "#b02a37"}


def case_panel(request, case):
    """(template, context) for the case page. Loads metadata only: no encrypted field."""
    plan = selectors.plan_status(case)
    recent = selectors.recent_bands(case, TREND_LENGTH)
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
