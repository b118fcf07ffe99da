"""The "Count this as a service" form from a note, a stay, a hearing (case pages: the case is
resolved through policy by ``case_page``) or a call (resolved through policy's call condition),
and the agency admin's catalogue. Each view binds a form, calls a service and redirects."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.lib.form_parts import errors_onto
from caseflow.servicelog import selectors, services
from caseflow.servicelog.forms import CategoryForm, SchemesForm, ServiceCountForm
from caseflow.servicelog.models import Source


def _count(
    request: AuthenticatedRequest, kind: str, source: Any, agency_id: int, back: str
) -> HttpResponse:
    form = ServiceCountForm(
        request.POST or None,
        choices=selectors.category_choices(agency_id),
        initial={
            "category": selectors.suggested_category(agency_id, kind, source),
            "minutes": selectors.suggested_minutes(kind, source),
            "given_on": timezone.localdate(),
        },
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.service_record(
                actor=request.user,
                source_kind=kind,
                source=source,
                category=d["category"],
                minutes=d["minutes"],
                given_on=d["given_on"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("Service counted."))
            return redirect(back)
    return render(
        request,
        "servicelog/count.html",
        {
            "form": form,
            "source_label": Source(kind).label,
            "counted": selectors.counted_from(kind, source),
            "back": back,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def from_note(request: AuthenticatedRequest, case: Case, source_id: str) -> HttpResponse:
    note = selectors.in_case(case, "note", source_id)
    back = reverse("casework:note", args=[case.public_id, note.public_id])
    return _count(request, "note", note, case.agency_id, back)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def from_stay(request: AuthenticatedRequest, case: Case, source_id: str) -> HttpResponse:
    stay = selectors.in_case(case, "stay", source_id)
    back = reverse("shelter:stay", args=[case.public_id, stay.public_id])
    return _count(request, "stay", stay, case.agency_id, back)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def from_hearing(request: AuthenticatedRequest, case: Case, source_id: str) -> HttpResponse:
    hearing = selectors.in_case(case, "hearing", source_id)
    back = reverse("court:hearing", args=[case.public_id, hearing.public_id])
    return _count(request, "hearing", hearing, case.agency_id, back)


@login_required
@require_http_methods(["GET", "POST"])
def from_call(request: AuthenticatedRequest, call_id: str) -> HttpResponse:
    call = selectors.call_for(request.user, call_id)
    if call.case_id is not None and not policy.may(request.user, call.case, "edit"):
        raise PermissionDenied
    back = reverse("calls:detail", args=[call.public_id])
    return _count(request, "call", call, call.agency_id, back)


@login_required
@require_http_methods(["GET", "POST"])
def categories(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied
    agency_id = policy.agency_id_of(request.user)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    schemes_form = SchemesForm(
        request.POST if action == "schemes" else None,
        initial={"schemes": selectors.agency_schemes(agency_id)},
    )
    category_form = CategoryForm(request.POST if action == "add" else None)
    if action == "schemes" and schemes_form.is_valid():
        try:
            services.service_schemes_save(
                actor=request.user, schemes=schemes_form.cleaned_data["schemes"]
            )
        except ValidationError as exc:
            errors_onto(schemes_form, exc)
        else:
            messages.success(request, _("Schemes saved."))
            return redirect("servicelog:categories")
    elif action == "add" and category_form.is_valid():
        try:
            services.service_category_add(
                actor=request.user, label=category_form.cleaned_data["label"]
            )
        except ValidationError as exc:
            errors_onto(category_form, exc)
        else:
            messages.success(request, _("Category added."))
            return redirect("servicelog:categories")
    elif action in ("retire", "restore"):
        try:
            services.service_category_set_active(
                actor=request.user,
                category_id=request.POST.get("category", ""),
                active=action == "restore",
            )
        except ValidationError as exc:
            messages.error(request, exc.messages[0])
        else:
            messages.success(request, _("Category saved."))
        return redirect("servicelog:categories")
    elif request.method == "GET":
        record("service_count.categories_view", actor=request.user, agency_id=agency_id)
    return render(
        request,
        "servicelog/categories.html",
        {
            "schemes_form": schemes_form,
            "category_form": category_form,
            "own": selectors.agency_categories(agency_id),
        },
    )
