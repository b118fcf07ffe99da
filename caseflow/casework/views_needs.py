"""Pages for needs, goals and services. Each view: resolve the case through policy
(``case_page``) → look the record up inside that case → bind the form → call a service in
:mod:`caseflow.casework.needs` → redirect. Reads of a record are audited with its own action."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.casework import needs
from caseflow.casework.forms import GoalForm, NeedForm, NeedStatusForm, ServiceForm
from caseflow.casework.models import NeedStatus
from caseflow.lib.concurrency import StaleEdit


def _form_page(request, case: Case, form, *, title: str, button: str, back: str, **extra: Any):
    return render(
        request,
        "casework/needs_form.html",
        {"case": case, "form": form, "title": title, "button": button, "back": back, **extra},
    )


@login_required
@require_http_methods(["GET"])
@case_page("view", read="needs.view")
def needs_list(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    return render(
        request,
        "casework/needs_list.html",
        {
            "case": case,
            "needs": needs.needs_for(case),
            "other_goals": needs.goals_without_need(case),
            "other_services": needs.services_without_need(case),
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def need_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = NeedForm(request.POST or None, initial={"kind": request.GET.get("kind", "")})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        need = needs.need_create(
            actor=request.user,
            case=case,
            kind=data["kind"],
            detail=data["detail"],
            status=data["status"],
            identified_on=data.get("identified_on"),
        )
        messages.success(request, gettext("Need recorded."))
        return redirect("casework:need", case.public_id, need.public_id)
    return _form_page(
        request,
        case,
        form,
        title=gettext("Record a need"),
        button=gettext("Save need"),
        back=reverse("cases:detail", args=[case.public_id]),
    )


@login_required
@require_http_methods(["GET"])
@case_page("view")
def need_detail(request: AuthenticatedRequest, case: Case, need_id: str) -> HttpResponse:
    need = needs.need_get(case, need_id)
    record("need.view", actor=request.user, case=case, obj=need)
    can_edit = policy.may(request.user, case, "edit")
    return render(
        request,
        "casework/need_detail.html",
        {
            "case": case,
            "need": need,
            "can_edit": can_edit,
            "status_form": NeedStatusForm(
                initial={"status": _next_status(need.status), "version": need.version},
                since=need.status_since,
            )
            if can_edit
            else None,
        },
    )


def _next_status(status: str) -> str:
    return {
        NeedStatus.IDENTIFIED: NeedStatus.IN_PROGRESS,
        NeedStatus.IN_PROGRESS: NeedStatus.MET,
    }.get(NeedStatus(status), NeedStatus.IN_PROGRESS)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def need_change(request: AuthenticatedRequest, case: Case, need_id: str) -> HttpResponse:
    need = needs.need_get(case, need_id)
    form = NeedForm(
        request.POST or None,
        change=True,
        initial={"kind": need.kind, "detail": need.detail, "version": need.version},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            needs.need_change(
                actor=request.user,
                need=need,
                expected_version=data["version"],
                kind=data["kind"],
                detail=data["detail"],
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, gettext("Need changed."))
            return redirect("casework:need", case.public_id, need.public_id)
    record("need.view", actor=request.user, case=case, obj=need, detail={"page": "need_change"})
    return _form_page(
        request,
        case,
        form,
        title=gettext("Change the need"),
        button=gettext("Save changes"),
        back=reverse("casework:need", args=[case.public_id, need.public_id]),
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def need_status(request: AuthenticatedRequest, case: Case, need_id: str) -> HttpResponse:
    need = needs.need_get(case, need_id)
    form = NeedStatusForm(
        request.POST or None,
        initial={"status": _next_status(need.status), "version": need.version},
        since=need.status_since,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            change = needs.need_set_status(
                actor=request.user,
                need=need,
                expected_version=data["version"],
                status=data["status"],
                changed_on=data.get("changed_on"),
                comment=data["comment"],
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            if change is None:
                messages.info(request, gettext("The need already had that status."))
            else:
                messages.success(
                    request,
                    gettext("The need is now: %(status)s.")
                    % {"status": str(NeedStatus(change.to_status).label).lower()},
                )
            return redirect("casework:need", case.public_id, need.public_id)
    record("need.view", actor=request.user, case=case, obj=need, detail={"page": "need_status"})
    return _form_page(
        request,
        case,
        form,
        title=gettext("Change the status of the need"),
        button=gettext("Change status"),
        back=reverse("casework:need", args=[case.public_id, need.public_id]),
        need=need,
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def goal_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = GoalForm(
        request.POST or None,
        needs=needs.need_choices(case),
        initial={"need": request.GET.get("need", "")},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        goal = needs.goal_create(
            actor=request.user,
            case=case,
            description=data["description"],
            need=needs.need_by_id(case, data["need"]),
            target_date=data.get("target_date"),
        )
        messages.success(request, gettext("Goal set."))
        if goal.need is not None:
            return redirect("casework:need", case.public_id, goal.need.public_id)
        return redirect("casework:needs", case.public_id)
    return _form_page(
        request,
        case,
        form,
        title=gettext("Set a goal"),
        button=gettext("Save goal"),
        back=reverse("casework:needs", args=[case.public_id]),
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def goal_change(request: AuthenticatedRequest, case: Case, goal_id: str) -> HttpResponse:
    goal = needs.goal_get(case, goal_id)
    form = GoalForm(
        request.POST or None,
        needs=needs.need_choices(case),
        change=True,
        initial={
            "description": goal.description,
            "need": goal.need.public_id if goal.need else "",
            "target_date": goal.target_date,
            "status": goal.status,
            "version": goal.version,
        },
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            needs.goal_change(
                actor=request.user,
                goal=goal,
                expected_version=data["version"],
                description=data["description"],
                need=needs.need_by_id(case, data["need"]),
                target_date=data.get("target_date"),
                status=data["status"],
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, gettext("Goal changed."))
            return redirect("casework:needs", case.public_id)
    record("goal.view", actor=request.user, case=case, obj=goal)
    return _form_page(
        request,
        case,
        form,
        title=gettext("Change the goal"),
        button=gettext("Save changes"),
        back=reverse("casework:needs", args=[case.public_id]),
    )


def _service_form(request, case: Case, current: Any = None, **kwargs: Any) -> ServiceForm:
    releases = needs.release_choices(case)
    # The release it was made under stays on record even after it has run out.
    kept = current.release if current is not None else None
    if kept is not None and kept.public_id not in dict(releases):
        releases.append((kept.public_id, gettext("The release it was made under")))
    return ServiceForm(
        request.POST or None,
        needs=needs.need_choices(case),
        goals=needs.goal_choices(case),
        notes=needs.note_choices(case),
        releases=releases,
        **kwargs,
    )


def _service_fields(case: Case, data: dict[str, Any], current: Any = None) -> dict[str, Any]:
    release_id = data.get("release", "")
    if (
        current is not None
        and current.release is not None
        and (release_id == current.release.public_id)
    ):
        release = current.release
    else:
        release = needs.release_by_id(case, release_id)
    return {
        **{name: data.get(name) for name in ("how", "provider", "description", "provided_on")},
        "outcome": data.get("outcome") or "",
        "need": needs.need_by_id(case, data.get("need", "")),
        "goal": needs.goal_by_id(case, data.get("goal", "")),
        "note": needs.note_by_id(case, data.get("note", "")),
        "release": release,
    }


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def service_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = _service_form(
        request,
        case,
        initial={
            "need": request.GET.get("need", ""),
            "note": request.GET.get("note", ""),
        },
    )
    if request.method == "POST" and form.is_valid():
        service = needs.service_create(
            actor=request.user,
            case=case,
            fields=_service_fields(case, form.cleaned_data),
        )
        messages.success(request, gettext("Service recorded."))
        if service.need is not None:
            return redirect("casework:need", case.public_id, service.need.public_id)
        return redirect("casework:needs", case.public_id)
    return _form_page(
        request,
        case,
        form,
        title=gettext("Record a service or referral"),
        button=gettext("Save"),
        back=reverse("casework:needs", args=[case.public_id]),
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def service_change(request: AuthenticatedRequest, case: Case, service_id: str) -> HttpResponse:
    service = needs.service_get(case, service_id)
    form = _service_form(
        request,
        case,
        current=service,
        change=True,
        initial={
            "how": service.how,
            "provider": service.provider,
            "description": service.description,
            "provided_on": service.provided_on,
            "outcome": service.outcome,
            "need": service.need.public_id if service.need else "",
            "goal": service.goal.public_id if service.goal else "",
            "note": service.note.public_id if service.note else "",
            "release": service.release.public_id if service.release else "",
            "version": service.version,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            needs.service_change(
                actor=request.user,
                service=service,
                expected_version=form.cleaned_data["version"],
                fields=_service_fields(case, form.cleaned_data, current=service),
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, gettext("Service changed."))
            return redirect("casework:needs", case.public_id)
    record("service.view", actor=request.user, case=case, obj=service)
    return _form_page(
        request,
        case,
        form,
        title=gettext("Change the service or referral"),
        button=gettext("Save changes"),
        back=reverse("casework:needs", args=[case.public_id]),
        note=service.note,
    )
