"""Payment pages of a case, and the agency admin's settings and funds. Each case view resolves
the case through policy (``case_page``), looks the payment up inside that case, calls a service
and redirects."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.assistance import selectors, services
from caseflow.assistance.forms import Decision, FundForm, PaymentForm, ReceiptForm, SettingsForm
from caseflow.assistance.models import PaymentState
from caseflow.audit.services import record
from caseflow.cases import evidence as files
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.lib.money import money


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def payment_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    row = services.assistance_settings(case.agency_id)
    sources = services.funding_sources(case.agency_id)
    form = PaymentForm(
        request.POST or None,
        request.FILES or None,
        sources=sources,
        initial={"currency": row.currency, "paid_on": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            payment = services.payment_record(
                actor=request.user,
                case=case,
                amount=d["amount"],
                currency=d["currency"],
                purpose=d["purpose"],
                payee_kind=d["payee_kind"],
                payee_name=d["payee_name"],
                funding_source=d["funding_source"],
                paid_on=d["paid_on"],
                details=d["details"],
                receipts=d["receipt"],
            )
        except ValidationError as exc:
            form.add_error("payee_name" if exc.code == "other_party" else None, exc)
        except files.EvidenceRefused as exc:
            form.add_error("receipt", str(exc))
        else:
            if payment.state == PaymentState.PENDING:
                messages.success(
                    request,
                    _("Recorded. It waits for a supervisor's approval before it counts as paid."),
                )
            else:
                messages.success(request, _("Payment recorded."))
            return redirect("assistance:payment", case.public_id, payment.public_id)
    return render(
        request,
        "assistance/payment_new.html",
        {
            "case": case,
            "form": form,
            "limit": money(row.approval_limit, row.currency),
            "has_sources": sources.exists(),
        },
    )


@login_required
@require_http_methods(["GET"])
@case_page("view")
def payment_detail(request: AuthenticatedRequest, case: Case, payment_id: str) -> HttpResponse:
    payment = selectors.payment_get(case, payment_id)
    record("payment.view", actor=request.user, case=case, obj=payment)
    can_edit = policy.may(request.user, case, "edit")
    return render(
        request,
        "assistance/payment_detail.html",
        {
            "case": case,
            "payment": payment,
            "amount": money(payment.amount, payment.currency),
            "limit": money(payment.approval_limit, payment.currency),
            "receipts": selectors.payment_receipts(payment),
            "can_edit": can_edit,
            "receipt_form": ReceiptForm() if can_edit else None,
            "may_decide": services.may_decide(request.user, payment),
            "decision_form": Decision(),
        },
    )


@login_required
@require_POST
@case_page("approve_payment")
def payment_decide(request: AuthenticatedRequest, case: Case, payment_id: str) -> HttpResponse:
    payment = selectors.payment_get(case, payment_id)
    form = Decision(request.POST)
    if form.is_valid():
        try:
            services.payment_decide(
                actor=request.user,
                payment=payment,
                approve=form.cleaned_data["decision"] == Decision.APPROVE,
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Decision saved."))
            return redirect("assistance:payment", case.public_id, payment.public_id)
    return render(
        request,
        "assistance/payment_detail.html",
        {
            "case": case,
            "payment": payment,
            "amount": money(payment.amount, payment.currency),
            "limit": money(payment.approval_limit, payment.currency),
            "receipts": selectors.payment_receipts(payment),
            "can_edit": False,
            "may_decide": services.may_decide(request.user, payment),
            "decision_form": form,
        },
    )


@login_required
@require_POST
@case_page("edit")
def receipt_add(request: AuthenticatedRequest, case: Case, payment_id: str) -> HttpResponse:
    payment = selectors.payment_get(case, payment_id)
    form = ReceiptForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            services.receipt_add(
                actor=request.user, payment=payment, receipts=form.cleaned_data["receipt"]
            )
        except files.EvidenceRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Receipt added."))
    else:
        for problem in form.errors.get("receipt", []):
            messages.error(request, str(problem))
    return redirect("assistance:payment", case.public_id, payment.public_id)


@login_required
@require_http_methods(["GET"])
@case_page("view", read="payment.receipt_view")
def receipt_file(request: AuthenticatedRequest, case: Case, receipt_id: str) -> HttpResponse:
    """The receipt itself: never cached, with its own policy so that nothing in it runs."""
    receipt = selectors.receipt_get(case, receipt_id)
    data = services.receipt_open(actor=request.user, receipt=receipt)
    response = HttpResponse(
        data, content_type=files.SERVED_AS.get(receipt.content_type, receipt.content_type)
    )
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    extension = files.TYPES[receipt.content_type].extensions[0]
    response["Content-Disposition"] = (
        f'inline; filename="receipt-{receipt.public_id[:8]}{extension}"'
    )
    response._csp_exempt = True  # type: ignore[attr-defined]
    response["X-Frame-Options"] = "SAMEORIGIN"
    response["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'self'; sandbox"
    if receipt.content_type == "application/pdf" and not files.pdf_active_content(data):
        response["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'self'"
    return response


# --- The agency's settings ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def assistance_settings(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied
    agency_id = policy.agency_id_of(request.user)
    if agency_id is None:
        raise PermissionDenied
    row = services.assistance_settings(agency_id)
    form = SettingsForm(
        request.POST if request.POST.get("form") == "settings" else None,
        initial={"currency": row.currency, "approval_limit": row.approval_limit},
    )
    fund_form = FundForm(request.POST if request.POST.get("form") == "fund" else None)
    if request.method == "POST":
        try:
            if form.is_bound and form.is_valid():
                services.settings_save(
                    actor=request.user,
                    currency=form.cleaned_data["currency"],
                    approval_limit=form.cleaned_data["approval_limit"],
                )
                messages.success(request, _("Settings saved."))
                return redirect("assistance:settings")
            if fund_form.is_bound and fund_form.is_valid():
                services.funding_source_add(actor=request.user, name=fund_form.cleaned_data["name"])
                messages.success(request, _("Fund added."))
                return redirect("assistance:settings")
            if request.POST.get("form") == "retire":
                source = selectors.funding_source_get(agency_id, request.POST.get("fund", ""))
                services.funding_source_retire(actor=request.user, source=source)
                messages.success(request, _("Fund retired: past payments still name it."))
                return redirect("assistance:settings")
        except ValidationError as exc:
            fund_form.add_error(None, exc)
    else:
        record("assistance.settings.view", actor=request.user)
    return render(
        request,
        "assistance/settings.html",
        {
            "form": form,
            "fund_form": fund_form,
            "sources": services.funding_sources(agency_id, active_only=False),
        },
    )
