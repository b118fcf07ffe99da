"""The agreements section of the case page: the case's agreements and the weekly trend."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.agreements import selectors
from caseflow.agreements.models import AgreementStatus, ContactAgreement
from caseflow.cases.panels import may_have


def case_facts() -> dict:
    return {"has_agreements": Exists(ContactAgreement.objects.filter(case=OuterRef("pk")))}


def case_panel(request, case):
    agreements = selectors.agreements_for_case(case) if may_have(case, "has_agreements") else []
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
