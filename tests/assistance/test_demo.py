import datetime as dt
import random

import pytest
import time_machine

from caseflow.assistance import demo
from caseflow.assistance.models import FundingSource, Payment, PaymentState, Receipt
from caseflow.cases import evidence as files
from caseflow.demo.seed import DemoContext

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 6, 4, 12, 0, tzinfo=dt.UTC)


def test_the_receipt_placeholder_is_accepted_evidence():
    assert files.check_file("r.png", demo.receipt_png()).content_type == "image/png"


@time_machine.travel(NOW, tick=False)
def test_demo_pays_hotel_nights_locks_and_transport_with_one_payment_waiting(cast):
    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.team2_case, cast.restricted_case, cast.foreign_case],
        staff={"north": [cast.supervisor]},
        now=NOW,
    )
    demo.seed_demo(context)
    payments = Payment.objects.all()
    assert {p.case_id for p in payments} == {cast.case.pk, cast.team2_case.pk}
    assert {"hotel", "security", "transport"} <= set(payments.values_list("purpose", flat=True))
    assert payments.filter(state=PaymentState.PENDING).count() == 1
    assert all(p.currency == "GBP" for p in payments)
    assert Receipt.objects.count() >= 3
    assert set(FundingSource.objects.values_list("agency_id", flat=True)) == {cast.agency.pk}
    assert not payments.filter(paid_on__gt=NOW.date()).exists()
