"""Aggregate reports: counts of the agency's cases by period and by dimensions that identify
no one, with totals per period and overall; small cells suppressed, and the cells that would let
anyone work them out from the totals suppressed with them (:mod:`caseflow.lib.suppression`, the
same protection as the funder reports).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.db.models.functions import TruncMonth, TruncQuarter

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, CaseStatus, RiskLevel
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.suppression import Grid, suppress

#: The only dimensions a report can use: none of them identifies anyone.
DIMENSIONS: dict[str, tuple[str, str]] = {
    "team": ("team__name", _("Service (team)")),
    "risk_level": ("risk_level", _("Risk band")),
    "status": ("status", _("Case status")),
}
#: What a suppressed cell shows.
HIDDEN = "*"
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
    period: str,
    dimensions: list[str],
    start: dt.date,
    end: dt.date,
) -> AggregateReport:
    """Counts of the actor's agency's cases opened in [start, end], by period and dimensions.
    Cells under AGGREGATE_MIN_CELL, and the cells that would give them away, show as "*"."""
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
    grid = Grid()
    lines: list[tuple[list[str], int]] = []
    by_period: dict[str, list[int]] = {}
    for item in grouped:
        label = _period_label(period, item["bucket"])
        row = [label]
        for d, f in zip(dimensions, fields, strict=True):
            row.append(str(labels.get(d, {}).get(item[f], item[f])))
        cell = grid.cell(f"{len(lines)}", item["n"])
        by_period.setdefault(label, []).append(cell)
        lines.append((row, cell))
    # Totals: per period (when broken down) and for the whole report.
    blanks = ["All"] * len(dimensions)
    out: list[tuple[list[str], int]] = []
    period_totals = []
    for label, cells in by_period.items():
        out.extend(line for line in lines if line[0][0] == label)
        if dimensions:
            total = grid.cell(f"total:{label}", sum(grid.values[c] for c in cells))
            grid.sum(total, cells)
            out.append(([label, *blanks], total))
            period_totals.append(total)
        else:
            period_totals.extend(cells)
    if len(period_totals) > 1:
        grand = grid.cell("total", sum(grid.values[c] for c in period_totals))
        grid.sum(grand, period_totals)
        out.append((["All periods", *blanks], grand))
    hidden = suppress(grid, threshold)
    rows = []
    for row, cell in out:
        # One mark for every hidden cell: telling the small ones apart would bound the rest.
        rows.append([*row, HIDDEN if cell in hidden else str(grid.values[cell])])
    suppressed = len(hidden)
    record(
        "report.aggregate",
        actor=actor,
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
