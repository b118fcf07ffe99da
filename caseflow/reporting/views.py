"""Funder report pages: the list, a preview (tables and charts) and the CSV. Agency-wide pages
for the roles that run reports; every generation is audited by the service. A report whose
period counts many people is prepared in the background: its page follows the work and offers
the CSV when it is ready, to the person who asked and nobody else."""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.models import Coalition
from caseflow.accounts.reauth import require_recent_auth
from caseflow.lib.suppression import Told, Unchecked
from caseflow.reporting import reports, returns, services
from caseflow.reporting.charts import bar_chart
from caseflow.reporting.forms import PeriodForm
from caseflow.reporting.models import PreparedReport, PreparedState

logger = logging.getLogger(__name__)


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
    return render(
        request,
        "reporting/list.html",
        {"kinds": list(reports.REPORTS.values()), "insights_return": returns.KIND},
    )


@login_required
@require_GET
def report_preview(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    kind = _kind(request, slug)
    form = PeriodForm(request.GET or None, kind=kind.period, earliest=_earliest(request))
    form.initial = form.default()
    report = None
    sections = []
    large = False
    unchecked = False
    told = False
    if form.is_bound and form.is_valid():
        # A large report is not computed in the request at all (it would outlast the web
        # process's timeout): the page offers to prepare it in the background instead.
        large = services.is_large(actor=request.user, slug=slug, period=form.chosen())
    if form.is_bound and form.is_valid() and not large:
        try:
            report = services.funder_report(
                actor=request.user, slug=slug, period=form.chosen(), fmt="preview"
            )
        except Unchecked as exc:
            logger.error("report %s not shown: %s", slug, exc)
            report, unchecked, told = None, True, isinstance(exc, Told)
    if report is not None:
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
            "large": large,
            "unchecked": unchecked,
            "told": told,
        },
        # Nothing is shown: the page says why, and whether trying again may work.
        status=503 if unchecked else 200,
    )


@login_required
@require_GET
@require_recent_auth
def report_csv(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    period = _chosen_period(request, slug, request.GET)
    if period is None:
        return redirect("reporting:preview", slug)
    if services.is_large(actor=request.user, slug=slug, period=period):
        messages.info(request, _("This report counts many people: prepare it below."))
        return redirect(f"{reverse('reporting:preview', args=[slug])}?{request.GET.urlencode()}")
    try:
        report = services.funder_report(actor=request.user, slug=slug, period=period, fmt="csv")
    except Unchecked as exc:
        logger.error("report %s not given out: %s", slug, exc)
        # The preview says why nothing is given out, and offers to try again.
        return redirect(f"{reverse('reporting:preview', args=[slug])}?{request.GET.urlencode()}")
    return _csv_response(services.csv_bytes(report), slug)


def _chosen_period(
    request: AuthenticatedRequest, slug: str, data: QueryDict
) -> reports.Period | None:
    """The period a download or a preparation asks for; None, with a message saying what to
    do, when it gives none the report takes (they start from the preview's choice)."""
    kind = _kind(request, slug)
    form = PeriodForm(data or None, kind=kind.period, earliest=_earliest(request))
    if not (form.is_bound and form.is_valid()):
        messages.error(request, _("Choose the period, and preview the report first."))
        return None
    return form.chosen()


def _csv_response(data: bytes, slug: str) -> HttpResponse:
    response = HttpResponse(data, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="caseflow-{slug}.csv"'
    return response


# --- Large reports, prepared in the background ---------------------------------------------------


@login_required
@require_POST
@require_recent_auth
def report_prepare(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    period = _chosen_period(request, slug, request.POST)
    if period is None:
        return redirect("reporting:preview", slug)
    prepared = services.prepared_start(actor=request.user, slug=slug, period=period)
    messages.info(request, _("The report is being prepared. This page shows how far it has got."))
    return redirect("reporting:prepared", prepared.public_id)


def _prepared(request: AuthenticatedRequest, report_id: str) -> PreparedReport:
    """The prepared report, for the person who asked for it only: 404 for anyone else, and
    once it has expired."""
    found = services.prepared_for(request.user, report_id)
    if found is None:
        raise Http404(_("No such report"))
    return found


def _prepared_context(prepared: PreparedReport) -> dict:
    kind = services.kind_of(prepared.slug)
    if prepared.slug == returns.SLUG:
        back_url = reverse("reporting:insights_return")
    else:
        back = "reporting:coalition_report" if prepared.coalition_id else "reporting:preview"
        back_url = reverse(back, args=[kind.slug])
    return {
        "prepared": prepared,
        "kind": kind,
        "back_url": back_url,
        "is_return": prepared.slug == returns.SLUG,
        "period": reports.Period(prepared.period_start, prepared.period_end, ""),
        "running": prepared.state in (PreparedState.WAITING, PreparedState.RUNNING),
        "ready": prepared.state == PreparedState.READY,
        "stale": services.is_stale(prepared),
        "progress": services.progress(prepared),
    }


@login_required
@require_GET
def prepared(request: AuthenticatedRequest, report_id: str) -> HttpResponse:
    found = _prepared(request, report_id)
    return render(request, "reporting/prepared.html", _prepared_context(found))


@login_required
@require_GET
def prepared_progress(request: AuthenticatedRequest, report_id: str) -> HttpResponse:
    found = _prepared(request, report_id)
    return render(request, "reporting/_prepared_progress.html", _prepared_context(found))


@login_required
@require_GET
@require_recent_auth
def prepared_download(request: AuthenticatedRequest, report_id: str) -> HttpResponse:
    found = _prepared(request, report_id)
    if found.state != PreparedState.READY:
        messages.info(request, _("The report is not ready yet."))
        return redirect("reporting:prepared", found.public_id)
    return _csv_response(services.prepared_download(actor=request.user, prepared=found), found.slug)


@login_required
@require_POST
def prepared_retry(request: AuthenticatedRequest, report_id: str) -> HttpResponse:
    found = _prepared(request, report_id)
    try:
        started = services.prepared_retry(actor=request.user, prepared=found)
    except (PermissionDenied, ValueError):
        started = False
        messages.error(request, _("This report can no longer be prepared for this period."))
    else:
        if started:
            messages.info(request, _("The report is being prepared again."))
    return redirect("reporting:prepared", found.public_id)


# --- The SafeLives Insights return (one row per exit), always prepared in the background -------


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=["POST"])
def insights_return(request: AuthenticatedRequest) -> HttpResponse:
    """Choose the quarter (GET) and have its Insights return prepared by a worker (POST)."""
    if not policy.may_run_reports(request.user):
        raise PermissionDenied
    data = request.POST if request.method == "POST" else None
    form = PeriodForm(data, kind=returns.KIND.period, earliest=_earliest(request))
    form.initial = form.default()
    if request.method == "POST" and form.is_valid():
        prepared = services.prepared_start(
            actor=request.user, slug=returns.SLUG, period=form.chosen()
        )
        messages.info(
            request, _("The return is being prepared. This page shows how far it has got.")
        )
        return redirect("reporting:prepared", prepared.public_id)
    return render(
        request,
        "reporting/insights_return.html",
        {"kind": returns.KIND, "form": form},
    )


# --- A coalition's roll-up of its member agencies' reports ----------------------------------------


def _coalition(request: AuthenticatedRequest) -> Coalition:
    coalition = policy.coalition_of(request.user)
    if coalition is None:
        raise PermissionDenied
    return coalition


@login_required
@require_GET
def coalition(request: AuthenticatedRequest) -> HttpResponse:
    """The coalition's reports, its member agencies and the roll-ups its person asked for."""
    found = _coalition(request)
    asked = services.coalition_asked(request.user, found)
    return render(
        request,
        "reporting/coalition.html",
        {
            "coalition": found,
            "members": list(found.members.order_by("name").values_list("name", flat=True)),
            "kinds": list(reports.REPORTS.values()),
            "asked": [(p, reports.REPORTS[p.slug]) for p in asked],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=["POST"])
def coalition_report(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    """Choose the period of a roll-up (GET) and have it prepared by a worker (POST): it builds
    every member agency's report, never in a request."""
    found = _coalition(request)
    kind = reports.REPORTS.get(slug)
    if kind is None:
        raise Http404
    data = request.POST if request.method == "POST" else request.GET
    form = PeriodForm(data or None, kind=kind.period, earliest=services.coalition_first_day(found))
    form.initial = form.default()
    if request.method == "POST" and form.is_valid():
        prepared = services.prepared_start(actor=request.user, slug=slug, period=form.chosen())
        messages.info(
            request, _("The roll-up is being prepared. This page shows how far it has got.")
        )
        return redirect("reporting:prepared", prepared.public_id)
    return render(
        request,
        "reporting/coalition_report.html",
        {"coalition": found, "kind": kind, "form": form},
    )
