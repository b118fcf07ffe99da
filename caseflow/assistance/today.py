"""Payments waiting for approval, on the today queue of the supervisors of the case's team (see
:mod:`caseflow.cases.today`). An advocate's own queue does not list them: the payment's page
tells them where it has got to."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow.assistance.models import Payment, PaymentState
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    ListedQuery,
    QueueItem,
    QueueSource,
    Scope,
    local_date_start,
)
from caseflow.lib.money import money


def _pending(*, cases: QuerySet[Any]) -> QuerySet[Payment]:
    return (
        Payment.objects.filter(state=PaymentState.PENDING, case__in=cases)
        .select_related("case", "recorded_by")
        .only(
            "pk",
            "public_id",
            "amount",
            "currency",
            "purpose",
            "paid_on",
            "case__id",
            "case__public_id",
            "case__reference",
            "recorded_by__username",
            "recorded_by__first_name",
            "recorded_by__last_name",
        )
        .order_by("paid_on", "pk")[:PER_SOURCE]
    )


_PENDING = ListedQuery(Payment, _pending)


def pending_approvals(scope: Scope) -> list[QueueItem]:
    if scope.own_only:
        return []
    rows = _PENDING.rows(scope)
    items = []
    for payment in rows:
        case = payment.case
        who = payment.recorded_by
        items.append(
            QueueItem(
                due_at=local_date_start(payment.paid_on),
                kind=_("Payment to approve"),
                title=_("%(purpose)s, %(amount)s")
                % {
                    "purpose": payment.get_purpose_display(),
                    "amount": money(payment.amount, payment.currency),
                },
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=Action(
                    _("Approve or not"),
                    reverse("assistance:payment", args=[case.public_id, payment.public_id]),
                ),
                owner=who.get_full_name() or who.username,
                owner_id=who.pk,
                all_day=True,
            )
        )
    return items


#: This part's sources of the today queue (its feature brings them).
SOURCES = (QueueSource("payment_approvals", pending_approvals, order=37),)
