"""Marking what the other party did after an incident or a logged contact, from the record's own
place on the case; and the agency's own kinds (its agency admin). Each case view resolves the case
through policy (``case_page``), looks the record up inside that case, calls a service and
redirects back to the record's list of what followed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.cases.fields import field_config
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.cycle import catalogue, selectors, services
from caseflow.cycle.forms import AgencyKindForm, MarkForm
from caseflow.lib.form_parts import errors_onto


def _mark_page(request: AuthenticatedRequest, case: Case, *, incident=None, event=None):
    follows = incident if incident is not None else event
    assert follows is not None
    words = field_config(request, case).for_kind("cycle_mark").get("words", {})
    form = MarkForm(
        request.POST or None,
        kinds=catalogue.offered(case.agency_id),
        words=words,
        initial={"at": timezone.localtime(follows.occurred_at).replace(second=0, microsecond=0)},
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.mark_record(
                actor=request.user,
                case=case,
                incident=incident,
                contact_event=event,
                at=d["at"],
                kind=d["kind"],
                words=d.get("words", ""),
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("Recorded: it shows on the journey beside the harm."))
            return redirect(request.path)
    return render(
        request,
        "cycle/mark_form.html",
        {
            "case": case,
            "form": form,
            "incident": incident,
            "event": event,
            "marks": selectors.marks_after(case, incident=incident, event=event),
            "words_hidden": bool(words.get("hidden")),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def mark_after_incident(
    request: AuthenticatedRequest, case: Case, incident_id: str
) -> HttpResponse:
    incident = selectors.incident_get(case, incident_id)
    return _mark_page(request, case, incident=incident)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def mark_after_contact(request: AuthenticatedRequest, case: Case, event_id: str) -> HttpResponse:
    event = selectors.contact_event_get(case, event_id)
    return _mark_page(request, case, event=event)


@login_required
@require_http_methods(["GET", "POST"])
def agency_kinds(request: AuthenticatedRequest) -> HttpResponse:
    """The kinds advocates choose from: the standard ones and the agency's own, which its agency
    admin adds and retires (a retired kind stays on the marks that used it)."""
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied
    agency_id = policy.agency_id_of(request.user)
    assert agency_id is not None
    form = AgencyKindForm(request.POST if "label" in request.POST else None)
    if request.method == "POST":
        toggle = request.POST.get("toggle", "")
        if toggle:
            if not toggle.isdigit():
                raise Http404("No such kind")
            kind = services.agency_kind_toggle(actor=request.user, kind_id=int(toggle))
            if kind is None:
                raise Http404("No such kind")
            messages.success(
                request, _("Kind offered again.") if kind.active else _("Kind retired.")
            )
            return redirect("cycle:kinds")
        if form.is_valid():
            try:
                services.agency_kind_add(actor=request.user, label=form.cleaned_data["label"])
            except ValidationError as exc:
                errors_onto(form, exc)
            else:
                messages.success(request, _("Kind added."))
                return redirect("cycle:kinds")
    return render(
        request,
        "cycle/kinds.html",
        {
            "form": form,
            "standard": catalogue.standard(),
            "own": catalogue.agency_kinds(agency_id),
        },
    )
