"""The case page's section for her own rating: her latest answers beside her first, and a way
to record how she feels now (offering the check-in at which she was just reached)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from django.utils import timezone

from caseflow import policy
from caseflow.cases.features import PanelResult
from caseflow.cases.models import Case
from caseflow.cases.panels import may_have
from caseflow.wellbeing.models import Rating
from caseflow.wellbeing.selectors import checkin_to_rate


def case_facts() -> dict:
    return {"has_ratings": Exists(Rating.objects.filter(case=OuterRef("pk")))}


def case_panel(request: HttpRequest, case: Case) -> PanelResult:
    first = latest = None
    count = 0
    if may_have(case, "has_ratings"):
        rows = Rating.objects.filter(case=case)
        count = rows.count()
        first = rows.order_by("taken_at", "pk").first()
        latest = rows.order_by("-taken_at", "-pk").first() if count > 1 else None
        for row in (first, latest):
            if row is not None:
                row.case = case
    can_edit = policy.may(request.user, case, "edit")
    return (
        "wellbeing/panel.html",
        {
            "case": case,
            "first": first,
            "latest": latest,
            "count": count,
            "can_edit": can_edit,
            "offer": checkin_to_rate(case, timezone.now()) if can_edit else None,
        },
    )
