"""The audit workspace. Every page is itself an audited read; scope comes from caseflow.policy.
Pages show audit metadata only: no case content is loaded here (auditors never see narratives)."""

from __future__ import annotations

import csv
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.audit.services import record
from caseflow.cases.models import BreakGlassOutcome
from caseflow.lib.csvcells import csv_cell
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.oversight import selectors, services
from caseflow.oversight.forms import AuditFilterForm, ReviewForm


def _require_workspace(request: HttpRequest) -> None:
    if not policy.may_review_audit(request.user):
        raise PermissionDenied


def _filters(request: HttpRequest) -> AuditFilterForm:
    form = AuditFilterForm(request.GET or None, people=policy.audit_people(request.user))
    form.is_valid()
    return form


def _before(request: HttpRequest) -> int | None:
    value = request.GET.get("before", "")
    return int(value) if value.isdigit() else None


def _case_for(request: HttpRequest, public_id: str):
    # Audit pages never show the case's content: its encrypted summary is not even loaded.
    case = selectors.audit_case(request.user, public_id)
    if case is None:
        raise policy.CaseNotFound(public_id, "audit")
    return case


@login_required
@require_http_methods(["GET"])
def events(request: AuthenticatedRequest) -> HttpResponse:
    _require_workspace(request)
    form = _filters(request)
    page = None
    if form.is_bound is False or form.is_valid():
        data = form.cleaned_data if form.is_bound else {}
        page = selectors.events_page(request.user, data, _before(request))
    shown = selectors.label_cases(request.user, page.events) if page else []
    record(
        "audit.events.view",
        actor=request.user,
        detail={
            "filters": form.summary() if form.is_bound and form.is_valid() else {},
            "case_filter": bool(form.is_bound and form.cleaned_data.get("case")),
            "events": len(shown),
        },
    )
    query = request.GET.copy()
    query.pop("before", None)
    return render(
        request,
        "oversight/events.html",
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "alerts": selectors.alerts_for(request.user),
        },
    )


#: One export holds at most this many events, newest first (narrow the dates for older ones).
EXPORT_MAX_ROWS = 50_000

EXPORT_HEADER = [
    "seq",
    "time_utc",
    "actor_id",
    "actor",
    "actor_role",
    "case_id",
    "action",
    "object_type",
    "object_id",
    "request_id",
    "ip",
    "detail",
    "hash",
]


@login_required
@require_http_methods(["GET"])
@require_recent_auth
def export(request: AuthenticatedRequest) -> HttpResponse:
    _require_workspace(request)
    form = _filters(request)
    if form.is_bound and not form.is_valid():
        return render(request, "oversight/events.html", {"form": form, "page": None}, status=400)
    data = form.cleaned_data if form.is_bound else {}
    queryset = selectors.filtered_events(request.user, data)
    if _before(request):
        queryset = queryset.filter(seq__lt=_before(request))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit-events.csv"'
    writer = csv.writer(response)
    writer.writerow(EXPORT_HEADER)
    written, last = 0, None
    for event in selectors.iter_events(queryset):
        if written == EXPORT_MAX_ROWS:
            # More remain: the next file starts below the last sequence number written.
            response["X-Audit-Export-Continue-Before"] = str(last)
            break
        writer.writerow(
            [
                csv_cell(v)
                for v in (
                    event.seq,
                    event.at.isoformat(),
                    event.actor_id,
                    event.actor.username if event.actor else "",
                    event.actor_role,
                    event.case_id,
                    event.action,
                    event.object_type,
                    event.object_id,
                    event.request_id,
                    event.ip,
                    json.dumps(event.detail, sort_keys=True),
                    event.hash,
                )
            ]
        )
        written, last = written + 1, event.seq
    record(
        "audit.export",
        actor=request.user,
        detail={
            "filters": form.summary() if form.is_bound else {},
            "case_filter": bool(data.get("case")),
            "events": written,
        },
    )
    return response


@login_required
@require_http_methods(["GET"])
def case_timeline(request: AuthenticatedRequest, public_id: str) -> HttpResponse:
    case = _case_for(request, public_id)
    events_qs = policy.auditable_events(request.user).filter(case_id=case.pk)
    page = selectors.keyset_page(events_qs, _before(request))
    history = selectors.change_history(events_qs) if not _before(request) else []
    # The values behind each change, for those who may read the case (this page's read event
    # records that they were shown); others see the field names only.
    with_values = policy.can_view_case(request.user, case)
    if with_values:
        selectors.attach_values(case, history)
    record(
        "audit.case.view",
        actor=request.user,
        case=case,
        obj=case,
        detail={"page": "timeline", "values": with_values},
    )
    return render(
        request,
        "oversight/case_timeline.html",
        {"case": case, "page": page, "history": history},
    )


@login_required
@require_http_methods(["GET"])
def case_access(request: AuthenticatedRequest, public_id: str) -> HttpResponse:
    case = _case_for(request, public_id)
    page = selectors.case_reads_page(request.user, case, _before(request))
    people = selectors.case_readers(request.user, case) if not _before(request) else []
    record("audit.case.view", actor=request.user, case=case, obj=case, detail={"page": "access"})
    return render(
        request, "oversight/case_access.html", {"case": case, "page": page, "people": people}
    )


@login_required
@require_http_methods(["GET"])
def user_activity(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    _require_workspace(request)
    person = policy.audit_people(request.user).filter(pk=user_id).first()
    if person is None:
        raise Http404(_("No such member of staff"))
    page = selectors.keyset_page(
        policy.auditable_events(request.user).filter(actor_id=person.pk), _before(request)
    )
    selectors.label_cases(request.user, page.events)
    after_reset = (
        policy.auditable_events(request.user)
        .filter(actor_id=person.pk, action="security.login_after_reset")
        .order_by("-seq")
        .first()
    )
    record(
        "audit.user.view",
        actor=request.user,
        object_type="user",
        object_id=str(person.pk),
        detail={"events": len(page.events)},
    )
    return render(
        request,
        "oversight/user_activity.html",
        {"person": person, "page": page, "after_reset": after_reset},
    )


@login_required
@require_http_methods(["GET"])
def break_glass_queue(request: AuthenticatedRequest) -> HttpResponse:
    _require_workspace(request)
    pending, done = selectors.break_glass_queue(request.user)
    record(
        "audit.break_glass.view",
        actor=request.user,
        detail={"pending": [g.pk for g in pending], "reviewed": [g.pk for g in done]},
    )
    return render(
        request,
        "oversight/break_glass_queue.html",
        {
            "pending": pending,
            "done": done,
            "can_review": policy.reviews_break_glass(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def break_glass_review(request: AuthenticatedRequest, grant_id: int) -> HttpResponse:
    grant = selectors.grant_for(request.user, grant_id)
    if grant is None:
        raise policy.CaseNotFound("", "break_glass_review")
    if not policy.may_review_break_glass(request.user, grant):
        raise policy.CaseForbidden(grant.case, "break_glass_review")
    form = ReviewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.break_glass_review(
                actor=request.user,
                grant=grant,
                outcome=form.cleaned_data["outcome"],
                comment=form.cleaned_data["comment"],
            )
        except services.AlreadyReviewed:
            messages.error(request, _("Someone has reviewed this emergency access already."))
        else:
            if form.cleaned_data["outcome"] == BreakGlassOutcome.FOLLOW_UP:
                messages.success(
                    request,
                    _(
                        "Your review of the emergency access is recorded. A follow-up on the "
                        "case is on your list."
                    ),
                )
            else:
                messages.success(request, _("Your review of the emergency access is recorded."))
        return redirect("audit:break_glass")
    record(
        "audit.break_glass.view",
        actor=request.user,
        case=grant.case,
        obj=grant,
        object_id=str(grant.pk),
        detail={"grant": grant.pk},
    )
    notes = grant.notes_written.only("public_id", "kind", "occurred_at", "break_glass_id")
    return render(
        request,
        "oversight/break_glass_review.html",
        {
            "grant": grant,
            "form": form,
            "activity": selectors.grant_activity(request.user, grant),
            "notes": list(notes),
        },
    )
