"""Financial assistance: money paid on a survivor's behalf (hotel nights, transport, changed
locks, vouchers...), from which fund, to whom, and the receipts.

Amounts are ``Decimal`` with two places, always positive (a database constraint too), in an ISO
4217 currency. Above the agency's approval limit a payment waits for a supervisor of the case's
team; it counts as paid only once approved. The payee's name and the advocate's details are
encrypted with the case key. A payment never goes to the other party: there is no such payee
kind, and a payee name matching the other party's is refused (:mod:`caseflow.assistance.services`).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, CaseOwned, new_public_id
from caseflow.lib.encryption import EncryptedTextField

#: The currencies an agency may pay in (ISO 4217), named in the reader's language by Babel.
CURRENCIES = ("USD", "GBP", "EUR", "CAD", "AUD", "NZD")
DEFAULT_CURRENCY = "USD"
DEFAULT_APPROVAL_LIMIT = Decimal("150.00")
#: The largest single payment caseflow accepts (a typing slip, not a real payment, above it).
MAX_AMOUNT = Decimal("100000.00")


class Purpose(models.TextChoices):
    HOTEL = "hotel", _("Emergency hotel nights")
    TRANSPORT = "transport", _("Transport")
    SECURITY = "security", _("Locks changed or security")
    FOOD = "food", _("Food or vouchers")
    HOUSING = "housing", _("Rent or deposit")
    CHILDCARE = "childcare", _("Childcare")
    PHONE = "phone", _("Phone")
    LEGAL = "legal", _("Legal costs")
    OTHER = "other", _("Other")


class PayeeKind(models.TextChoices):
    """Who is paid. The other party is never one of them."""

    SURVIVOR = "survivor", _("The survivor")
    HOTEL = "hotel", _("A hotel")
    LANDLORD = "landlord", _("A landlord")
    LOCKSMITH = "locksmith", _("A locksmith")
    TRANSPORT = "transport", _("A transport company")
    SHOP = "shop", _("A shop")
    ORGANISATION = "organisation", _("Another organisation")


class PaymentState(models.TextChoices):
    PAID = "paid", _("Paid")
    PENDING = "pending", _("Waiting for a supervisor's approval")
    APPROVED = "approved", _("Approved and paid")
    DECLINED = "declined", _("Not approved")


#: The states that count as money paid.
COUNTED = (PaymentState.PAID, PaymentState.APPROVED)


class AssistanceSettings(models.Model):
    """The agency's currency and the amount above which a supervisor approves a payment."""

    agency = models.OneToOneField(
        Agency, on_delete=models.CASCADE, related_name="assistance_settings"
    )
    currency = models.CharField(max_length=3, default=DEFAULT_CURRENCY)
    approval_limit = models.DecimalField(
        max_digits=10, decimal_places=2, default=DEFAULT_APPROVAL_LIMIT
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(approval_limit__gte=0), name="assistance_limit_not_negative"
            )
        ]


class FundingSource(models.Model):
    """A fund the agency pays from (VOCA, FVPSA, a local fund): the agency admin keeps the list.
    A source no longer used is retired, never deleted (payments name it)."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    name = models.CharField(max_length=80)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "name"], name="funding_source_name_once")
        ]

    def __str__(self) -> str:
        return self.name


class Payment(CaseOwned):
    """One payment made for the survivor."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="payments")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    purpose = models.CharField(max_length=12, choices=Purpose.choices)
    payee_kind = models.CharField(max_length=12, choices=PayeeKind.choices)
    payee_name = EncryptedTextField(blank=True, default="")
    funding_source = models.ForeignKey(FundingSource, on_delete=models.PROTECT, related_name="+")
    paid_on = models.DateField()
    details = EncryptedTextField(blank=True, default="")
    state = models.CharField(max_length=8, choices=PaymentState.choices)
    # The limit in force when it was recorded (the agency may change it later).
    approval_limit = models.DecimalField(max_digits=10, decimal_places=2)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = EncryptedTextField(blank=True, default="")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ("details", "decision_reason")
    # Who was paid: needed to account for the money.
    kept_encrypted_fields = ("payee_name",)

    class Meta:
        ordering = ["-paid_on", "-pk"]
        indexes = [
            models.Index(fields=["case", "-paid_on"]),
            models.Index(fields=["state", "paid_on"]),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="payment_amount_positive")
        ]

    @property
    def counted(self) -> bool:
        return self.state in COUNTED


class Receipt(CaseOwned):
    """A receipt for a payment: an evidence file, stored encrypted with the case key under a
    random name (:mod:`caseflow.cases.evidence`) and served only through audited views."""

    # Counted in the case's evidence quota.
    holds_evidence_files = True

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, related_name="receipts")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    storage_name = models.CharField(max_length=200)
    filename = EncryptedTextField()
    content_type = models.CharField(max_length=40)
    family = models.CharField(max_length=8)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ()
    # Names the stored file, which is kept.
    kept_encrypted_fields = ("filename",)

    class Meta:
        ordering = ["created_at", "pk"]
