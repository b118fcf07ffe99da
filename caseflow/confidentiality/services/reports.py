"""Aggregate reports: counts of the agency's cases by period and by dimensions that identify
no one, small cells suppressed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.db.models.functions import TruncMonth, TruncQuarter
from django.http import HttpRequest

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, CaseStatus, RiskLevel
from caseflow.lib.i18n import gettext_lazy as _

#: The only dimensions a report can use: none of them identifies anyone.
DIMENSIONS: dict[str, tuple[str, str]] = {
    "team": ("team__name", _("Service (team)")),
    "risk_level": ("risk_level", _("Risk band")),
    "status": ("status", _("Outcome (case status)")),
}
PERIODS = {"month": ("Month", TruncMonth), "quarter": ("Quarter", TruncQuarter)}


@dataclass
class AggregateReport:
    columns: list[str]
    rows: list[list[str]]
    suppressed: int
    threshold: int


def _period_label(period: str, value: dt.datetime | dt.date) -> str:
    if period == "quarter":
        return f"{value.year} Q{(value.month - 1) // 3 + 1}"
    return f"{value.year}-{value.month:02d}"


def aggregate_report(
    *,
    actor: User,
    request: HttpRequest | None,
    period: str,
    dimensions: list[str],
    start: dt.date,
    end: dt.date,
) -> AggregateReport:
    """Counts of the actor's agency's cases opened in [start, end], by period and dimensions.
    Cells under AGGREGATE_MIN_CELL are shown as "<N"."""
    if not policy.may_run_reports(actor):
        raise PermissionDenied
    if period not in PERIODS or set(dimensions) - set(DIMENSIONS):
        raise ValueError("unknown period or dimension")
    dimensions = [d for d in DIMENSIONS if d in dimensions]
    period_label, trunc = PERIODS[period]
    fields = [DIMENSIONS[d][0] for d in dimensions]
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    since = dt.datetime.combine(start, dt.time(0), tzinfo=dt.UTC)
    until = dt.datetime.combine(end + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)
    grouped = (
        Case.objects.filter(agency_id=agency_id, opened_at__gte=since, opened_at__lt=until)
        .annotate(bucket=trunc("opened_at", tzinfo=dt.UTC))
        .values("bucket", *fields)
        .annotate(n=Count("pk"))
        .order_by("bucket", *fields)
    )
    labels = {
        "risk_level": dict(RiskLevel.choices),
        "status": dict(CaseStatus.choices),
    }
    threshold = settings.AGGREGATE_MIN_CELL
    rows, suppressed = [], 0
    for item in grouped:
        row = [_period_label(period, item["bucket"])]
        for d, f in zip(dimensions, fields, strict=True):
            row.append(labels.get(d, {}).get(item[f], item[f]))
        if item["n"] < threshold:
            row.append(f"<{threshold}")
            suppressed += 1
        else:
            row.append(str(item["n"]))
        rows.append(row)
    record(
        "report.aggregate",
        actor=actor,
        request=request,
        detail={
            "period": period,
            "dimensions": dimensions,
            "from": start.isoformat(),
            "to": end.isoformat(),
            "rows": len(rows),
        },
    )
    columns = [period_label, *(DIMENSIONS[d][1] for d in dimensions), "Cases"]
    return AggregateReport(columns, rows, suppressed, threshold)
