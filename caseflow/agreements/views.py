"""Agreement pages. Each view: resolve the case through policy → look the object up inside that
case → bind the form → call a service → redirect. Reads are audited here."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.agreements import selectors, services
from caseflow.agreements.breaches import can_breach
from caseflow.agreements.forms import (
    TERM_LABELS,
    AgreementForm,
    BreachReviewForm,
    ContactEventForm,
    StatusForm,
    initial_from_version,
)
from caseflow.agreements.labels import CHANNEL_LABELS
from caseflow.agreements.models import STATUS_TRANSITIONS, AgreementStatus, ReviewState
from caseflow.audit.services import record
from caseflow.cases.drafts import keep_drafts
from caseflow.cases.evidence import SERVED_AS, EvidenceRefused, pdf_active_content
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _


def _audit_read(request, case, action: str, obj=None, **detail) -> None:
    record(action, actor=request.user, case=case, obj=obj or case, detail=detail or None)


def _terms_kwargs(form: AgreementForm) -> dict:
    data = form.cleaned_data
    return {
        "fields": {
            name: data.get(name)
            for name in (
                "effective_from",
                "effective_to",
                "court",
                "court_reference",
                "order_expires_on",
            )
        },
        "agreement_terms": form.terms,
        "protocol": form.protocol,
        "note": data.get("note", ""),
    }


@login_required
@require_http_methods(["GET"])
@case_page("view")
def agreement_list(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    agreements = selectors.agreements_for_case(case)
    _audit_read(request, case, "agreement.list", agreements=[a.public_id for a in agreements])
    return render(
        request,
        "agreements/agreement_list.html",
        {
            "case": case,
            "agreements": agreements,
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def agreement_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = AgreementForm(
        request.POST or None,
        children=selectors.child_choices(case),
        timezone_name=services.survivor_timezone(case),
        first_version=True,
        initial={"effective_from": timezone.localdate()},
    )
    keep_drafts(form, case, "agreement-new")
    if request.method == "POST" and form.is_valid():
        agreement = services.agreement_create(
            actor=request.user,
            case=case,
            children=selectors.children_by_id(case, form.cleaned_data["children"]),
            **_terms_kwargs(form),
        )
        messages.success(request, _("Agreement saved as a draft."))
        return redirect("agreements:detail", case.public_id, agreement.public_id)
    if request.method == "GET":
        _audit_read(request, case, "agreement.view", page="new")
    return render(
        request,
        "agreements/agreement_form.html",
        {"form": form, "case": case, "title": _("New contact agreement")},
    )


@login_required
@require_http_methods(["GET"])
@case_page("view")
def agreement_detail(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    agreement = selectors.agreement_get(case, agreement_id)
    version = selectors.current_version(agreement)
    show = request.GET.get("show", "")
    show = show if show in selectors.LOG_FILTERS else ""
    channel = request.GET.get("channel", "")
    channel = channel if channel in CHANNEL_LABELS else ""
    page = selectors.contact_log_page(
        agreement, show=show, channel=channel, page=request.GET.get("page", 1)
    )
    _audit_read(request, case, "agreement.view", obj=agreement)
    editable = agreement.status in (AgreementStatus.DRAFT, AgreementStatus.ACTIVE)
    return render(
        request,
        "agreements/agreement_detail.html",
        {
            "case": case,
            "agreement": agreement,
            "version": version,
            "terms_lines": selectors.describe_terms(version) if version else [],
            "children": selectors.agreement_children(agreement),
            "events": page.object_list,
            "page": page,
            "log_filters": selectors.LOG_FILTERS,
            "channels": CHANNEL_LABELS,
            "show": show,
            "channel": channel,
            "filtered": bool(show or channel),
            "term_labels": TERM_LABELS,
            "can_edit": policy.may(request.user, case, "edit"),
            "editable": editable,
            "status_form": StatusForm(current=agreement.status, initial={"lock": agreement.lock})
            if STATUS_TRANSITIONS[agreement.status]
            else None,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def agreement_edit(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    agreement = selectors.agreement_get(case, agreement_id)
    if agreement.status not in (AgreementStatus.DRAFT, AgreementStatus.ACTIVE):
        raise PermissionDenied(_("A superseded or ended agreement is kept as it was."))
    version = selectors.current_version(agreement)
    initial = initial_from_version(agreement, version)
    initial["children"] = [child.public_id for child in selectors.agreement_children(agreement)]
    initial["terms_from"] = None
    form = AgreementForm(
        request.POST or None,
        children=selectors.child_choices(case),
        timezone_name=agreement.timezone,
        first_version=False,
        initial=initial,
    )
    keep_drafts(form, case, f"agreement-{agreement.pk}")
    if request.method == "POST" and form.is_valid():
        try:
            version = services.agreement_save(
                actor=request.user,
                agreement=agreement,
                expected_lock=form.cleaned_data["lock"],
                children=selectors.children_by_id(case, form.cleaned_data["children"]),
                **_terms_kwargs(form),
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Version %(number)s saved.") % {"number": version.number})
            return redirect("agreements:detail", case.public_id, agreement.public_id)
    if request.method == "GET":
        _audit_read(request, case, "agreement.view", obj=agreement, page="edit")
    return render(
        request,
        "agreements/agreement_form.html",
        {"form": form, "case": case, "agreement": agreement, "title": _("Edit agreement")},
    )


@login_required
@require_POST
@case_page("edit")
def agreement_status(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    agreement = selectors.agreement_get(case, agreement_id)
    form = StatusForm(request.POST, current=agreement.status)
    if form.is_valid():
        try:
            services.agreement_set_status(
                actor=request.user,
                agreement=agreement,
                expected_lock=form.cleaned_data["lock"],
                status=form.cleaned_data["status"],
            )
        except StaleEdit as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Agreement is now %(status)s.")
                % {"status": agreement.get_status_display().lower()},
            )
    else:
        messages.error(request, _("That status change is not possible for this agreement."))
    return redirect("agreements:detail", case.public_id, agreement.public_id)


def _number(value: str | None, default: int, highest: int) -> int:
    try:
        number = int(value or default)
    except ValueError:
        return default
    return number if 1 <= number <= highest else default


@login_required
@require_http_methods(["GET"])
@case_page("view")
def agreement_versions(
    request: AuthenticatedRequest, case: Case, agreement_id: str
) -> HttpResponse:
    agreement = selectors.agreement_get(case, agreement_id)
    listed = selectors.version_list(agreement)
    highest = agreement.current_number
    diff = None
    a = b = None
    if highest:
        b = _number(request.GET.get("b"), highest, highest)
        a = _number(request.GET.get("a"), max(b - 1, 1), highest)
        diff = selectors.version_diff(
            selectors.version_get(agreement, a), selectors.version_get(agreement, b)
        )
    _audit_read(request, case, "agreement.versions.view", obj=agreement, compared=[a, b])
    return render(
        request,
        "agreements/versions.html",
        {
            "case": case,
            "agreement": agreement,
            "versions": listed,
            "diff": diff,
            "a": a,
            "b": b,
        },
    )


EVIDENCE_NOT_STORED = (
    "caseflow could not store the files just now (its storage is full or not accepting files), "
    "so this contact was not saved. Everything you typed is still here: try again in a while, "
    "and tell your administrator if it keeps happening. You will need to choose the files again."
)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def event_new(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    agreement = selectors.agreement_get(case, agreement_id)
    form = ContactEventForm(
        request.POST or None,
        request.FILES or None,
        timezone_name=services.survivor_timezone(case),
        topics=selectors.agreed_topics(selectors.current_version(agreement)),
    )
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_log(
                actor=request.user,
                agreement=agreement,
                event=form.event,
                description=form.cleaned_data["description"],
                evidence=form.cleaned_data["evidence"],
            )
        except EvidenceRefused as exc:
            form.add_error("evidence", str(exc))
        except services.EvidenceStorageFailed:
            form.add_error("evidence", EVIDENCE_NOT_STORED)
        else:
            if not can_breach(event.direction):
                messages.success(
                    request,
                    gettext(
                        "Contact from the survivor recorded. It is never a breach: it is kept "
                        "for safety planning only."
                    ),
                )
                return redirect("agreements:detail", case.public_id, agreement.public_id)
            return redirect(
                "agreements:review", case.public_id, agreement.public_id, event.public_id
            )
    if request.method == "GET":
        _audit_read(request, case, "agreement.view", obj=agreement, page="event_new")
    return render(
        request,
        "agreements/event_form.html",
        {"form": form, "case": case, "agreement": agreement},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def event_review(
    request: AuthenticatedRequest, case: Case, agreement_id: str, event_id: str
) -> HttpResponse:
    agreement = selectors.agreement_get(case, agreement_id)
    event = selectors.event_get(agreement, event_id)
    proposed = event.proposed or []
    form = BreachReviewForm(
        request.POST or None,
        initial={
            "terms_broken": [v["term"] for v in proposed if v["term"] in TERM_LABELS],
            "description": event.description,
            "severity": "medium" if proposed else "",
        },
    )
    pending = event.review == ReviewState.PENDING and can_breach(event.direction)
    if request.method == "POST" and form.is_valid():
        if not can_breach(event.direction):
            messages.info(
                request,
                gettext("Contact from the survivor is never a breach; nothing was changed."),
            )
            return redirect("agreements:detail", case.public_id, agreement.public_id)
        if not pending:
            messages.error(
                request, _("This contact has already been reviewed; nothing was changed.")
            )
            return redirect("agreements:detail", case.public_id, agreement.public_id)
        data = form.cleaned_data
        try:
            breach = services.breach_review(
                actor=request.user,
                event=event,
                terms_broken=data["terms_broken"],
                severity=data["severity"],
                police_reported=data["police_reported"],
                police_reference=data["police_reference"].strip(),
                description=data["description"],
            )
        except (services.AlreadyReviewed, services.NotABreach):
            messages.error(
                request, _("This contact has already been reviewed; nothing was changed.")
            )
        else:
            messages.success(
                request,
                _("Breach recorded.") if breach else _("Contact logged: no breach recorded."),
            )
        return redirect("agreements:detail", case.public_id, agreement.public_id)
    if request.method == "GET":
        _audit_read(request, case, "agreement.event.view", obj=event)
    return render(
        request,
        "agreements/event_review.html",
        {
            "form": form,
            "case": case,
            "agreement": agreement,
            "event": event,
            "proposed": proposed,
            "pending": pending,
            "from_survivor": not can_breach(event.direction),
        },
    )


def chronology_page(request, case, agreement, report, recipient: str = "") -> HttpResponse:
    return render(
        request,
        "agreements/chronology.html",
        {
            "case": case,
            "agreement": agreement,
            "report": report,
            "generated_at": timezone.now(),
            "recipient": recipient,
            "can_share": policy.may(request.user, case, "edit"),
        },
    )


def chronology_csv_response(agreement, report) -> HttpResponse:
    response = HttpResponse(
        selectors.chronology_csv(report, timezone.now()), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="chronology-{agreement.public_id[:8]}.csv"'
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET"])
@case_page("view")
def chronology(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    """The chronology for the agency's own file."""
    agreement = selectors.agreement_get(case, agreement_id)
    report = selectors.chronology(agreement)
    services.chronology_record(
        actor=request.user,
        agreement=agreement,
        fmt="html",
        sha256=report["sha256"],
    )
    return chronology_page(request, case, agreement, report)


@login_required
@require_http_methods(["GET"])
@require_recent_auth
@case_page("view")
def chronology_csv(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    """The chronology as CSV, for the agency's own file."""
    agreement = selectors.agreement_get(case, agreement_id)
    report = selectors.chronology(agreement)
    services.chronology_record(
        actor=request.user, agreement=agreement, fmt="csv", sha256=report["sha256"]
    )
    return chronology_csv_response(agreement, report)


@login_required
@require_http_methods(["GET"])
@require_recent_auth
@case_page("view")
def evidence_download(request: AuthenticatedRequest, case: Case, evidence_id: str) -> HttpResponse:
    evidence = selectors.evidence_get(case, evidence_id)
    data = services.evidence_open(actor=request.user, case=case, evidence=evidence)
    response = HttpResponse(data, content_type=evidence.content_type)
    extension = services.EXTENSIONS.get(evidence.content_type, ".bin")
    response["Content-Disposition"] = (
        f'attachment; filename="evidence-{evidence.public_id[:8]}{extension}"'
    )
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_http_methods(["GET"])
@case_page("view", read="evidence.view")
def evidence_view(request: AuthenticatedRequest, case: Case, evidence_id: str) -> HttpResponse:
    """The file shown by the browser itself (a photo, a PDF, a player): never cached, never a
    download, in a sandbox where nothing runs (only the accepted types are ever stored)."""
    evidence = selectors.evidence_get(case, evidence_id)
    data = services.evidence_open(actor=request.user, case=case, evidence=evidence, view=True)
    response = HttpResponse(
        data, content_type=SERVED_AS.get(evidence.content_type, evidence.content_type)
    )
    extension = services.EXTENSIONS.get(evidence.content_type, ".bin")
    response["Content-Disposition"] = (
        f'inline; filename="evidence-{evidence.public_id[:8]}{extension}"'
    )
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    response._csp_exempt = True  # type: ignore[attr-defined]
    # Browsers do not show a PDF inside a sandbox: only a PDF with nothing in it that acts
    # (checked at upload, and again here for files kept from before) leaves it.
    clean_pdf = evidence.content_type == "application/pdf" and not pdf_active_content(data)
    sandbox = "" if clean_pdf else "; sandbox"
    response["Content-Security-Policy"] = f"default-src 'none'; frame-ancestors 'none'{sandbox}"
    return response
