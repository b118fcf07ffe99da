"""A case's court hearings: record one, confirm the safety steps it proposes, change it, and
record its outcome afterwards. Each view resolves the case through policy (``case_page``), looks
the hearing up inside that case, calls a service and redirects; reading a hearing is audited."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.court import selectors, services, steps
from caseflow.court.forms import HearingForm, OutcomeForm, StepsForm
from caseflow.court.orders import linked_orders, plan_orders
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.form_parts import errors_onto


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def hearing_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = HearingForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            hearing = services.hearing_record(
                actor=request.user,
                case=case,
                court=d["court"],
                kind=d["kind"],
                starts_at=d["starts_at"],
                attendance=d["attendance"],
                support=d["support"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("Hearing recorded."))
            if hearing.starts_at > timezone.now():
                return redirect("court:steps", case.public_id, hearing.public_id)
            return redirect("court:hearing", case.public_id, hearing.public_id)
    return render(
        request, "court/form.html", {"case": case, "form": form, "title": _("Record a hearing")}
    )


@login_required
@require_http_methods(["GET"])
@case_page("view")
def hearing_detail(request: AuthenticatedRequest, case: Case, hearing_id: str) -> HttpResponse:
    hearing = selectors.hearing_get(case, hearing_id)
    record("hearing.view", actor=request.user, case=case, obj=hearing)
    orders, gone = linked_orders(case, list(hearing.orders or []))
    return render(
        request,
        "court/hearing_detail.html",
        {
            "case": case,
            "hearing": hearing,
            "orders": orders,
            "orders_gone": gone,
            "past": hearing.is_past(),
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def hearing_change(request: AuthenticatedRequest, case: Case, hearing_id: str) -> HttpResponse:
    hearing = selectors.hearing_get(case, hearing_id)
    form = HearingForm(
        request.POST or None,
        submit=_("Save the hearing"),
        initial={
            "kind": hearing.kind,
            "court": hearing.court,
            "starts_at": timezone.localtime(hearing.starts_at),
            "attendance": hearing.attendance,
            "support": hearing.support,
            "version": hearing.version,
        },
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            changed = services.hearing_update(
                actor=request.user,
                hearing=hearing,
                expected_version=d["version"] or 0,
                court=d["court"],
                kind=d["kind"],
                starts_at=d["starts_at"],
                attendance=d["attendance"],
                support=d["support"],
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("Hearing saved."))
            if "starts_at" in changed and hearing.starts_at > timezone.now():
                return redirect("court:steps", case.public_id, hearing.public_id)
            return redirect("court:hearing", case.public_id, hearing.public_id)
    return render(
        request, "court/form.html", {"case": case, "form": form, "title": _("Change the hearing")}
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def hearing_outcome(request: AuthenticatedRequest, case: Case, hearing_id: str) -> HttpResponse:
    hearing = selectors.hearing_get(case, hearing_id)
    if not hearing.is_past():
        messages.info(request, _("The outcome can be recorded once the hearing has started."))
        return redirect("court:hearing", case.public_id, hearing.public_id)
    choices = plan_orders(case)
    form = OutcomeForm(
        request.POST or None,
        plan_orders=choices,
        initial={
            "outcome": hearing.outcome,
            "attendance": hearing.attendance,
            "orders": hearing.orders,
            "notes": hearing.outcome_notes,
            "version": hearing.version,
        },
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.hearing_outcome_record(
                actor=request.user,
                hearing=hearing,
                expected_version=d["version"],
                outcome=d["outcome"],
                attendance=d["attendance"],
                orders=d["orders"],
                notes=d["notes"],
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("Outcome recorded."))
            return redirect("court:hearing", case.public_id, hearing.public_id)
    return render(
        request,
        "court/outcome.html",
        {"case": case, "form": form, "hearing": hearing, "has_orders": bool(choices)},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def hearing_steps(request: AuthenticatedRequest, case: Case, hearing_id: str) -> HttpResponse:
    hearing = selectors.hearing_get(case, hearing_id)
    proposed = steps.proposed_steps(case, hearing)
    open_steps = [s for s in proposed if s.available]
    form = StepsForm(
        request.POST or None,
        choices=[(s.code, s.label) for s in open_steps],
        initial={"steps": [s.code for s in open_steps]},
    )
    if request.method == "POST" and form.is_valid():
        added, problems = steps.hearing_steps_add(
            actor=request.user, hearing=hearing, codes=form.cleaned_data["steps"]
        )
        if added:
            messages.success(
                request,
                ngettext(
                    "%(count)d safety step added.", "%(count)d safety steps added.", len(added)
                )
                % {"count": len(added)},
            )
        for problem in problems:
            messages.warning(request, problem)
        if not added and not problems:
            messages.info(request, _("No safety step added."))
        return redirect("court:hearing", case.public_id, hearing.public_id)
    return render(
        request,
        "court/steps.html",
        {"case": case, "hearing": hearing, "form": form, "proposed": proposed},
    )
