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
from django.db import IntegrityError, transaction
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
from caseflow.cases import journey
from caseflow.cases import selectors as case_selectors
from caseflow.cases import services as case_services
from caseflow.cases.fields import field_config
from caseflow.cases.forms import IntakeForm, offer_to_open_despite_conflict
from caseflow.cases.models import PartyRole
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
            _errors_onto(form, exc)
        else:
            if call.is_anonymous:
                messages.success(
                    request, _("Anonymous call saved. It counts; nothing about the caller is kept.")
                )
            else:
                messages.success(request, _("Call saved."))
            return redirect("calls:detail", call.public_id)
    return render(request, "calls/new.html", {"form": form})


def _errors_onto(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


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
        },
    )


def _takeable(request: AuthenticatedRequest, call_id: str) -> Call:
    call = selectors.call_get_for(request.user, call_id)
    if not policy.may_take_on_call(request.user, call):
        raise PermissionDenied
    return call


def _iso(value) -> str | None:
    return value.isoformat() if value else None


@login_required
@require_http_methods(["GET", "POST"])
def call_open_case(request: AuthenticatedRequest, call_id: str) -> HttpResponse:
    """Open a case from the call with the intake's own form and checks: the survivor's earlier
    case is offered first, a possible conflict needs its own button, and the case is opened by
    ``journey.case_open``."""
    call = _takeable(request, call_id)
    teams = policy.intake_teams(request.user)
    if not teams.exists():
        raise PermissionDenied
    intake_fields = field_config(request).settings
    initial: dict[str, Any] = {"team": teams.first()}
    if call.caller_kind == CallerKind.SURVIVOR:
        initial["survivor_full_name"] = call.caller_name or ""
        initial["survivor_phone"] = call.caller_phone or ""
    form = IntakeForm(
        request.POST or None, teams=teams, field_config=intake_fields, initial=initial
    )
    form.helper.form_id = "intake-form"
    check = None
    earlier = None
    if request.method == "POST" and form.is_valid():
        other = form.other_party()
        agency_id = form.cleaned_data["team"].agency_id
        survivor_dob = _iso(form.cleaned_data.get("survivor_date_of_birth"))
        earlier = journey.earlier_cases(
            actor=request.user,
            agency_id=agency_id,
            full_name=form.cleaned_data["survivor_full_name"],
            date_of_birth=survivor_dob,
        )
        chosen = _earlier_case_choice(request, form, call, earlier, other)
        if chosen is not None:
            return chosen
        people = [(PartyRole.SURVIVOR, form.cleaned_data["survivor_full_name"], survivor_dob)]
        if other:
            people.append((PartyRole.OTHER_PARTY, other["full_name"], _iso(other["date_of_birth"])))
        check = case_services.conflict_check(agency_id=agency_id, people=people)
        if earlier and "new_anyway" not in request.POST:
            record(
                "intake.earlier_case",
                actor=request.user,
                detail={
                    "choice": "offered",
                    "cases": [c.pk for c in earlier.yours],
                    "elsewhere": len(earlier.elsewhere),
                },
            )
            check = None
        elif check.found and "despite_conflict" not in request.POST:
            record("case.conflict_warning", actor=request.user)
        else:
            try:
                with transaction.atomic():
                    case = services.call_open_case(
                        actor=request.user,
                        call=call,
                        team=form.cleaned_data["team"],
                        survivor=form.survivor(),
                        other_party=other,
                        summary=form.cleaned_data.get("summary", ""),
                        reference=form.cleaned_data["reference"],
                    )
            except IntegrityError:
                form.add_error("reference", _("Another case already has this reference."))
            else:
                if case.conflict_flag:
                    messages.warning(
                        request,
                        _(
                            "Opened despite a possible conflict: the case is flagged and your "
                            "supervisor has been told."
                        ),
                    )
                messages.success(
                    request,
                    gettext("Case %(reference)s opened from the call.")
                    % {"reference": case.reference},
                )
                return redirect("cases:detail", case.public_id)
    if check is not None and check.found:
        offer_to_open_despite_conflict(form)
    offer = bool(earlier) and "new_anyway" not in request.POST
    if offer:
        form.helper.inputs = []  # type: ignore[attr-defined]
    return render(
        request,
        "calls/open_case.html",
        {
            "call": call,
            "form": form,
            "conflict": check is not None and check.found,
            "earlier": earlier if offer else None,
            "new_anyway": "new_anyway" in request.POST,
        },
    )


def _earlier_case_choice(
    request: AuthenticatedRequest, form: IntakeForm, call: Call, earlier, other: dict | None
) -> HttpResponse | None:
    """The duty worker chose the survivor's earlier case: take it up with the call on it, or ask
    the supervisors of the team that holds it (the call stays as it is). ``None`` otherwise."""
    if not earlier:
        return None
    wanted = request.POST.get("reopen", "")
    if wanted:
        case = next((c for c in earlier.yours if c.public_id == wanted), None)
        if case is None:
            form.add_error(None, gettext("That case cannot be reopened from here."))
            return None
        services.call_take_up_earlier(
            actor=request.user,
            call=call,
            case=case,
            summary=form.cleaned_data.get("summary", ""),
            other_party=other,
        )
        messages.success(
            request,
            gettext("The call is on case %(reference)s, with everything from before.")
            % {"reference": case.reference},
        )
        return redirect("cases:detail", case.public_id)
    if "ask_reopen" in request.POST and earlier.elsewhere:
        journey.reopen_request_create(
            actor=request.user,
            case_ids=earlier.elsewhere,
            note=form.cleaned_data.get("summary", ""),
        )
        record(
            "intake.earlier_case",
            actor=request.user,
            detail={"choice": "asked_supervisor", "elsewhere": len(earlier.elsewhere)},
        )
        messages.success(
            request,
            gettext(
                "Your request was sent to the supervisors of the team that holds the survivor's "
                "earlier case. The call is kept here until then."
            ),
        )
        return redirect("calls:detail", call.public_id)
    return None


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
