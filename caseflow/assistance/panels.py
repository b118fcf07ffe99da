"""The case page's section for financial assistance: the payments made, and their state."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.assistance.models import Payment
from caseflow.cases.panels import may_have
from caseflow.lib.money import money

SHOWN = 10


def case_facts() -> dict:
    return {"has_payments": Exists(Payment.objects.filter(case=OuterRef("pk")))}


def case_panel(request, case):
    payments = (
        list(
            Payment.objects.filter(case=case)
            .only("public_id", "amount", "currency", "purpose", "state", "paid_on", "case_id")
            .order_by("-paid_on", "-pk")[:SHOWN]
        )
        if may_have(case, "has_payments")
        else []
    )
    for payment in payments:
        payment.case = case
        payment.shown_amount = money(payment.amount, payment.currency)  # type: ignore[attr-defined]
    return (
        "assistance/panel.html",
        {
            "case": case,
            "payments": payments,
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )
