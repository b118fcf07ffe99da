"""The duty line: log a call, the agency's call list, a call's page, and taking a call on (a new
case through the case's own intake checks, the survivor's earlier case, or a case found by
name). Each view resolves the call through policy (``selectors.call_get_for``), binds a form,
calls a service and redirects; reads are audited here."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.calls import selectors, services
from caseflow.calls.forms import AttachSearchForm, CallForm
from caseflow.calls.models import Call, CallerKind
from caseflow.cases import selectors as case_selectors
from caseflow.cases.forms import IntakeForm
from caseflow.cases.intake_flow import IntakeWay, intake_form, run_intake
from caseflow.cases.models import Case, PartyRole
from caseflow.lib.form_parts import errors_onto
from caseflow.lib.i18n import gettext_lazy as _

#: How many days of counts the list shows, and how far back its rows go.
COUNT_DAYS = 14
LIST_DAYS = 31


def _require_logger(request: AuthenticatedRequest) -> None:
    if not policy.may_log_calls(request.user):
        raise PermissionDenied


@login_required
@require_http_methods(["GET"])
def call_list(request: AuthenticatedRequest) -> HttpResponse:
    _require_logger(request)
    rows = selectors.call_rows(request.user, since=timezone.now() - dt.timedelta(days=LIST_DAYS))
    days = selectors.counts_by_day(request.user, days=COUNT_DAYS)
    record("call.list", actor=request.user, detail={"calls": len(rows)})
    return render(
        request,
        "calls/list.html",
        {"rows": rows, "days": days, "list_days": LIST_DAYS, "count_days": COUNT_DAYS},
    )


@login_required
@require_http_methods(["GET", "POST"])
def call_new(request: AuthenticatedRequest) -> HttpResponse:
    _require_logger(request)
    form = CallForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            call = services.call_log(
                actor=request.user,
                caller_kind=d["caller_kind"],
                taken_at=d["taken_at"],
                duration_minutes=d.get("duration_minutes"),
                needs=d.get("needs", []),
                safety_concerns=d.get("safety_concerns", []),
                responses=d.get("responses", []),
                follow_up_wanted=d.get("follow_up_wanted", False),
                caller_name=d.get("caller_name"),
                caller_phone=d.get("caller_phone"),
                notes=d.get("notes"),
                safety_detail=d.get("safety_detail"),
                follow_up_detail=d.get("follow_up_detail"),
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            if call.is_anonymous:
                messages.success(
                    request, _("Anonymous call saved. It counts; nothing about the caller is kept.")
                )
            else:
                messages.success(request, _("Call saved."))
            return redirect("calls:detail", call.public_id)
    return render(request, "calls/new.html", {"form": form})


@login_required
@require_http_methods(["GET"])
def call_detail(request: AuthenticatedRequest, call_id: str) -> HttpResponse:
    call = selectors.call_get_for(request.user, call_id)
    record("call.view", actor=request.user, case=call.case, obj=call, agency_id=call.agency_id)
    return render(
        request,
        "calls/detail.html",
        {
            "call": call,
            "may_take_on": policy.may_take_on_call(request.user, call),
            "may_see_case": call.case is not None,
            "may_count": call.case is None or policy.may(request.user, call.case, "edit"),
        },
    )


def _takeable(request: AuthenticatedRequest, call_id: str) -> Call:
    call = selectors.call_get_for(request.user, call_id)
    if not policy.may_take_on_call(request.user, call):
        raise PermissionDenied
    return call


@login_required
@require_http_methods(["GET", "POST"])
def call_open_case(request: AuthenticatedRequest, call_id: str) -> HttpResponse:
    """Open a case from the call with the intake's own form and steps
    (:mod:`caseflow.cases.intake_flow`): the survivor's earlier case is offered first, a possible
    conflict needs its own button, and the case is opened by ``journey.case_open``."""
    call = _takeable(request, call_id)
    initial: dict[str, Any] = {"team": policy.intake_teams(request.user).first()}
    if call.caller_kind == CallerKind.SURVIVOR:
        initial["survivor_full_name"] = call.caller_name or ""
        initial["survivor_phone"] = call.caller_phone or ""
    form = intake_form(request, initial=initial)

    def open_case(form: IntakeForm, other: dict | None) -> Case:
        return services.call_open_case(
            actor=request.user,
            call=call,
            team=form.cleaned_data["team"],
            survivor=form.survivor(),
            other_party=other,
            summary=form.cleaned_data.get("summary", ""),
            reference=form.cleaned_data["reference"],
        )

    def take_up(case: Case, summary: str, other: dict | None) -> None:
        services.call_take_up_earlier(
            actor=request.user, call=call, case=case, summary=summary, other_party=other
        )

    result = run_intake(
        request,
        form,
        IntakeWay(
            open_case=open_case,
            take_up=take_up,
            opened=_("Case %(reference)s opened from the call."),
            taken_up=_("The call is on case %(reference)s, with everything from before."),
            asked=_(
                "Your request was sent to the supervisors of the team that holds the survivor's "
                "earlier case. The call is kept here until then."
            ),
            after_asking=lambda: redirect("calls:detail", call.public_id),
        ),
    )
    if isinstance(result, HttpResponse):
        return result
    return render(request, "calls/open_case.html", {"call": call, **result})


@login_required
@require_http_methods(["GET", "POST"])
def call_attach(request: AuthenticatedRequest, call_id: str) -> HttpResponse:
    """Put the call on an existing case, found by the survivor's name among the cases the duty
    worker may see (the search is audited with what it found, never the name)."""
    call = _takeable(request, call_id)
    form = AttachSearchForm()
    chosen = request.POST.get("case", "") if request.method == "POST" else ""
    if chosen:
        case = selectors.case_to_attach_to(request.user, chosen)
        services.call_attach(actor=request.user, call=call, case=case)
        messages.success(
            request, gettext("The call is on case %(reference)s.") % {"reference": case.reference}
        )
        return redirect("cases:detail", case.public_id)
    found = None
    if request.method == "POST":
        form = AttachSearchForm(request.POST)
        if form.is_valid():
            result = case_selectors.find_by_name(
                request.user, name=form.cleaned_data["name"], role=PartyRole.SURVIVOR
            )
            record(
                "case.search_name",
                actor=request.user,
                detail={
                    "role": PartyRole.SURVIVOR,
                    "cases": [c.pk for c in result.cases],
                    "elsewhere": result.elsewhere,
                },
            )
            found = [c for c in result.cases if policy.may(request.user, c, "edit")]
    return render(request, "calls/attach.html", {"call": call, "form": form, "found": found})
