"""Case note and incident pages, and the evidence file views. Each view: resolve the case
through policy (``case_page``) → look the record up inside that case → bind the form → call a
service → redirect. Reads of a record are audited here with the record's own action."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.audit.services import record
from caseflow.cases import evidence as files
from caseflow.cases.drafts import draft_context
from caseflow.cases.fields import field_config
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.casework import needs, selectors, services
from caseflow.casework.forms import EvidenceForm, IncidentForm, NoteChangeForm, NoteForm
from caseflow.casework.models import Incident
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _

#: The record pages embed their PDFs (a frame of this site); recordings play under the site's
#: own ``media-src``.
_EMBEDS = {"frame-src": ["'self'"]}


def _with_embeds(response: HttpResponse) -> HttpResponse:
    """Let the page frame its PDFs (what django-csp's ``csp_update`` decorator sets)."""
    response._csp_update = _EMBEDS  # type: ignore[attr-defined]
    return response


def _incident_or_none(case: Case, incident_id: str) -> Incident | None:
    return selectors.incident_get(case, incident_id) if incident_id else None


@login_required
@require_http_methods(["GET", "POST"])
@case_page("record_note")
def note_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = NoteForm(
        request.POST or None,
        request.FILES or None,
        incidents=selectors.incident_choices(case),
        checkins=selectors.checkin_choices(case),
        needs=needs.need_choices(case),
        goals=needs.goal_choices(case),
        initial={
            "incident": request.GET.get("incident", ""),
            "checkin": request.GET.get("checkin", ""),
            "need": request.GET.get("need", ""),
            "goal": request.GET.get("goal", ""),
        },
        field_config=field_config(request, case).for_kind("note"),
    )
    read_back = None
    if request.method == "POST" and form.is_valid():
        read_back = form.unconfirmed_date(request.POST.get("date_confirmed", ""))
    if request.method == "POST" and form.is_valid() and read_back is None:
        data = form.cleaned_data
        try:
            note = services.note_create(
                actor=request.user,
                case=case,
                kind=data["kind"],
                participants=data["participants"],
                direction=data["direction"],
                occurred_at=data["occurred_at"],
                duration_minutes=data.get("duration_minutes"),
                text=data["text"],
                incident=_incident_or_none(case, data["incident"]),
                checkin=selectors.checkin_of(case, data.get("checkin", "")),
                evidence=data["evidence"],
                followup_due=data["followup_due"] if data["followup"] else None,
                followup_details=data["followup_details"],
                need=needs.need_by_id(case, data.get("need", "")),
                goal=needs.goal_by_id(case, data.get("goal", "")),
            )
        except files.EvidenceRefused as exc:
            form.add_error("evidence", str(exc))
        else:
            messages.success(request, _("Note recorded."))
            return redirect("casework:note", case.public_id, note.public_id)
    under_emergency = not policy.may(request.user, case, "edit")
    context = {
        "case": case,
        "form": form,
        "under_emergency": under_emergency,
        "read_back": read_back,
        "files_dropped": bool(read_back and request.FILES),
    }
    if not under_emergency:
        context |= draft_context(case, "note-new")
    return render(request, "casework/note_form.html", context)


@login_required
@require_http_methods(["GET"])
@case_page("view")
def note_detail(request: AuthenticatedRequest, case: Case, note_id: str) -> HttpResponse:
    note = selectors.note_get(case, note_id)
    record("note.view", actor=request.user, case=case, obj=note)
    changes = list(note.amendments.all())
    return _with_embeds(
        render(
            request,
            "casework/note_detail.html",
            {
                "case": case,
                "note": note,
                "amendments": [a for a in changes if not a.direct],
                "direct_changes": (
                    [a for a in changes if a.direct]
                    if policy.sees_note_versions(request.user)
                    else []
                ),
                "fields": field_config(request, case).for_kind("note"),
                "mode": services.note_change_mode(request.user, note),
                "may_review": policy.reviews_break_glass(request.user),
                "may_count": note.kind != "internal" and policy.may(request.user, case, "edit"),
            },
        )
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def note_change(request: AuthenticatedRequest, case: Case, note_id: str) -> HttpResponse:
    note = selectors.note_get(case, note_id)
    mode = services.note_change_mode(request.user, note)
    if mode is None:
        raise PermissionDenied
    initial = {
        "kind": note.kind,
        "participants": note.participants,
        "direction": note.direction,
        "occurred_at": note.occurred_at,
        "duration_minutes": note.duration_minutes,
        "text": note.text,
        "incident": note.incident.public_id if note.incident else "",
        "need": note.need.public_id if note.need else "",
        "goal": note.goal.public_id if note.goal else "",
        "version": note.version,
    }
    form = NoteChangeForm(
        request.POST or None,
        initial=initial,
        incidents=selectors.incident_choices(case),
        needs=needs.need_choices(case),
        goals=needs.goal_choices(case),
        amend=mode == "amend",
        field_config=field_config(request, case).for_kind("note"),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # A field the agency does not collect is not in the form: its stored value stays.
        changes = {
            name: data[name]
            for name in services.NOTE_FIELDS
            if name not in ("incident", "need", "goal") and name in data
        }
        changes["incident"] = _incident_or_none(case, data["incident"])
        # A note of a case with no needs (or goals) has no such field: its link stays.
        if "need" in form.fields:
            changes["need"] = needs.need_by_id(case, data.get("need", ""))
        if "goal" in form.fields:
            changes["goal"] = needs.goal_by_id(case, data.get("goal", ""))
        try:
            services.note_change(
                actor=request.user,
                note=note,
                changes=changes,
                expected_version=data["version"],
                reason=data.get("reason", ""),
            )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            if note.version == data["version"]:
                messages.info(request, _("Nothing was changed."))
            else:
                messages.success(
                    request, _("Note amended.") if mode == "amend" else _("Note changed.")
                )
            return redirect("casework:note", case.public_id, note.public_id)
    record("note.view", actor=request.user, case=case, obj=note, detail={"page": "note_change"})
    return render(
        request,
        "casework/note_change.html",
        {"case": case, "note": note, "form": form, "mode": mode}
        | draft_context(case, f"note-{note.pk}"),
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def incident_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = IncidentForm(
        request.POST or None,
        request.FILES or None,
        field_config=field_config(request, case).for_kind("incident"),
    )
    read_back = None
    if request.method == "POST" and form.is_valid():
        read_back = form.unconfirmed_date(request.POST.get("date_confirmed", ""))
    if request.method == "POST" and form.is_valid() and read_back is None:
        data = form.cleaned_data
        try:
            incident = services.incident_create(
                actor=request.user,
                case=case,
                fields=data,
                evidence=data["evidence"],
            )
        except files.EvidenceRefused as exc:
            form.add_error("evidence", str(exc))
        else:
            messages.success(request, _("Incident recorded."))
            return redirect("casework:incident", case.public_id, incident.public_id)
    return render(
        request,
        "casework/incident_form.html",
        {
            "case": case,
            "form": form,
            "read_back": read_back,
            "files_dropped": bool(read_back and request.FILES),
        }
        | draft_context(case, "incident-new"),
    )


@login_required
@require_http_methods(["GET"])
@case_page("view")
def incident_detail(request: AuthenticatedRequest, case: Case, incident_id: str) -> HttpResponse:
    incident = selectors.incident_get(case, incident_id)
    record("incident.view", actor=request.user, case=case, obj=incident)
    return _with_embeds(
        render(
            request,
            "casework/incident_detail.html",
            {
                "case": case,
                "incident": incident,
                "fields": field_config(request, case).for_kind("incident"),
                "can_edit": policy.may(request.user, case, "edit"),
                "can_note": policy.may(request.user, case, "record_note"),
            },
        )
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def incident_evidence(request: AuthenticatedRequest, case: Case, incident_id: str) -> HttpResponse:
    incident = selectors.incident_get(case, incident_id)
    form = EvidenceForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            added = services.incident_add_evidence(
                actor=request.user,
                incident=incident,
                evidence=form.cleaned_data["evidence"],
            )
        except files.EvidenceRefused as exc:
            form.add_error("evidence", str(exc))
        else:
            messages.success(
                request,
                ngettext("%(count)s file added.", "%(count)s files added.", len(added))
                % {"count": len(added)},
            )
            return redirect("casework:incident", case.public_id, incident.public_id)
    record(
        "incident.view", actor=request.user, case=case, obj=incident, detail={"page": "evidence"}
    )
    return render(
        request, "casework/evidence_form.html", {"case": case, "incident": incident, "form": form}
    )


def _file_response(data: bytes, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=files.SERVED_AS.get(content_type, content_type))
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _extension(evidence) -> str:
    return files.TYPES[evidence.content_type].extensions[0]


@login_required
@require_http_methods(["GET"])
@case_page("view", read="evidence.view")
def evidence_file(request: AuthenticatedRequest, case: Case, evidence_id: str) -> HttpResponse:
    """The file itself, shown in the page (an image, a PDF frame, a player): never cached, and
    never a download. The types served are the accepted ones only (no HTML, no SVG), with
    ``nosniff``, so the file cannot run in the site."""
    evidence = selectors.evidence_get(case, evidence_id)
    data = services.evidence_open(actor=request.user, case=case, evidence=evidence, download=False)
    response = _file_response(data, evidence.content_type)
    response["Content-Disposition"] = (
        f'inline; filename="evidence-{evidence.public_id[:8]}{_extension(evidence)}"'
    )
    # Its own policy (the site's would forbid framing it): nothing loads, nothing runs.
    response._csp_exempt = True  # type: ignore[attr-defined]
    response["X-Frame-Options"] = "SAMEORIGIN"
    response["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'self'; sandbox"
    if evidence.content_type == "application/pdf" and not files.pdf_active_content(data):
        # Browsers do not show a PDF inside a sandbox: only a PDF with nothing in it that acts
        # (checked at upload, and again here for files kept from before) leaves it.
        response["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'self'"
    return response


@login_required
@require_http_methods(["GET"])
@require_recent_auth
@case_page("view", read="evidence.download")
def evidence_download(request: AuthenticatedRequest, case: Case, evidence_id: str) -> HttpResponse:
    evidence = selectors.evidence_get(case, evidence_id)
    data = services.evidence_open(actor=request.user, case=case, evidence=evidence, download=True)
    response = _file_response(data, evidence.content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="evidence-{evidence.public_id[:8]}{_extension(evidence)}"'
    )
    return response
