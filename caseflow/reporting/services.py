"""Generating a funder report: who may, for which agency, and the audit record of every
generation (preview or CSV)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.db.models import Min
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.reporting import reports
from caseflow.reporting.reports import FunderReport, Period


def first_case_day(*, actor: User) -> dt.date | None:
    """The day the actor's agency's first case was opened (the period lists start there)."""
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        return None
    first = Case.objects.filter(agency_id=agency_id).aggregate(first=Min("opened_at"))["first"]
    return None if first is None else timezone.localdate(first)


def funder_report(*, actor: User, slug: str, period: Period, fmt: str) -> FunderReport:
    """The actor's own agency's report ``slug`` for ``period``; audited whatever the format."""
    if not policy.may_run_reports(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None or slug not in reports.REPORTS:
        raise PermissionDenied
    if not any(
        (p.start, p.end) == (period.start, period.end)
        for p in reports.periods(
            reports.REPORTS[slug].period, timezone.localdate(), first_case_day(actor=actor)
        )
    ):
        # Free dates could be subtracted from one another (the reporting README).
        raise ValueError("not one of the periods this report is given out for")
    report = reports.release(slug, agency_id, period)
    record(
        "report.funder",
        actor=actor,
        detail={
            "report": slug,
            "from": period.start.isoformat(),
            "to": period.end.isoformat(),
            "format": fmt,
            "cells": report.cells,
            "suppressed": report.suppressed,
        },
    )
    return report
