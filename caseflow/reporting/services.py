"""Generating a funder report: who may, for which agency, and the audit record of every
generation (preview or CSV)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.reporting import reports
from caseflow.reporting.reports import FunderReport, Period


def funder_report(*, actor: User, slug: str, period: Period, fmt: str) -> FunderReport:
    """The actor's own agency's report ``slug`` for ``period``; audited whatever the format."""
    if not policy.may_run_reports(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None or slug not in reports.REPORTS:
        raise PermissionDenied
    report = reports.build(slug, agency_id, period)
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
