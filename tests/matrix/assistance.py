"""Matrix rows for financial assistance: payments and receipts are case pages (reading is
"view", recording "edit"); deciding a payment is for the supervisors of the case's team; the
settings are the agency admin's."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.urls import reverse

from caseflow.assistance.models import FundingSource, Payment, Receipt
from caseflow.cases import evidence as files
from tests.casework.helpers import pdf
from tests.matrix.base import NOT_ALLOWED, Row, casework, expect


def make_payment(cast, case, *, state: str = "pending") -> Payment:
    source, _created = FundingSource.objects.get_or_create(
        agency_id=case.agency_id, name="Matrix fund"
    )
    return Payment.objects.create(
        case=case,
        amount=Decimal("240.00"),
        currency="USD",
        purpose="hotel",
        payee_kind="hotel",
        payee_name="Matrix Hotel",
        funding_source=source,
        paid_on=dt.date(2026, 1, 5),
        state=state,
        approval_limit=Decimal("150.00"),
        recorded_by=cast.assigned,
    )


def _payment_url(name):
    def build(cast, case):
        return reverse(name, args=[case.public_id, make_payment(cast, case).public_id])

    return build


def _receipt_url(cast, case):
    payment = make_payment(cast, case)
    # A real PDF, as the evidence rows use: a browser shows it in its own viewer (a made-up
    # image would open the broken-image page, whose inline style the file's policy refuses).
    stored = files.store(case, pdf(), "assistance/receipts/")
    receipt = Receipt.objects.create(
        case=case,
        payment=payment,
        storage_name=stored.storage_name,
        filename="receipt.pdf",
        content_type="application/pdf",
        family="pdf",
        size=stored.size,
        sha256=stored.sha256,
        uploaded_by=cast.assigned,
    )
    return reverse("assistance:receipt", args=[case.public_id, receipt.public_id])


ROWS: dict[str, Row] = {
    # An empty POST re-renders the form with its errors.
    "assistance:payment_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "assistance:payment": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_payment_url("assistance:payment")
    ),
    # Only the team's supervisor decides; an empty decision re-renders the page with its error.
    "assistance:decide": Row(
        GET=NOT_ALLOWED, POST=casework(403, 200), url=_payment_url("assistance:decide")
    ),
    # No file: a message, and back to the payment.
    "assistance:receipt_add": Row(
        GET=NOT_ALLOWED, POST=casework(302, 302), url=_payment_url("assistance:receipt_add")
    ),
    "assistance:receipt": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_receipt_url),
    "assistance:settings": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
}
