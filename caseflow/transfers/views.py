"""Transfer pages. On the sending case: asking a service on caseflow to take it on, and the
transfer pack for a service not on caseflow (the case resolved through policy). In the receiving
agency: its supervisors' list of transfers in, and their answer. Views bind a form and call a
service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.confidentiality import selectors as confidentiality_selectors
from caseflow.confidentiality.views import export_download
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.transfers import services
from caseflow.transfers.forms import (
    ACCEPT,
    DecideForm,
    TransferExternalForm,
    TransferRequestForm,
)
from caseflow.transfers.models import TransferState


def _may_transfer(request: AuthenticatedRequest, case: Case) -> None:
    if not policy.may_transfer(request.user, case):
        raise PermissionDenied


def _form_page(request, case, form, title, intro) -> HttpResponse:
    return render(
        request,
        "confidentiality/case_form.html",
        {"case": case, "form": form, "title": title, "intro": intro},
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def transfer_request(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    _may_transfer(request, case)
    form = TransferRequestForm(
        request.POST or None,
        releases=confidentiality_selectors.case_releases(case),
        agencies=services.receiving_agencies(case),
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.transfer_request(
                actor=request.user,
                case=case,
                receiving_agency=d["receiving_agency"],
                release_id=d["release"],
                categories=d["categories"],
            )
        except services.TransferRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                _("Transfer asked for: the case stays with you until the other service answers."),
            )
            return redirect("cases:detail", case.public_id)
    return _form_page(
        request,
        case,
        form,
        _("Transfer the case to another service"),
        _(
            "A supervisor of the other service takes the case on or refuses it. If they take it "
            "on, a new case opens there with what the release covers, and this case closes as "
            "transferred. Only under a valid release that names the service."
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def transfer_external(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    _may_transfer(request, case)
    form = TransferExternalForm(
        request.POST or None, releases=confidentiality_selectors.case_releases(case)
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            pack = services.transfer_external(
                actor=request.user,
                case=case,
                recipient=d["recipient"],
                release_id=d["release"],
                categories=d["categories"],
            )
        except services.TransferRefused as exc:
            form.add_error(None, str(exc))
        else:
            return export_download(pack.export)
    return _form_page(
        request,
        case,
        form,
        _("Transfer pack for a service not on caseflow"),
        _(
            "A file of the parts of the case that go with the transfer, recorded as sent. "
            "Close the case as transferred once the service has taken her on."
        ),
    )


def _deciding(request: AuthenticatedRequest) -> int:
    agency_id = policy.transfer_deciding_agency(request.user)
    if agency_id is None:
        raise PermissionDenied
    return agency_id


@login_required
@require_GET
def incoming(request: AuthenticatedRequest) -> HttpResponse:
    _deciding(request)
    rows = list(services.incoming(request.user)[:100])
    waiting = [t for t in rows if t.state == TransferState.REQUESTED]
    waiting.sort(key=lambda t: t.requested_at)
    decided = [t for t in rows if t.state != TransferState.REQUESTED][:20]
    return render(request, "transfers/incoming.html", {"waiting": waiting, "decided": decided})


@login_required
@require_http_methods(["GET", "POST"])
def decide(request: AuthenticatedRequest, transfer_id: str) -> HttpResponse:
    transfer = services.transfer_for(request.user, transfer_id)
    if transfer is None:
        raise Http404(_("No such transfer"))
    form = DecideForm(request.POST or None, teams=policy.intake_teams(request.user))
    if request.method == "POST" and transfer.state == TransferState.REQUESTED and form.is_valid():
        d = form.cleaned_data
        try:
            if d["decision"] == ACCEPT:
                new_case = services.transfer_accept(
                    actor=request.user, transfer=transfer, team=d["team"]
                )
            else:
                services.transfer_refuse(
                    actor=request.user,
                    transfer=transfer,
                    reason=d["reason"],
                    comment=d["comment"],
                )
        except services.TransferRefused as exc:
            form.add_error(None, str(exc))
        else:
            if d["decision"] == ACCEPT:
                messages.success(request, _("Case taken on: it is now one of your cases."))
                return redirect("cases:detail", new_case.public_id)
            messages.success(request, _("Transfer refused: the other service sees your reason."))
            return redirect("transfers:incoming")
    sections = services.transfer_view(actor=request.user, transfer=transfer)
    return render(
        request,
        "transfers/decide.html",
        {"transfer": transfer, "sections": sections, "form": form},
    )
