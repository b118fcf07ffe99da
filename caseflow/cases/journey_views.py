"""Pages of the survivor's journey: the closure (reason, exit check, outcomes, a supervisor's
approval), the journey with its trend picture, the risk level's source and its change by hand,
requests to reopen an earlier case, and the agency's closure reasons."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases import features, journey, trend
from caseflow.cases.forms import (
    ClosureDecisionForm,
    ClosureForm,
    ClosureReasonForm,
    RiskLevelForm,
)
from caseflow.cases.models import (
    Case,
    CaseStatus,
    ClosureReason,
    ClosureState,
    ReopenRequest,
    RiskLevel,
)
from caseflow.cases.pages import case_page
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import says_idva


def _closure_initial(closure) -> dict:
    if closure is None:
        return {}
    return {name: getattr(closure, name) for name in journey.CLOSURE_FIELDS}


def _propose(form: ClosureForm, case: Case, initial: dict) -> None:
    """Start the fields nothing was entered in yet with what the case's features propose (her
    own rating for "feels safer"), saying under each what it was read from."""
    for name, (value, words) in features.closure_proposals(case).items():
        if name not in form.fields or initial.get(name):
            continue
        form.initial[name] = value
        form.fields[name].help_text = words


@login_required
@require_http_methods(["GET", "POST"])
@case_page("change_status", read="closure.view")
def closure(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Close the case: reason, exit check of the safety plan, outcomes. What is still running
    is listed and cancelled with it. A high-risk case waits for a supervisor's approval."""
    pending = journey.pending_closure(case)
    if pending is not None:
        pending.case = case
    reasons = journey.closure_reasons(case.agency_id)
    high = journey.needs_approval(case)
    submit = (
        gettext("Ask a supervisor to approve the closure") if high else gettext("Close the case")
    )
    awaiting = pending is not None and pending.state == ClosureState.AWAITING_APPROVAL
    form = None
    if case.status != CaseStatus.CLOSED and not awaiting:
        initial = _closure_initial(pending)
        form = ClosureForm(
            request.POST or None,
            reasons=reasons,
            submit_label=submit,
            open_needs=journey.closure_need_choices(case),
            initial=initial,
        )
        _propose(form, case, initial)
        if request.method == "POST" and form.is_valid():
            try:
                with transaction.atomic():
                    done = journey.closure_submit(
                        actor=request.user, case=case, data=form.cleaned_data
                    )
            except ValidationError as exc:
                form.add_error(None, exc.messages[0])
            else:
                if done.state == ClosureState.CLOSED:
                    messages.success(request, gettext("Case closed. Its outcomes are recorded."))
                else:
                    messages.info(
                        request,
                        gettext(
                            "The closure is waiting for a supervisor's approval. The case stays "
                            "open until then."
                        ),
                    )
                return redirect("cases:detail", case.public_id)
    elif request.method == "POST":
        raise PermissionDenied
    decision = None
    if awaiting and pending is not None and journey.may_approve(request.user, pending):
        decision = ClosureDecisionForm()
    return _closure_page(request, case, pending=pending, form=form, decision=decision, high=high)


def _closure_page(
    request: AuthenticatedRequest,
    case: Case,
    *,
    pending,
    form,
    decision,
    high: bool,
    status: int = 200,
) -> HttpResponse:
    record(
        "closure.view",
        actor=request.user,
        case=case,
        obj=case,
        detail={"pending": pending.state if pending else ""},
    )
    episode = journey.current_episode(case)
    return render(
        request,
        "cases/closure.html",
        {
            "case": case,
            "form": form,
            "pending": pending,
            "decision": decision,
            "high": high,
            "approved": journey.approved_closure(case)
            if case.status == CaseStatus.CLOSED
            else None,
            "open_work": journey.open_work(case) if case.status != CaseStatus.CLOSED else [],
            "risk_at_intake": (
                RiskLevel(journey.risk_at_intake(case, episode)).label if episode else ""
            ),
            "risk_source": journey.risk_source(case),
            "own_request": pending is not None and pending.requested_by_id == request.user.pk,
            "pending_needs_met": journey.closure_need_labels(case, pending) if pending else [],
        },
        status=status,
    )


@login_required
@require_POST
@case_page("approve_closure")
def closure_decide(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    pending = journey.pending_closure(case)
    if pending is None or pending.state != ClosureState.AWAITING_APPROVAL:
        messages.error(request, gettext("There is no closure waiting for approval."))
        return redirect("cases:detail", case.public_id)
    pending.case = case
    form = ClosureDecisionForm(request.POST)
    approve = request.POST.get("decision") == "approve"
    if form.is_valid():
        try:
            journey.closure_decide(
                actor=request.user,
                closure=pending,
                approve=approve,
                comment=form.cleaned_data["comment"],
            )
        except ValidationError as exc:
            form.add_error("comment", exc.messages[0])
        else:
            messages.success(
                request,
                gettext("Closure approved: the case is closed.")
                if approve
                else (
                    gettext("Closure returned to the IDVA.")
                    if says_idva()
                    else gettext("Closure returned to the advocate.")
                ),
            )
            return redirect("cases:detail", case.public_id)
    # The reason typed stays on the form, with what is missing beside it.
    return _closure_page(
        request,
        case,
        pending=pending,
        form=None,
        decision=form,
        high=journey.needs_approval(case),
        status=400,
    )


@login_required
@require_http_methods(["GET"])
@case_page("view", read="journey.view")
def journey_page(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Every episode of the case, its closure and outcomes, and the trend across them."""
    episodes = journey.episodes_of(case)
    for episode in episodes:
        closure = getattr(episode, "closure", None) if hasattr(episode, "closure") else None
        words = journey.closure_need_labels(case, closure) if closure is not None else []
        setattr(episode, "needs_met_words", words)  # noqa: B010 (shown with its episode)
    picture = trend.build(case, episodes)
    record(
        "journey.view",
        actor=request.user,
        case=case,
        obj=case,
        detail={"episodes": len(episodes)},
    )
    return render(
        request,
        "cases/journey.html",
        {
            "case": case,
            "episodes": episodes,
            "trend": picture,
            "risk_history": journey.risk_history(case),
            "risk_source": journey.risk_source(case),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def risk_level(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Change the risk level by hand, with a reason (below the latest assessment, the
    supervisors are told)."""
    form = RiskLevelForm(
        request.POST or None, current=case.risk_level, initial={"version": case.version}
    )
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                change = journey.risk_level_override(
                    actor=request.user,
                    case=case,
                    level=form.cleaned_data["risk_level"],
                    reason=form.cleaned_data["reason"],
                    expected_version=form.cleaned_data["version"],
                )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            form.add_error(None, exc.messages[0])
        else:
            if change.below_assessment:
                messages.warning(
                    request,
                    gettext(
                        "Risk level changed, below the latest assessment: your supervisor has "
                        "been told."
                    ),
                )
            else:
                messages.success(request, gettext("Risk level changed."))
            return redirect("cases:detail", case.public_id)
    return render(
        request,
        "cases/risk_level.html",
        {
            "case": case,
            "form": form,
            "risk_source": journey.risk_source(case),
            "assessed": journey.latest_assessed(case),
        },
    )


@login_required
@require_POST
@case_page("assign")
def reopen_request_decide(
    request: AuthenticatedRequest, case: Case, request_id: str
) -> HttpResponse:
    asked = (
        ReopenRequest.objects.filter(case=case, public_id=request_id)
        .select_related("requested_by")
        .first()
    )
    if asked is None:
        raise Http404("No such request")
    asked.case = case
    accept = request.POST.get("decision") == "reopen"
    try:
        journey.reopen_request_decide(actor=request.user, asked=asked, accept=accept)
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
    else:
        messages.success(
            request,
            gettext("Case reopened and assigned.") if accept else gettext("Request declined."),
        )
    return redirect("cases:detail", case.public_id)


# --- The agency's closure reasons (agency admins) ----------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def closure_reasons(request: AuthenticatedRequest) -> HttpResponse:
    """The reasons cases of the agency are closed for: the standard ones and the agency's own,
    which the agency admin adds and retires (a retired reason stays on the closures using it)."""
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied
    agency_id = policy.agency_id_of(request.user)
    assert agency_id is not None
    journey.ensure_standard_reasons(agency_id)
    form = ClosureReasonForm(request.POST if "label" in request.POST else None)
    if request.method == "POST":
        toggle = request.POST.get("toggle", "")
        if toggle:
            reason = ClosureReason.objects.filter(
                agency_id=agency_id, pk=toggle, standard=""
            ).first()
            if reason is None:
                raise Http404("No such reason")
            reason.active = not reason.active
            reason.save(update_fields=["active"])
            record(
                "closure_reason.save",
                actor=request.user,
                detail={"reason": reason.pk, "active": reason.active},
            )
            return redirect("cases:closure_reasons")
        if form.is_valid():
            try:
                with transaction.atomic():
                    reason = ClosureReason.objects.create(
                        agency_id=agency_id, label=form.cleaned_data["label"].strip()
                    )
            except IntegrityError:
                form.add_error("label", gettext("Your agency already has this reason."))
            else:
                record(
                    "closure_reason.save",
                    actor=request.user,
                    detail={"reason": reason.pk, "active": True},
                )
                messages.success(request, gettext("Reason added."))
                return redirect("cases:closure_reasons")
    reasons = ClosureReason.objects.filter(agency_id=agency_id).order_by(
        "-active", "position", "label"
    )
    return render(request, "cases/closure_reasons.html", {"form": form, "reasons": reasons})
