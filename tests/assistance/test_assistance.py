"""Financial assistance: recording payments, the approval above the agency's limit, receipts as
evidence, the totals by purpose and fund, and the pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django.utils import translation

from caseflow.assistance import selectors, services
from caseflow.assistance.models import (
    AssistanceSettings,
    FundingSource,
    Payment,
    PaymentState,
    Receipt,
)
from caseflow.audit.models import AuditEvent
from caseflow.cases import evidence as files
from caseflow.cases.models import PartyRole
from caseflow.casework.demo import demo_png
from caseflow.lib.money import money
from tests import factories as f

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 5, 6, 10, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 5, 6)


@pytest.fixture(autouse=True)
def _pinned():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def fund(cast):
    return FundingSource.objects.create(agency=cast.agency, name="VOCA")


@pytest.fixture
def limit(cast):
    return AssistanceSettings.objects.create(
        agency=cast.agency, currency="USD", approval_limit=Decimal("150.00")
    )


def _pay(cast, fund, amount="85.00", **kw):
    values = {
        "actor": cast.assigned,
        "case": cast.case,
        "amount": Decimal(amount),
        "currency": "USD",
        "purpose": "hotel",
        "payee_kind": "hotel",
        "payee_name": "Riverside Inn",
        "funding_source": fund,
        "paid_on": TODAY,
    }
    values.update(kw)
    return services.payment_record(**values)


def _receipt(name="receipt.png", data=None):
    return SimpleUploadedFile(name, data if data is not None else demo_png(), "image/png")


def test_a_payment_at_or_under_the_limit_counts_as_paid_at_once(cast, fund, limit):
    payment = _pay(cast, fund, amount="150.00")
    assert payment.state == PaymentState.PAID and payment.counted
    assert payment.amount == Decimal("150.00") and isinstance(payment.amount, Decimal)
    event = AuditEvent.objects.filter(action="payment.record").latest("seq")
    assert event.detail["amount"] == "150.00" and event.detail["state"] == "paid"
    assert "Riverside" not in str(event.detail)
    with connection.cursor() as cursor:
        cursor.execute("SELECT payee_name FROM assistance_payment WHERE id = %s", [payment.pk])
        (raw,) = cursor.fetchone()
    assert "Riverside" not in raw


def test_above_the_limit_it_waits_for_a_supervisor_of_the_team(cast, fund, limit):
    payment = _pay(cast, fund, amount="150.01")
    assert payment.state == PaymentState.PENDING and not payment.counted
    with pytest.raises(PermissionDenied):
        services.payment_decide(actor=cast.assigned, payment=payment, approve=True)
    with pytest.raises(PermissionDenied):
        services.payment_decide(actor=cast.other_supervisor, payment=payment, approve=True)
    with pytest.raises(ValidationError):
        services.payment_decide(actor=cast.supervisor, payment=payment, approve=False)
    decided = services.payment_decide(actor=cast.supervisor, payment=payment, approve=True)
    assert decided.state == PaymentState.APPROVED and decided.counted
    assert decided.decided_by == cast.supervisor
    with pytest.raises(ValidationError):
        services.payment_decide(actor=cast.supervisor, payment=decided, approve=False, reason="x")


def test_a_declined_payment_keeps_its_reason_and_is_not_counted(cast, fund, limit):
    payment = _pay(cast, fund, amount="400.00")
    declined = services.payment_decide(
        actor=cast.supervisor, payment=payment, approve=False, reason="Use the housing fund"
    )
    assert declined.state == PaymentState.DECLINED
    assert declined.decision_reason == "Use the housing fund"
    assert selectors.totals(agency_id=cast.agency.pk, start=TODAY, end=TODAY).payments == 0


def test_the_advocate_sees_the_state_and_the_supervisor_decides_on_the_page(
    cast, fund, limit, login
):
    payment = _pay(cast, fund, amount="240.00")
    url = reverse("assistance:payment", args=[cast.case.public_id, payment.public_id])
    page = login(cast.assigned).get(url).content.decode()
    assert "Waiting for a supervisor&#x27;s approval" in page
    assert "Approve this payment?" not in page
    client = login(cast.supervisor)
    assert "Approve this payment?" in client.get(url).content.decode()
    decide = reverse("assistance:decide", args=[cast.case.public_id, payment.public_id])
    refused = client.post(decide, {"decision": "decline"})
    assert refused.status_code == 200 and "Say why it is not approved." in refused.content.decode()
    response = client.post(decide, {"decision": "decline", "reason": "Use the housing fund"})
    assert response.status_code == 302
    page = login(cast.assigned).get(url).content.decode()
    assert "Not approved" in page and "Use the housing fund" in page


def test_a_supervisor_does_not_approve_a_payment_they_recorded(cast, fund, limit):
    case = f.open_case(cast.team1, assignees=[cast.supervisor])
    payment = _pay(cast, fund, amount="900.00", actor=cast.supervisor, case=case)
    assert payment.state == PaymentState.PENDING
    assert not services.may_decide(cast.supervisor, payment)
    with pytest.raises(PermissionDenied):
        services.payment_decide(actor=cast.supervisor, payment=payment, approve=True)


def test_pending_approvals_are_on_the_supervisors_today_queue_only(cast, fund, limit, login):
    _pay(cast, fund, amount="240.00", purpose="security", payee_kind="locksmith")
    queue = login(cast.supervisor).get(reverse("dashboard")).content.decode()
    assert "Payment to approve" in queue and "Locks changed or security" in queue
    assert "Riverside" not in queue
    mine = login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert "Payment to approve" not in mine
    other = login(cast.other_supervisor).get(reverse("dashboard")).content.decode()
    assert "Payment to approve" not in other


def test_never_paid_to_the_other_party(cast, fund, limit, login):
    f.add_party(cast.case, role=PartyRole.OTHER_PARTY, full_name="Lee Sample")
    with pytest.raises(ValidationError):
        _pay(cast, fund, payee_kind="shop", payee_name="  sample, LEE ")
    client = login(cast.assigned)
    response = client.post(
        reverse("assistance:payment_new", args=[cast.case.public_id]),
        {
            "amount": "20",
            "currency": "USD",
            "purpose": "food",
            "payee_kind": "organisation",
            "payee_name": "Lee Sample",
            "funding_source": fund.pk,
            "paid_on": "2026-05-06",
        },
    )
    assert response.status_code == 200
    assert "never goes to the other party" in response.content.decode()
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("-5", "Give an amount above zero."),
        ("0", "Give an amount above zero."),
        ("twelve", "Give the amount as a number"),
        ("12.345", "decimal places"),
        ("", "This field is required."),
    ],
)
def test_bad_amounts_are_form_errors(cast, fund, limit, login, amount, message):
    response = login(cast.assigned).post(
        reverse("assistance:payment_new", args=[cast.case.public_id]),
        {
            "amount": amount,
            "currency": "USD",
            "purpose": "transport",
            "payee_kind": "survivor",
            "funding_source": fund.pk,
            "paid_on": "2026-05-06",
        },
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Payment.objects.exists()


def test_dates_in_the_future_or_long_ago_are_form_errors(cast, fund, limit, login):
    client = login(cast.assigned)
    url = reverse("assistance:payment_new", args=[cast.case.public_id])
    base = {
        "amount": "10",
        "currency": "USD",
        "purpose": "phone",
        "payee_kind": "survivor",
        "funding_source": fund.pk,
    }
    for paid_on, message in (
        ("2026-05-07", "cannot be dated in the future"),
        ("1926-05-06", "more than five years ago"),
    ):
        response = client.post(url, {**base, "paid_on": paid_on})
        assert message in response.content.decode()
    assert not Payment.objects.exists()


def test_an_amount_in_spanish_number_format(cast, fund, limit, login):
    from caseflow.accounts.language import set_user_language

    set_user_language(cast.assigned, "es")
    response = login(cast.assigned).post(
        reverse("assistance:payment_new", args=[cast.case.public_id]),
        {
            "amount": "45,50",
            "currency": "USD",
            "purpose": "transport",
            "payee_kind": "transport",
            "payee_name": "Taxis Ejemplo",
            "funding_source": fund.pk,
            "paid_on": "2026-05-06",
        },
    )
    assert response.status_code == 302
    assert Payment.objects.get().amount == Decimal("45.50")


def test_a_hotel_night_paid_with_a_receipt(cast, fund, limit, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("assistance:payment_new", args=[cast.case.public_id]),
        {
            "amount": "95.00",
            "currency": "USD",
            "purpose": "hotel",
            "payee_kind": "hotel",
            "payee_name": "Riverside Inn",
            "funding_source": fund.pk,
            "paid_on": "2026-05-06",
            "details": "One night",
            "receipt": _receipt(),
        },
    )
    assert response.status_code == 302
    receipt = Receipt.objects.get()
    receipt.case = cast.case
    assert receipt.payment.state == PaymentState.PAID
    assert receipt.size == len(demo_png()) and receipt.agency_id == cast.agency.pk
    with files.evidence_storage().open(receipt.storage_name, "rb") as handle:
        stored = handle.read()
    # Encrypted with the case key: not the image's bytes, and they come back with that key.
    assert demo_png()[:8] not in stored
    assert cast.case.data_key().decrypt(stored) == demo_png()
    page = client.get(response["Location"]).content.decode()
    assert "receipt.png" in page
    served = client.get(
        reverse("assistance:receipt", args=[cast.case.public_id, receipt.public_id])
    )
    assert served.status_code == 200 and served.content == demo_png()
    assert "no-store" in served["Cache-Control"]
    assert AuditEvent.objects.filter(action="payment.receipt_view").exists()
    # A receipt counts in the case's evidence quota like any evidence file.
    assert files.case_usage(cast.case) == len(demo_png())


def test_a_receipt_that_is_not_what_it_says_is_refused_and_nothing_is_saved(
    cast, fund, limit, login
):
    response = login(cast.assigned).post(
        reverse("assistance:payment_new", args=[cast.case.public_id]),
        {
            "amount": "30",
            "currency": "USD",
            "purpose": "food",
            "payee_kind": "shop",
            "payee_name": "Corner shop",
            "funding_source": fund.pk,
            "paid_on": "2026-05-06",
            "receipt": _receipt("receipt.png", b"not a picture at all"),
        },
    )
    assert response.status_code == 200
    assert "its content does not match its name" in response.content.decode()
    assert not Payment.objects.exists() and not Receipt.objects.exists()


def test_a_receipt_over_the_cases_quota_is_refused_and_no_file_is_left(
    cast, fund, limit, login, settings
):
    settings.EVIDENCE_CASE_QUOTA_BYTES = 100
    payment = _pay(cast, fund)
    before = sorted(p for p in Path(settings.EVIDENCE_ROOT).rglob("*") if p.is_file())
    response = login(cast.assigned).post(
        reverse("assistance:receipt_add", args=[cast.case.public_id, payment.public_id]),
        {"receipt": _receipt()},
        follow=True,
    )
    assert "This case has room for" in response.content.decode()
    assert not Receipt.objects.exists()
    after = sorted(p for p in Path(settings.EVIDENCE_ROOT).rglob("*") if p.is_file())
    assert after == before


def test_a_receipt_added_later(cast, fund, limit, login):
    payment = _pay(cast, fund)
    client = login(cast.assigned)
    url = reverse("assistance:receipt_add", args=[cast.case.public_id, payment.public_id])
    assert client.get(url).status_code == 405
    response = client.post(url, {"receipt": _receipt("taxi.png")})
    assert response.status_code == 302
    assert [r.public_id for r in payment.receipts.all()] == [Receipt.objects.get().public_id]


def test_totals_by_purpose_and_fund_for_a_period(cast, fund, limit):
    local = FundingSource.objects.create(agency=cast.agency, name="Local fund")
    _pay(cast, fund, amount="95.00")
    _pay(cast, fund, amount="95.00", paid_on=TODAY - dt.timedelta(days=1))
    _pay(cast, local, amount="60.00", purpose="security", payee_kind="locksmith")
    _pay(cast, local, amount="12.50", purpose="transport", payee_kind="survivor", payee_name="")
    approved = _pay(cast, fund, amount="300.00")
    services.payment_decide(actor=cast.supervisor, payment=approved, approve=True)
    _pay(cast, fund, amount="500.00")  # waiting: not counted
    _pay(cast, fund, amount="20.00", paid_on=TODAY - dt.timedelta(days=40))  # before the period
    other = f.open_case(cast.team2, assignees=[cast.other_team])
    services.payment_record(
        actor=cast.other_team,
        case=other,
        amount=Decimal("10.00"),
        currency="USD",
        purpose="food",
        payee_kind="shop",
        payee_name="Shop",
        funding_source=fund,
        paid_on=TODAY,
    )
    result = selectors.totals(
        agency_id=cast.agency.pk, start=TODAY - dt.timedelta(days=30), end=TODAY
    )
    assert result.by_purpose == {
        "USD": {
            "hotel": Decimal("490.00"),
            "security": Decimal("60.00"),
            "transport": Decimal("12.50"),
            "food": Decimal("10.00"),
        }
    }
    assert result.by_source == {"USD": {"VOCA": Decimal("500.00"), "Local fund": Decimal("72.50")}}
    assert result.total == {"USD": Decimal("572.50")}
    assert (result.payments, result.cases) == (6, 2)
    # Another agency's payments are never counted.
    elsewhere = selectors.totals(agency_id=cast.other_agency_team.agency_id, start=TODAY, end=TODAY)
    assert elsewhere.payments == 0 and elsewhere.total == {}


def test_the_panel_and_the_timeline_show_payments_in_the_readers_language(cast, fund, limit, login):
    _pay(cast, fund, amount="1234.50", currency="GBP")
    client = login(cast.assigned)
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Financial assistance" in page and "Emergency hotel nights: £1,234.50" in page
    timeline = client.get(reverse("cases:timeline", args=[cast.case.public_id])).content.decode()
    assert "Payment: Emergency hotel nights, £1,234.50" in timeline
    assert "Riverside" not in timeline
    with translation.override("es"):
        assert money(Decimal("1234.5"), "USD") == "1.234,50\xa0US$"


def test_payment_pages_refuse_wrong_methods_scope_and_rights(cast, fund, limit, login):
    payment = _pay(cast, fund, amount="240.00")
    detail = reverse("assistance:payment", args=[cast.case.public_id, payment.public_id])
    decide = reverse("assistance:decide", args=[cast.case.public_id, payment.public_id])
    assert login(cast.assigned).post(detail).status_code == 405
    assert login(cast.other_team).get(detail).status_code == 404
    assert login(cast.assigned).post(decide, {"decision": "approve"}).status_code == 403
    anonymous = login(None).get(detail)
    assert anonymous.status_code == 302 and reverse("accounts:login") in anonymous["Location"]
    # Another case's payment is not found through this case.
    other = f.open_case(cast.team1, assignees=[cast.assigned])
    wrong = reverse("assistance:payment", args=[other.public_id, payment.public_id])
    assert login(cast.assigned).get(wrong).status_code == 404


def test_the_agency_admin_keeps_the_settings_and_the_funds(cast, login):
    url = reverse("assistance:settings")
    assert login(cast.supervisor).get(url).status_code == 403
    admin = login(cast.agency_admin)
    response = admin.post(url, {"form": "settings", "currency": "GBP", "approval_limit": "-1"})
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 0" in response.content.decode()
    admin.post(url, {"form": "settings", "currency": "GBP", "approval_limit": "200"})
    row = AssistanceSettings.objects.get(agency=cast.agency)
    assert (row.currency, row.approval_limit) == ("GBP", Decimal("200.00"))
    admin.post(url, {"form": "fund", "name": "  Local   fund "})
    again = admin.post(url, {"form": "fund", "name": "local fund"})
    assert "already on the list" in again.content.decode()
    source = FundingSource.objects.get(agency=cast.agency)
    assert source.name == "Local fund"
    admin.post(url, {"form": "retire", "fund": source.public_id})
    source.refresh_from_db()
    assert not source.active
    assert list(services.funding_sources(cast.agency.pk)) == []
    form = login(cast.assigned).get(reverse("assistance:payment_new", args=[cast.case.public_id]))
    assert "no fund to pay from yet" in form.content.decode()


def test_the_form_starts_with_today_in_the_date_field(cast, fund, limit, login):
    page = (
        login(cast.assigned)
        .get(reverse("assistance:payment_new", args=[cast.case.public_id]))
        .content.decode()
    )
    assert 'type="date"' in page and 'value="2026-05-06"' in page
    assert 'inputmode="decimal"' in page
