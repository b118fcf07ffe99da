"""High-risk cases without a current safety plan, on a supervisor's today queue (see
:mod:`caseflow.cases.today`): no plan yet, or a plan whose review date has passed."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse

from caseflow.cases.models import RiskLevel
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    QueueItem,
    QueueSource,
    Scope,
    local_date_start,
    staff_day,
)
from caseflow.lib.i18n import gettext_lazy as _


def plan_items(scope: Scope) -> list[QueueItem]:
    if scope.own_only:
        return []  # an advocate's own plan reviews reach them as follow-ups
    today = staff_day(scope)
    cases = (
        scope.cases.filter(risk_level=RiskLevel.HIGH)
        .filter(
            Q(safety_plan__isnull=True)
            | Q(safety_plan__version=0)
            | Q(safety_plan__review_by__lt=today)
        )
        .select_related("safety_plan", "primary_advocate")
        .only(
            "pk",
            "public_id",
            "reference",
            "opened_at",
            "safety_plan__version",
            "safety_plan__review_by",
            "primary_advocate__username",
            "primary_advocate__first_name",
            "primary_advocate__last_name",
        )
        .order_by("opened_at", "pk")[:PER_SOURCE]
    )
    items = []
    for case in cases:
        plan = getattr(case, "safety_plan", None)
        if plan is None or plan.version == 0:
            title, due_at = _("High risk, and no safety plan yet"), case.opened_at
        else:
            assert plan.review_by is not None
            review = f"{plan.review_by.day} {plan.review_by:%b}"
            title = f"High risk, and the safety plan was due for review on {review}"
            due_at = local_date_start(plan.review_by)
        advocate = case.primary_advocate
        items.append(
            QueueItem(
                due_at=due_at,
                kind=_("Safety plan"),
                title=title,
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=Action(_("Open the plan"), reverse("safety:plan", args=[case.public_id])),
                owner=(advocate.get_full_name() or advocate.username) if advocate else "Unassigned",
                all_day=True,
            )
        )
    return items


#: This part's sources of the today queue (its feature brings them).
SOURCES = (QueueSource("safety_plans", plan_items, order=30),)
