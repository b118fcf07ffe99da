"""The agency admin's pages: upload, map the columns, read the dry run, import; the same for
the staff file (its columns are fixed by the staff template: nothing to map)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.imports import reader, services, staff
from caseflow.imports.forms import MappingForm, StaffUploadForm, UploadForm
from caseflow.imports.models import BatchKind, BatchState, ImportBatch
from caseflow.imports.template import BY_KEY, template_csv
from caseflow.lib.i18n import gettext_lazy as _

FLAG_WORDS = {
    "conflict": _(
        "The other party or the survivor matches someone on the other side of an existing case: "
        "possible conflict. The case is opened and its supervisors are told."
    ),
    "earlier_case": _(
        "The survivor may already have a case here: a new case is opened, nothing is merged. "
        "Ask the team's supervisor to look at both."
    ),
    "same_survivor": _("Another row of this file seems to be the same survivor."),
}


def _require_admin(request: HttpRequest) -> None:
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied


def _batch(request: HttpRequest, batch_id: str, kind: str = BatchKind.CASELOAD) -> ImportBatch:
    _require_admin(request)
    found = services.batch_for(request.user, batch_id, kind)
    if found is None:
        raise Http404(_("No such import"))
    return found


def _received(request: AuthenticatedRequest, form: Any, upload: Callable[..., ImportBatch]):
    """The file posted on ``form``, read (one byte over the limit at most, so that a larger
    one is refused) and sealed in a batch by ``upload``; ``None`` when nothing valid was posted
    or the file was refused (said on the form)."""
    if request.method != "POST" or not form.is_valid():
        return None
    handle = form.cleaned_data["file"]
    data = handle.read(reader.max_bytes() + 1)
    try:
        return upload(actor=request.user, name=handle.name, data=data)
    except reader.FileRefused as exc:
        form.add_error("file", str(exc))
        return None


@login_required
@require_http_methods(["GET", "POST"])
def upload(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    form = UploadForm(request.POST or None, request.FILES or None)
    created = _received(request, form, services.batch_upload)
    if created is not None:
        return redirect("imports:batch", created.public_id)
    return render(
        request,
        "imports/upload.html",
        {
            "form": form,
            "batches": services.batches_for(request.user)[:20],
            "fields": BY_KEY.values(),
        },
    )


@login_required
@require_GET
def template_file(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    response = HttpResponse(template_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="caseflow-import-template.csv"'
    return response


@login_required
@require_GET
def sample_file(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    response = HttpResponse(
        services.sample_for(request.user), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="caseflow-import-sample.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def batch(request: AuthenticatedRequest, batch_id: str) -> HttpResponse:
    found = _batch(request, batch_id)
    headings: list[str] = []
    refused = ""
    if found.wrapped_key:
        try:
            headings = services.table_of(found).headings
        except reader.FileRefused as exc:
            refused = str(exc)
    form = MappingForm(
        request.POST or None, headings=headings, initial=found.mapping if headings else None
    )
    if request.method == "POST":
        if not headings:
            raise PermissionDenied
        if form.is_valid():
            try:
                services.batch_check(actor=request.user, batch=found, mapping=form.mapping())
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            return redirect("imports:batch", found.public_id)
    problems = [{**p, "message": gettext(p["message"])} for p in found.problems[:500]]
    return render(
        request,
        "imports/batch.html",
        {
            "batch": found,
            "form": form,
            "headings": headings,
            "refused": refused,
            "problems": problems,
            "more_problems": max(0, len(found.problems) - 500),
            "flags": [
                {"row": f["row"], "words": FLAG_WORDS.get(f["kind"], "")} for f in found.flags
            ],
            "running": found.state in (BatchState.QUEUED, BatchState.RUNNING),
            "progress": services.progress(found),
            "may_commit": found.state == BatchState.CHECKED and not found.counts.get("errors"),
        },
    )


@login_required
@require_POST
def commit(request: AuthenticatedRequest, batch_id: str) -> HttpResponse:
    found = _batch(request, batch_id)
    try:
        queued = services.batch_start(actor=request.user, batch=found)
    except (ValidationError, services.BatchHasErrors):
        messages.error(
            request, gettext("Nothing was imported: check the file again and correct the rows.")
        )
        return redirect("imports:batch", found.public_id)
    if queued:
        messages.info(
            request, gettext("The import has started. This page shows how far it has got.")
        )
    else:
        messages.success(request, gettext("The caseload is imported."))
    return redirect("imports:batch", found.public_id)


@login_required
@require_GET
def batch_progress(request: AuthenticatedRequest, batch_id: str) -> HttpResponse:
    found = _batch(request, batch_id)
    return render(
        request,
        "imports/_progress.html",
        {
            "batch": found,
            "running": found.state in (BatchState.QUEUED, BatchState.RUNNING),
            "progress": services.progress(found),
        },
    )


# --- Staff ---------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def staff_upload(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    form = StaffUploadForm(request.POST or None, request.FILES or None)
    created = _received(request, form, staff.staff_upload)
    if created is not None:
        return redirect("imports:staff_batch", created.public_id)
    return render(
        request,
        "imports/staff_upload.html",
        {
            "form": form,
            "batches": services.batches_for(request.user, BatchKind.STAFF)[:20],
            "columns": staff.COLUMNS,
        },
    )


@login_required
@require_GET
def staff_template(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    response = HttpResponse(staff.template_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="caseflow-staff-template.csv"'
    return response


@login_required
@require_GET
def staff_sample(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    response = HttpResponse(staff.sample_for(request.user), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="caseflow-staff-sample.csv"'
    return response


@login_required
@require_GET
def staff_batch(request: AuthenticatedRequest, batch_id: str) -> HttpResponse:
    found = _batch(request, batch_id, BatchKind.STAFF)
    problems = [{**p, "message": gettext(p["message"])} for p in found.problems[:500]]
    return render(
        request,
        "imports/staff_batch.html",
        {
            "batch": found,
            "problems": problems,
            "more_problems": max(0, len(found.problems) - 500),
            "new_teams": staff.new_teams(found, request.user) if not found.problems else [],
            "may_commit": found.state == BatchState.CHECKED and not found.counts.get("errors"),
        },
    )


@login_required
@require_POST
@require_recent_auth
def staff_commit(request: AuthenticatedRequest, batch_id: str) -> HttpResponse:
    found = _batch(request, batch_id, BatchKind.STAFF)
    try:
        counts = staff.staff_commit(actor=request.user, batch_id=found.pk)
    except (ValidationError, PermissionDenied, staff.StaffBatchHasErrors):
        messages.error(
            request, gettext("Nothing was imported: upload the file again and correct the rows.")
        )
        return redirect("imports:staff_batch", found.public_id)
    messages.success(
        request,
        gettext(
            "Staff imported: %(created)s added, %(updated)s updated. New staff are e-mailed a "
            "link to choose their password."
        )
        % {"created": counts.get("created", 0), "updated": counts.get("updated", 0)},
    )
    return redirect("agency:staff_list")
