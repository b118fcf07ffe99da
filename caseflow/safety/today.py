"""High-risk cases without a current safety plan, on the today queue (see
:mod:`caseflow.cases.today`). A supervisor sees their teams' cases with no plan yet or a plan whose
review date has passed; an advocate sees their own high-risk cases with no plan yet, first of
their overdue work, with "Start the safety plan" (their plan reviews reach them as follow-ups)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext

from caseflow.cases.models import Case, RiskLevel
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    ListedQuery,
    QueueItem,
    QueueSource,
    Scope,
    local_date_start,
    staff_day,
)
from caseflow.lib.i18n import gettext_lazy as _


def _plans(wanted: QuerySet[Case]) -> QuerySet[Case]:
    return (
        wanted.filter(risk_level=RiskLevel.HIGH)
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


def _no_plan() -> Q:
    return Q(safety_plan__isnull=True) | Q(safety_plan__version=0)


def _own_plans(*, cases: QuerySet[Case], user: int) -> QuerySet[Case]:
    # The advocate's own cases (they are the primary advocate); plan reviews come to them
    # as follow-ups, so only the missing plan is listed here.
    return _plans(cases.filter(primary_advocate=user).filter(_no_plan()))


def _team_plans(*, cases: QuerySet[Case], today: dt.date) -> QuerySet[Case]:
    return _plans(cases.filter(_no_plan() | Q(safety_plan__review_by__lt=today)))


_OWN_PLANS = ListedQuery(Case, _own_plans, user="int")
_TEAM_PLANS = ListedQuery(Case, _team_plans, today="date")


def plan_items(scope: Scope) -> list[QueueItem]:
    today = staff_day(scope)
    if scope.own_only:
        cases = _OWN_PLANS.rows(scope, user=scope.user.pk)
    else:
        cases = _TEAM_PLANS.rows(scope, today=today)
    items = []
    for case in cases:
        plan = getattr(case, "safety_plan", None)
        if plan is None or plan.version == 0:
            title, due_at = _("High risk, and no safety plan yet"), case.opened_at
            action = Action(
                _("Start the safety plan"), reverse("safety:plan_edit", args=[case.public_id])
            )
        else:
            assert plan.review_by is not None
            title = gettext("High risk, and the safety plan was due for review on %(date)s") % {
                "date": date_format(plan.review_by, "MONTH_DAY_FORMAT")
            }
            due_at = local_date_start(plan.review_by)
            action = Action(_("Open the plan"), reverse("safety:plan", args=[case.public_id]))
        advocate = case.primary_advocate
        items.append(
            QueueItem(
                due_at=due_at,
                kind=_("Safety plan"),
                title=title,
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=action,
                owner=(advocate.get_full_name() or advocate.username)
                if advocate
                else gettext("Unassigned"),
                owner_id=advocate.pk if advocate else 0,
                first=plan is None or plan.version == 0,
                all_day=True,
            )
        )
    return items


#: This part's sources of the today queue (its feature brings them).
SOURCES = (QueueSource("safety_plans", plan_items, order=30),)
