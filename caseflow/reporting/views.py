"""Funder report pages: the list, a preview (tables and charts) and the CSV. Agency-wide pages
for the roles that run reports; every generation is audited by the service."""

from __future__ import annotations

import csv
import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import require_recent_auth
from caseflow.lib.csvcells import csv_cell
from caseflow.reporting import reports, services
from caseflow.reporting.charts import bar_chart
from caseflow.reporting.forms import PeriodForm


def _kind(request: AuthenticatedRequest, slug: str) -> reports.ReportKind:
    if not policy.may_run_reports(request.user):
        raise PermissionDenied
    kind = reports.REPORTS.get(slug)
    if kind is None:
        raise Http404
    return kind


def _earliest(request: AuthenticatedRequest) -> dt.date | None:
    return services.first_case_day(actor=request.user)


@login_required
@require_GET
def report_list(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.may_run_reports(request.user):
        raise PermissionDenied
    return render(request, "reporting/list.html", {"kinds": list(reports.REPORTS.values())})


@login_required
@require_GET
def report_preview(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    kind = _kind(request, slug)
    form = PeriodForm(request.GET or None, kind=kind.period, earliest=_earliest(request))
    form.initial = form.default()
    report = None
    sections = []
    if form.is_bound and form.is_valid():
        report = services.funder_report(
            actor=request.user, slug=slug, period=form.chosen(), fmt="preview"
        )
        sections = [
            {
                "section": s,
                "table": report.table(s),
                "chart": bar_chart(report, s),
                "id": f"s{i}",
            }
            for i, s in enumerate(report.sections)
        ]
    return render(
        request,
        "reporting/preview.html",
        {
            "kind": kind,
            "form": form,
            "report": report,
            "sections": sections,
            "csv_url": f"{reverse('reporting:csv', args=[slug])}?{request.GET.urlencode()}",
        },
    )


@login_required
@require_GET
@require_recent_auth
def report_csv(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    kind = _kind(request, slug)
    form = PeriodForm(request.GET or None, kind=kind.period, earliest=_earliest(request))
    if not (form.is_bound and form.is_valid()):
        messages.error(request, _("Choose the period, and preview the report first."))
        return redirect("reporting:preview", slug)
    report = services.funder_report(actor=request.user, slug=slug, period=form.chosen(), fmt="csv")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="caseflow-{slug}.csv"'
    writer = csv.writer(response)
    writer.writerows([csv_cell(c) for c in row] for row in report.csv_rows())
    return response
