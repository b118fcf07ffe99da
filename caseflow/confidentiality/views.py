"""Confidentiality pages. Case pages resolve the case through policy; agency pages check the
user's role in their own agency. Each view binds a form, calls a service and redirects."""

from __future__ import annotations

import csv

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.agreements import selectors as agreement_selectors
from caseflow.agreements import services as agreement_services
from caseflow.agreements import views as agreement_views
from caseflow.audit.services import record
from caseflow.cases import timeline
from caseflow.cases import views as case_views
from caseflow.cases.fields import intake_field_config
from caseflow.cases.language import needs_of, survivor_interface_language
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.confidentiality import selectors, services
from caseflow.confidentiality.forms import (
    INTERNAL,
    CaseExportForm,
    ChronologyShareForm,
    CompelledForm,
    EvidencePackForm,
    FieldSettingsForm,
    HoldForm,
    LegalHoldForm,
    OwnCopyForm,
    ProposalForm,
    ReferralPackForm,
    ReleaseForm,
    ReportForm,
    ResearchConsentForm,
    RetentionForm,
    RevokeForm,
    TimelineShareForm,
)
from caseflow.confidentiality.models import DisclosureKind, ResearchAnswer, category_labels
from caseflow.lib.csvcells import csv_cell
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.prepared import PreparedState

NO_RELEASE = _(
    "Refused: no valid release covers sharing this information with this recipient "
    "(it must name the recipient and every category, be signed, unexpired and not revoked). "
    "Nothing was produced."
)


#: Her copy's title: it says nothing of what the paper is or where it came from.
OWN_COPY_TITLE = _("Notes for myself")

NO_RELEASE_CHOSEN = _(
    "Refused: the chosen release does not cover this export. It must be from the survivor "
    "(or a child's guardian), name this recipient and every category the export holds, be "
    "signed, unexpired and not revoked. Nothing was produced."
)


def _form_page(
    request, case, form, title: str, intro: str = "", page: str = "", asked=()
) -> HttpResponse:
    if request.method == "GET" and page:
        record("case.view", actor=request.user, case=case, obj=case, detail={"page": page})
    return render(
        request,
        "confidentiality/case_form.html",
        {"case": case, "form": form, "title": title, "intro": intro, "asked": asked},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def release_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = ReleaseForm(request.POST or None, parties=selectors.case_parties(case))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.release_record(
                actor=request.user,
                case=case,
                consenting_party=d["party"],
                for_child=d["child"],
                recipient=d["recipient"],
                purpose=d["purpose"],
                categories=d["categories"],
                signed_on=d["signed_on"],
                expires_on=d["expires_on"],
            )
        except services.ReleaseRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Release recorded."))
            return redirect("cases:detail", case.public_id)
    # The form lists the people on the case: showing it is a read.
    record("case.view", actor=request.user, case=case, obj=case, detail={"page": "release_new"})
    return _form_page(
        request,
        case,
        form,
        _("Record a release of information"),
        _("Written, informed, time-limited consent from the survivor (or a child's guardian)."),
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def release_revoke(request: AuthenticatedRequest, case: Case, release_id: str) -> HttpResponse:
    release = selectors.case_release(case, release_id)
    if release is None:
        raise Http404(_("No such release on this case"))
    form = RevokeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.release_revoke(
                actor=request.user,
                case=case,
                release=release,
                reason=form.cleaned_data["reason"],
            )
        except services.ReleaseRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Release revoked: nothing more may be shared under it."))
            return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record("case.view", actor=request.user, case=case, obj=release, detail={"page": "revoke"})
    return _form_page(request, case, form, _("Revoke a release"))


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def research_consent(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Her answer to sharing anonymised data with SafeLives Insights for research."""
    answer = services.research_answer(case)
    initial = {"agrees": "yes"} if answer == ResearchAnswer.AGREED else {}
    if answer in (ResearchAnswer.DECLINED, ResearchAnswer.WITHDRAWN):
        initial = {"agrees": "no"}
    form = ResearchConsentForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.research_consent_save(
            actor=request.user, case=case, agrees=form.cleaned_data["agrees"]
        )
        messages.success(request, _("Her answer about sharing for research is saved."))
        return redirect("cases:detail", case.public_id)
    return _form_page(
        request,
        case,
        form,
        _("Sharing anonymised data for research"),
        _("Her answer now: %(answer)s.") % {"answer": ResearchAnswer(answer).label},
        page="research_consent",
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def referral_pack(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = ReferralPackForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            pack = services.referral_pack_export(
                actor=request.user,
                case=case,
                recipient=d["recipient"],
                categories=d["categories"],
                fmt=d["fmt"],
            )
        except services.ReleaseRequired:
            form.add_error(None, NO_RELEASE)
        else:
            if d["fmt"] == "csv":
                response = HttpResponse(content_type="text/csv; charset=utf-8")
                response["Content-Disposition"] = (
                    f'attachment; filename="referral-pack-{pack.disclosure.pk}.csv"'
                )
                writer = csv.writer(response)
                writer.writerow(["Section", "Item", "Value"])
                for section, rows in pack.sections:
                    for label, value in rows:
                        writer.writerow([csv_cell(section), csv_cell(label), csv_cell(value)])
                return response
            return render(
                request,
                "confidentiality/referral_pack.html",
                {"case": case, "pack": pack, "recipient": d["recipient"]},
            )
    return _form_page(
        request,
        case,
        form,
        _("Referral pack"),
        _(
            "Information leaves the agency only under a valid release that names this recipient "
            "and every category you choose."
        ),
        page="referral_pack",
    )


def export_download(export: services.Export) -> HttpResponse:
    """An export handed over as a file never kept by the browser's cache (the case exports,
    the chronologies and the transfer pack)."""
    response = HttpResponse(export.data, content_type=export.content_type)
    # The file name holds the case's public id and the disclosure number: nothing personal.
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def evidence_pack(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = EvidencePackForm(
        request.POST or None,
        releases=selectors.case_releases(case),
        evidence=selectors.case_evidence(case),
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        chosen = {
            "release_id": d["release"],
            "recipient": d["recipient"],
            "include_breaches": d["include_breaches"],
            "include_contact_log": d["include_contact_log"],
            "evidence_ids": d["evidence"],
        }
        large = services.export_is_large(
            case=case, kind=DisclosureKind.EVIDENCE_PACK, evidence_ids=d["evidence"]
        )
        try:
            if large:
                return _prepare(request, case, DisclosureKind.EVIDENCE_PACK, chosen)
            export = services.evidence_pack_export(actor=request.user, case=case, **chosen)
        except services.ReleaseRequired:
            form.add_error(None, NO_RELEASE_CHOSEN)
        except services.EvidenceUnavailable:
            form.add_error(
                "evidence",
                _(
                    "An evidence file could not be read or no longer matches its fingerprint. "
                    "Nothing was produced: leave it out, and tell your supervisor."
                ),
            )
        else:
            return export_download(export)
    return _form_page(
        request,
        case,
        form,
        _("Evidence pack for another organisation"),
        _(
            "A ZIP of the contact log, the breach register and evidence files, with a manifest of "
            "fingerprints. It is produced only under a valid release from the survivor that names "
            "this recipient and covers the contact log, breaches and evidence."
        ),
        page="evidence_pack",
        asked=services.prepared_exports_asked(request.user, case, DisclosureKind.EVIDENCE_PACK),
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def case_export(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = CaseExportForm(request.POST or None, releases=selectors.case_releases(case))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        chosen = {
            "release_id": d["release"],
            "recipient": d["recipient"],
            "categories": d["categories"],
        }
        try:
            if services.export_is_large(case=case, kind=DisclosureKind.CASE_EXPORT):
                return _prepare(request, case, DisclosureKind.CASE_EXPORT, chosen)
            export = services.case_export(actor=request.user, case=case, **chosen)
        except services.ReleaseRequired:
            form.add_error(None, NO_RELEASE_CHOSEN)
        else:
            return export_download(export)
    return _form_page(
        request,
        case,
        form,
        _("Case export for another organisation"),
        _(
            "A JSON file of the parts of the case the chosen release covers, the same sections as "
            "a referral pack. Produced only under a valid release that names this recipient."
        ),
        page="case_export",
        asked=services.prepared_exports_asked(request.user, case, DisclosureKind.CASE_EXPORT),
    )


# --- Large exports, prepared in the background --------------------------------------------------

#: The page of each kind of export, where a refused hand-over sends its asker back.
EXPORT_FORMS = {
    DisclosureKind.EVIDENCE_PACK: "confidentiality:evidence_pack",
    DisclosureKind.CASE_EXPORT: "confidentiality:case_export",
}


def _prepare(request: AuthenticatedRequest, case: Case, kind: str, chosen: dict) -> HttpResponse:
    """Have a large export built by a worker (its release checked now and at the download)."""
    prepared = services.prepared_export_start(actor=request.user, case=case, kind=kind, **chosen)
    messages.info(
        request,
        _("This file is large, so it is being prepared. This page shows how far it has got."),
    )
    return redirect("confidentiality:prepared_export", case.public_id, prepared.public_id)


def _prepared_export(request: AuthenticatedRequest, case: Case, export_id: str):
    """The prepared export, for the person who asked for it only: for anyone else, and once it
    has expired, the same 404 as a case out of scope, recorded as a denial."""
    found = services.prepared_export_for(request.user, case, export_id)
    if found is None:
        raise policy.CaseNotFound(case.public_id, "edit")
    return found


def _prepared_export_context(case: Case, prepared) -> dict:
    return {
        "case": case,
        "prepared": prepared,
        "title": (
            _("Evidence pack for another organisation")
            if prepared.kind == DisclosureKind.EVIDENCE_PACK
            else _("Case export for another organisation")
        ),
        "running": prepared.state in (PreparedState.WAITING, PreparedState.RUNNING),
        "ready": prepared.state == PreparedState.READY,
        "stale": services.export_is_stale(prepared),
        "progress": services.export_progress(prepared),
    }


@login_required
@require_GET
@case_page("edit")
def prepared_export(request: AuthenticatedRequest, case: Case, export_id: str) -> HttpResponse:
    found = _prepared_export(request, case, export_id)
    return render(
        request, "confidentiality/prepared_export.html", _prepared_export_context(case, found)
    )


@login_required
@require_GET
@case_page("edit")
def prepared_export_progress(
    request: AuthenticatedRequest, case: Case, export_id: str
) -> HttpResponse:
    found = _prepared_export(request, case, export_id)
    return render(
        request,
        "confidentiality/_prepared_export_progress.html",
        _prepared_export_context(case, found),
    )


@login_required
@require_GET
@require_recent_auth
@case_page("edit")
def prepared_export_download(
    request: AuthenticatedRequest, case: Case, export_id: str
) -> HttpResponse:
    found = _prepared_export(request, case, export_id)
    if found.state != PreparedState.READY:
        messages.info(request, _("The file is not ready yet."))
        return redirect("confidentiality:prepared_export", case.public_id, found.public_id)
    try:
        export = services.prepared_export_download(actor=request.user, prepared=found)
    except services.ReleaseRequired:
        messages.error(
            request,
            _(
                "The consent to share no longer covers this file (it may have been withdrawn "
                "or have run out). Nothing was handed over, and the prepared file was deleted."
            ),
        )
        return redirect(EXPORT_FORMS[found.kind], case.public_id)
    return export_download(export)


@login_required
@require_POST
@case_page("edit")
def prepared_export_retry(
    request: AuthenticatedRequest, case: Case, export_id: str
) -> HttpResponse:
    found = _prepared_export(request, case, export_id)
    try:
        started = services.prepared_export_retry(actor=request.user, prepared=found)
    except services.ReleaseRequired:
        messages.error(request, NO_RELEASE_CHOSEN)
        return redirect(EXPORT_FORMS[found.kind], case.public_id)
    if started:
        messages.info(request, _("The file is being prepared again."))
    return redirect("confidentiality:prepared_export", case.public_id, found.public_id)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def compelled_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = CompelledForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        services.compelled_record(
            actor=request.user,
            case=case,
            kind=d["kind"],
            received_on=d["received_on"],
            issuer=d["issuer"],
            reference=d["reference"],
            demanded=d["demanded"],
            recipient=d["recipient"],
            categories=d["categories"],
            disclosed_on=d["disclosed_on"],
        )
        messages.warning(
            request,
            _(
                "Compelled disclosure recorded. Legal review, telling the survivor safely and a "
                "safety-plan review are now follow-ups."
            ),
        )
        return redirect("cases:detail", case.public_id)
    return _form_page(
        request,
        case,
        form,
        _("Record a court order or subpoena"),
        _("Record exactly what was disclosed. Tell the survivor only through their safe channel."),
        page="compelled_new",
    )


def _copy_language(case: Case) -> str:
    """The survivor's first language caseflow speaks, else the reader's own."""
    supported = [code for code, _name in settings.LANGUAGES]
    for code in (survivor_interface_language(case), translation.get_language()):
        if code in supported:
            return code
    return settings.LANGUAGE_CODE


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def own_copy(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Her own copy of her record: choose with her, confirm her consent, then the neutral paper
    (printed, or saved as PDF, with the browser's own print)."""
    incidents, contacts = selectors.own_copy_choices(case)
    form = OwnCopyForm(
        request.POST or None,
        incidents=incidents,
        contacts=contacts,
        initial={"language": _copy_language(case)},
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            copy = services.own_copy_give(
                actor=request.user,
                case=case,
                incident_ids=d["incidents"],
                contact_ids=d["contacts"],
                language=d["language"],
                survivor_consents=d["consent"],
            )
        except services.OwnCopyRefused as exc:
            form.add_error(None, str(exc))
        else:
            with translation.override(copy.language):
                title = str(OWN_COPY_TITLE)
            return render(
                request,
                "confidentiality/own_copy.html",
                {
                    "case": case,
                    "copy": copy,
                    "title": title,
                    "print_language": copy.language,
                    "printing": True,
                },
            )
    survivor = services.survivor_of(case)
    needs = needs_of(survivor)
    return render(
        request,
        "confidentiality/own_copy_form.html",
        {
            "case": case,
            "form": form,
            "has_records": bool(incidents or contacts),
            "languages": needs["languages"] if needs else [],
        },
    )


# --- Agency pages --------------------------------------------------------------------------------


@login_required
@require_GET
def purges(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.may_decide_purges(request.user):
        raise PermissionDenied
    context = selectors.purge_queue(request.user)
    record(
        "purge.queue_view",
        actor=request.user,
        detail={"proposals": [p.pk for p in context["proposals"]]},
    )
    return render(request, "confidentiality/purges.html", context)


def _purge_step(request: HttpRequest, step, done: str) -> HttpResponse:
    if not policy.may_decide_purges(request.user):
        raise PermissionDenied
    form = ProposalForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a purge proposal."))
        return redirect("confidentiality:purges")
    try:
        step(actor=request.user, proposal_id=form.cleaned_data["proposal"])
    except services.PurgeRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("confidentiality:purges")


@login_required
@require_POST
@require_recent_auth
def purge_approve(request: AuthenticatedRequest) -> HttpResponse:
    return _purge_step(request, services.purge_approve, _("Approval recorded."))


@login_required
@require_POST
@require_recent_auth
def purge_execute(request: AuthenticatedRequest) -> HttpResponse:
    """A purge cannot be undone: the first press shows what it will destroy and asks again."""
    if not policy.may_decide_purges(request.user):
        raise PermissionDenied
    if request.POST.get("confirm") != "yes":
        form = ProposalForm(request.POST)
        preview = (
            selectors.purge_preview(request.user, form.cleaned_data["proposal"])
            if (form.is_valid())
            else None
        )
        if preview is None:
            messages.error(request, _("Choose a purge proposal."))
            return redirect("confidentiality:purges")
        record(
            "purge.confirm_view",
            actor=request.user,
            case=preview["case"],
            obj=preview["proposal"],
            detail={"proposal": preview["proposal"].pk},
        )
        return render(request, "confidentiality/purge_confirm.html", preview)
    return _purge_step(
        request, services.purge_execute, _("Purge carried out: its deletion certificate is below.")
    )


@login_required
@require_POST
def legal_hold_place(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.may_decide_purges(request.user):
        raise PermissionDenied
    form = LegalHoldForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("Give the reason the record must be kept (at least 10 characters).")
        )
        return redirect("confidentiality:purges")
    try:
        hold = services.legal_hold_place(
            actor=request.user,
            proposal_id=form.cleaned_data["proposal"],
            reason=form.cleaned_data["reason"],
        )
    except services.PurgeRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Case %(reference)s is on legal hold: it will not be purged.")
            % {"reference": hold.case.reference},
        )
    return redirect("confidentiality:purges")


@login_required
@require_POST
@require_recent_auth
def legal_hold_lift(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.may_decide_purges(request.user):
        raise PermissionDenied
    form = HoldForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a legal hold."))
        return redirect("confidentiality:purges")
    try:
        hold = services.legal_hold_lift(actor=request.user, hold_id=form.cleaned_data["hold"])
    except services.PurgeRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("The legal hold on case %(reference)s is lifted.")
            % {"reference": hold.case.reference},
        )
    return redirect("confidentiality:purges")


@login_required
@require_http_methods(["GET", "POST"])
def retention(request: AuthenticatedRequest) -> HttpResponse:
    if not services.may_configure(request.user):
        raise PermissionDenied
    form = RetentionForm(request.POST or None, initial=selectors.retention_initial(request.user))
    if request.method == "POST" and form.is_valid():
        services.retention_save(
            actor=request.user,
            narratives_years=form.cleaned_data["narratives_years"],
            record_years=form.cleaned_data["record_years"],
        )
        messages.success(request, _("Retention schedule saved."))
        return redirect("confidentiality:retention")
    return render(
        request,
        "confidentiality/agency_form.html",
        {
            "form": form,
            "title": _("Retention schedule"),
            "intro": _(
                "Closed cases are proposed for purging on this schedule; supervisors "
                "approve each purge (two people for a whole record)."
            ),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def field_settings(request: AuthenticatedRequest) -> HttpResponse:
    if not services.may_configure(request.user):
        raise PermissionDenied
    config = intake_field_config(request.user)
    form = FieldSettingsForm(request.POST or None, initial=FieldSettingsForm.initial_from(config))
    if request.method == "POST" and form.is_valid():
        values = form.values()
        services.field_settings_save(actor=request.user, values=values)
        messages.success(request, _("Field settings saved."))
        if any(values[field][0] for field in CONFLICT_CHECK_FIELDS):
            messages.warning(request, CONFLICT_CHECK_WEAKER)
        return redirect("confidentiality:fields")
    hidden = [field for field in CONFLICT_CHECK_FIELDS if config.get(field, {}).get("hidden")]
    return render(
        request,
        "confidentiality/agency_form.html",
        {
            "form": form,
            "title": _("Optional fields"),
            "intro": _(
                "Collect only what the programme needs: a hidden field is not asked for "
                "and not stored."
            ),
            "warning": CONFLICT_CHECK_WEAKER
            if hidden
            else _(
                "Dates of birth make the conflict check stronger: hiding them makes it "
                "compare names only."
            ),
            "warning_is_active": bool(hidden),
        },
    )


#: Intake fields the conflict check uses besides the names.
CONFLICT_CHECK_FIELDS = ("survivor_date_of_birth", "other_date_of_birth")
CONFLICT_CHECK_WEAKER = _(
    "A date of birth is not collected, so the conflict check at intake compares names only: "
    "it may miss someone whose name is written differently, and may match people who only "
    "share a name."
)


def _report(request: AuthenticatedRequest) -> tuple[ReportForm, services.AggregateReport | None]:
    if not policy.may_run_reports(request.user):
        raise PermissionDenied
    form = ReportForm(request.GET if request.GET else None)
    report = None
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        report = services.aggregate_report(
            actor=request.user,
            period=d["period"],
            dimensions=d["dimensions"],
            start=d["start"],
            end=d["end"],
        )
    return form, report


@login_required
@require_GET
def reports(request: AuthenticatedRequest) -> HttpResponse:
    form, report = _report(request)
    csv_url = f"{reverse('confidentiality:report_csv')}?{request.GET.urlencode()}"
    return render(
        request,
        "confidentiality/reports.html",
        {
            "form": form,
            "report": report,
            "csv_url": csv_url,
            "threshold": settings.AGGREGATE_MIN_CELL,
        },
    )


@login_required
@require_GET
@require_recent_auth
def report_csv(request: AuthenticatedRequest) -> HttpResponse:
    form, report = _report(request)
    if report is None:
        messages.error(request, _("Choose what the report counts, and preview it first."))
        return redirect("confidentiality:reports")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="caseflow-aggregate.csv"'
    writer = csv.writer(response)
    writer.writerow(report.columns)
    writer.writerows([csv_cell(c) for c in row] for row in report.rows)
    return response


# --- The breach chronology for someone outside the agency ----------------------------------


REFUSED_OUTSIDE = _(
    "Refused: the chronology holds the contact log, breaches and the court order. For someone "
    "outside the agency it needs a valid release from the survivor that names this recipient "
    "and covers both, or a court order or subpoena recorded on this case. Nothing was produced."
)


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def chronology_share(request: AuthenticatedRequest, case: Case, agreement_id: str) -> HttpResponse:
    """Choose who the chronology is for: the internal file as ever, or someone outside the
    agency under a covering release or a recorded compelled disclosure."""
    agreement = agreement_selectors.agreement_get(case, agreement_id)
    form = ChronologyShareForm(
        request.POST or None,
        releases=selectors.case_releases(case),
        orders=selectors.case_orders(case),
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        if d["audience"] == INTERNAL:
            name = "agreements:chronology_csv" if d["fmt"] == "csv" else "agreements:chronology"
            return redirect(name, case.public_id, agreement.public_id)
        try:
            authority = services.outside_authority(
                actor=request.user,
                case=case,
                recipient=d["recipient"],
                categories=services.CHRONOLOGY_CATEGORIES,
                release_id=d["release"],
                order_id=d["order"],
            )
        except services.ReleaseRequired:
            form.add_error(None, REFUSED_OUTSIDE)
        else:
            report = agreement_selectors.chronology(agreement)
            agreement_services.chronology_record(
                actor=request.user,
                agreement=agreement,
                fmt=d["fmt"],
                sha256=report["sha256"],
                authority=authority.audit,
            )
            if d["fmt"] == "csv":
                return agreement_views.chronology_csv_response(agreement, report)
            return agreement_views.chronology_page(
                request, case, agreement, report, recipient=d["recipient"]
            )
    if request.method == "GET":
        record(
            "agreement.view",
            actor=request.user,
            case=case,
            obj=agreement,
            detail={"page": "chronology_share"},
        )
    return render(
        request,
        "confidentiality/case_form.html",
        {
            "case": case,
            "form": form,
            "title": _("Produce the breach chronology"),
            "intro": _(
                "For the agency's own file, or for someone outside the agency: then only "
                "under a release that covers it or a court order or subpoena recorded on the case."
            ),
        },
    )


# --- The case chronology for someone outside the agency -----------------------------------------

REFUSED_TIMELINE = _(
    "Refused: for someone outside the agency the case chronology needs a valid release from the "
    "survivor that names this recipient and covers every kind of record it holds ({categories}), "
    "or a court order or subpoena recorded on this case. Nothing was produced."
)


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("edit")
def timeline_share(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Produce the case chronology (with the filters in the query string) for someone outside
    the agency, under a covering release or a recorded compelled disclosure."""
    filters = case_views.timeline_filters(request)
    if filters.is_bound and not filters.is_valid():
        # The timeline page shows what is wrong with them.
        url = reverse("cases:timeline", args=[case.public_id])
        return redirect(f"{url}?{request.GET.urlencode()}")
    query = filters.query(limit=1)
    heading = case_views.timeline_heading(case, filters)
    form = TimelineShareForm(
        request.POST or None,
        releases=selectors.case_releases(case),
        orders=selectors.case_orders(case),
    )
    chronology = None
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        chronology = timeline.chronology(case, query, heading)
        try:
            services.timeline_share(
                actor=request.user,
                case=case,
                chronology=chronology,
                recipient=d["recipient"],
                release_id=d["release"],
                order_id=d["order"],
            )
        except services.ReleaseRequired:
            held = category_labels(services.timeline_categories(chronology.sources))
            form.add_error(None, REFUSED_TIMELINE.format(categories=held or "none"))
        else:
            return case_views.chronology_page(
                request, case, filters, chronology, recipient=d["recipient"]
            )
    if request.method == "GET":
        record(
            "case.view", actor=request.user, case=case, obj=case, detail={"page": "timeline_share"}
        )
    return render(
        request,
        "confidentiality/case_form.html",
        {
            "case": case,
            "form": form,
            "title": _("Produce the case chronology for someone outside the agency"),
            "intro": _(
                "Only under a release from the survivor that names the recipient and covers "
                "every kind of record in it, or a court order or subpoena recorded on the case. "
                "The chronology holds: "
            )
            + ", ".join(str(k) for k in heading["kinds"])
            + ".",
        },
    )
