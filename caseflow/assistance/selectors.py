"""Reads for the payment pages and the totals funders ask for."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Sum
from django.http import Http404

from caseflow.assistance.models import COUNTED, FundingSource, Payment, Receipt
from caseflow.cases.models import Case


def funding_source_get(agency_id: int, public_id: str) -> FundingSource:
    """One of the agency's funds (404 for another agency's)."""
    source = FundingSource.objects.filter(agency_id=agency_id, public_id=public_id).first()
    if source is None:
        raise Http404
    return source


def payment_get(case: Case, payment_id: str) -> Payment:
    payment = (
        Payment.objects.filter(case=case, public_id=payment_id)
        .select_related("funding_source", "recorded_by", "decided_by")
        .first()
    )
    if payment is None:
        raise Http404
    payment.case = case
    return payment


def payment_receipts(payment: Payment) -> list[Receipt]:
    rows = list(payment.receipts.order_by("created_at", "pk"))
    for row in rows:
        row.case = payment.case
    return rows


def receipt_get(case: Case, receipt_id: str) -> Receipt:
    receipt = Receipt.objects.filter(case=case, public_id=receipt_id).first()
    if receipt is None:
        raise Http404
    receipt.case = case
    return receipt


@dataclass
class Totals:
    """Money paid (approved or paid without needing approval) in a period, per currency."""

    #: {currency: {purpose code: amount}}
    by_purpose: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    #: {currency: {funding source name: amount}}
    by_source: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    #: {currency: total}
    total: dict[str, Decimal] = field(default_factory=dict)
    #: Payments counted, and cases helped.
    payments: int = 0
    cases: int = 0


def totals(*, agency_id: int, start: dt.date, end: dt.date) -> Totals:
    """Totals of the agency's payments dated ``start`` to ``end`` (both included), by purpose
    and by funding source. Payments waiting for approval, or not approved, are not counted.
    Three queries whatever the number of payments; no personal data is read."""
    paid = Payment.objects.filter(
        agency_id=agency_id, state__in=COUNTED, paid_on__gte=start, paid_on__lte=end
    )
    result = Totals()
    by_purpose: dict[str, dict[str, Decimal]] = defaultdict(dict)
    for currency, purpose, amount in (
        paid.values_list("currency", "purpose").annotate(amount=Sum("amount")).order_by()
    ):
        by_purpose[currency][purpose] = amount
    by_source: dict[str, dict[str, Decimal]] = defaultdict(dict)
    for currency, source, amount in (
        paid.values_list("currency", "funding_source__name")
        .annotate(amount=Sum("amount"))
        .order_by()
    ):
        by_source[currency][source] = amount
    counts = paid.aggregate(payments=Count("pk"), cases=Count("case", distinct=True))
    result.by_purpose = dict(by_purpose)
    result.by_source = dict(by_source)
    result.total = {
        currency: sum(amounts.values(), Decimal("0")) for currency, amounts in by_purpose.items()
    }
    result.payments = counts["payments"]
    result.cases = counts["cases"]
    return result
