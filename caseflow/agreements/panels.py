"""The agreements section of the case page: the case's agreements and the weekly trend."""

from __future__ import annotations

from caseflow import policy
from caseflow.agreements import selectors
from caseflow.agreements.models import AgreementStatus


def case_panel(request, case):
    agreements = selectors.agreements_for_case(case)
    shown = next((a for a in agreements if a.status == AgreementStatus.ACTIVE), None)
    if shown is None and agreements:
        shown = agreements[0]
    chart = None
    if shown is not None:
        chart = selectors.trend_chart(selectors.weekly_counts(shown))
    return (
        "agreements/panel.html",
        {
            "case": case,
            "agreements": agreements,
            "shown": shown,
            "chart": chart,
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )
