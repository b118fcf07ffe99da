"""Recording payments, deciding those above the agency's limit, adding and opening receipts, and
the agency admin's settings and funding sources.

Each operation checks policy itself, runs in a transaction and writes one audit event whose
detail holds ids, codes and amounts only (never a payee's name). Receipt files are checked and
stored by :mod:`caseflow.cases.evidence` (type, size, the case's quota, encryption with the case
key); files are written before their rows and removed again if anything after fails.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.assistance.models import (
    CURRENCIES,
    MAX_AMOUNT,
    AssistanceSettings,
    FundingSource,
    PayeeKind,
    Payment,
    PaymentState,
    Purpose,
    Receipt,
)
from caseflow.audit.services import record
from caseflow.cases import evidence as files
from caseflow.cases.models import Case, Party, PartyRole, name_index_for
from caseflow.lib.i18n import gettext_lazy as _

RECEIPT_PREFIX = "assistance/receipts/"

NOT_THE_OTHER_PARTY = _(
    "A payment never goes to the other party on this case. Check who is paid, or talk to your "
    "supervisor."
)


def assistance_settings(agency_id: int | None) -> AssistanceSettings:
    """The agency's settings (unsaved defaults if it has none yet)."""
    if agency_id is None:
        raise PermissionDenied
    found = AssistanceSettings.objects.filter(agency_id=agency_id).first()
    return found or AssistanceSettings(agency_id=agency_id)


def funding_sources(agency_id: int, *, active_only: bool = True):
    sources = FundingSource.objects.filter(agency_id=agency_id)
    return sources.filter(active=True) if active_only else sources


def needs_approval(amount: Decimal, limit: Decimal) -> bool:
    """Strictly above the limit needs a supervisor; at the limit does not."""
    return amount > limit


def is_the_other_party(case: Case, name: str) -> bool:
    """Whether ``name`` is the name of an other party on the case (by the keyed name index:
    case, accents, spacing and word order do not matter)."""
    index = name_index_for(name or "")
    if not index:
        return False
    return Party.objects.filter(case=case, role=PartyRole.OTHER_PARTY, name_index=index).exists()


def _store_receipts(
    *, actor: User, payment: Payment, receipts: Sequence[files.CheckedFile], written: list[str]
) -> list[Receipt]:
    """The payment's receipts, written with the evidence machinery (quota, encryption)."""
    return files.store_with_rows(
        Receipt,
        case=payment.case,
        actor=actor,
        checked=receipts,
        prefix=RECEIPT_PREFIX,
        written=written,
        payment=payment,
    )


@transaction.atomic
def payment_record(
    *,
    actor: User,
    case: Case,
    amount: Decimal,
    currency: str,
    purpose: str,
    payee_kind: str,
    payee_name: str,
    funding_source: FundingSource,
    paid_on: dt.date,
    details: str = "",
    receipts: Sequence[files.CheckedFile] = (),
) -> Payment:
    """Record a payment. Above the agency's limit it waits for a supervisor's approval.
    Raises ``ValidationError`` for a payment that cannot be (a payee who is the other party, an
    amount that is not positive) and :class:`~caseflow.cases.evidence.EvidenceRefused` over
    the case's quota."""
    policy.require(actor, case, "edit")
    if funding_source.agency_id != case.agency_id:
        raise PermissionDenied
    if not isinstance(amount, Decimal) or not (Decimal("0") < amount <= MAX_AMOUNT):
        raise ValidationError(_("Give an amount above zero."), code="amount")
    if currency not in CURRENCIES:
        raise ValidationError(_("Choose a currency from the list."), code="currency")
    payee_name = (payee_name or "").strip()
    if is_the_other_party(case, payee_name):
        raise ValidationError(NOT_THE_OTHER_PARTY, code="other_party")
    limit = assistance_settings(case.agency_id).approval_limit
    files.lock_case_for_quota(case, receipts)
    payment = Payment(
        case=case,
        amount=amount.quantize(Decimal("0.01")),
        currency=currency,
        purpose=Purpose(purpose),
        payee_kind=PayeeKind(payee_kind),
        payee_name=payee_name,
        funding_source=funding_source,
        paid_on=paid_on,
        details=details,
        state=PaymentState.PENDING if needs_approval(amount, limit) else PaymentState.PAID,
        approval_limit=limit,
        recorded_by=actor,
    )
    payment.save()
    with files.removed_on_failure() as written:
        stored = _store_receipts(actor=actor, payment=payment, receipts=receipts, written=written)
        record(
            "payment.record",
            actor=actor,
            case=case,
            obj=payment,
            detail={
                "amount": str(payment.amount),
                "currency": payment.currency,
                "purpose": payment.purpose,
                "payee_kind": payment.payee_kind,
                "funding_source": funding_source.public_id,
                "state": payment.state,
                "receipts": [r.public_id for r in stored],
            },
        )
    return payment


def may_decide(user: User, payment: Payment) -> bool:
    """A supervisor of the case's team decides a waiting payment, never one they recorded."""
    return (
        payment.state == PaymentState.PENDING
        and payment.recorded_by_id != user.pk
        and policy.may(user, payment.case, "approve_payment")
    )


@transaction.atomic
def payment_decide(*, actor: User, payment: Payment, approve: bool, reason: str = "") -> Payment:
    """Approve (it counts as paid) or decline (with a reason) a payment waiting for approval."""
    case = payment.case
    policy.require(actor, case, "approve_payment")
    locked = Payment.objects.select_for_update().get(pk=payment.pk)
    locked.case = case
    if locked.state != PaymentState.PENDING:
        raise ValidationError(_("This payment has already been decided."), code="decided")
    if locked.recorded_by_id == actor.pk:
        raise PermissionDenied
    reason = (reason or "").strip()
    if not approve and not reason:
        raise ValidationError(_("Say why it is not approved."), code="reason")
    locked.state = PaymentState.APPROVED if approve else PaymentState.DECLINED
    locked.decided_by = actor
    locked.decided_at = timezone.now()
    locked.decision_reason = reason
    locked.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
    record(
        "payment.decide",
        actor=actor,
        case=case,
        obj=locked,
        detail={"state": locked.state, "with_reason": bool(reason)},
    )
    return locked


@transaction.atomic
def receipt_add(
    *, actor: User, payment: Payment, receipts: Sequence[files.CheckedFile]
) -> list[Receipt]:
    case = payment.case
    policy.require(actor, case, "edit")
    files.lock_case_for_quota(case, receipts)
    with files.removed_on_failure() as written:
        stored = _store_receipts(actor=actor, payment=payment, receipts=receipts, written=written)
        record(
            "payment.receipt_add",
            actor=actor,
            case=case,
            obj=payment,
            detail={"receipts": [r.public_id for r in stored]},
        )
    return stored


def receipt_open(*, actor: User, receipt: Receipt) -> bytes:
    """The receipt's bytes for someone who may see the case (the read is audited by the page
    that serves it)."""
    case = receipt.case
    policy.require(actor, case, "view")
    return files.read(case, receipt.storage_name, receipt.sha256)


# --- The agency's settings ----------------------------------------------------------------------


def _admin_agency(actor: User) -> int:
    agency_id = policy.agency_id_of(actor)
    if not policy.is_agency_admin(actor) or agency_id is None:
        raise PermissionDenied
    return agency_id


@transaction.atomic
def settings_save(*, actor: User, currency: str, approval_limit: Decimal) -> AssistanceSettings:
    agency_id = _admin_agency(actor)
    if currency not in CURRENCIES:
        raise ValidationError(_("Choose a currency from the list."), code="currency")
    if approval_limit < 0:
        raise ValidationError(_("The limit cannot be below zero."), code="limit")
    row, _created = AssistanceSettings.objects.get_or_create(agency_id=agency_id)
    changed = [
        name
        for name, value in (("currency", currency), ("approval_limit", approval_limit))
        if getattr(row, name) != value
    ]
    row.currency = currency
    row.approval_limit = approval_limit
    row.updated_by = actor
    row.save()
    record(
        "assistance.settings.save",
        actor=actor,
        obj=row,
        detail={"changed": changed, "currency": currency, "approval_limit": str(approval_limit)},
    )
    return row


@transaction.atomic
def funding_source_add(*, actor: User, name: str) -> FundingSource:
    agency_id = _admin_agency(actor)
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError(_("Give the fund a name."), code="name")
    found = FundingSource.objects.filter(agency_id=agency_id, name__iexact=name).first()
    if found is not None:
        if found.active:
            raise ValidationError(_("That fund is already on the list."), code="duplicate")
        found.active = True
        found.save(update_fields=["active"])
        source = found
    else:
        source = FundingSource.objects.create(agency_id=agency_id, name=name)
    record("assistance.fund.add", actor=actor, obj=source, detail={"fund": source.public_id})
    return source


@transaction.atomic
def funding_source_retire(*, actor: User, source: FundingSource) -> FundingSource:
    agency_id = _admin_agency(actor)
    if source.agency_id != agency_id:
        raise PermissionDenied
    source.active = False
    source.save(update_fields=["active"])
    record("assistance.fund.retire", actor=actor, obj=source, detail={"fund": source.public_id})
    return source
