"""Generating a funder report: who may, for which agency, and the audit record of every
generation (preview or CSV); and the large ones prepared in the background.

A report whose period counts more than ``REPORT_BACKGROUND_THRESHOLD`` people is not computed
in the request: :func:`prepared_start` records a :class:`PreparedReport` and, in the same
transaction, its task in the outbox (the report's id only). The worker first marks it running
(:func:`prepared_claim`, committed on its own: the page can say so at once), then computes it in
one transaction (:func:`prepared_compute`) that writes the sealed CSV, the state "ready" and the
audit record together at its very end. Progress is a counter in the cache, moved at each step
of the report (:func:`progress`): a write to the database would either wait for that
transaction (invisible until it commits) or need a second connection that SQLite would lock
out; the cache is a hint, never the truth, and with the cache away the bar stays at its start
while the work goes on. A worker killed half-way leaves the report running with no result; the
outbox sends the task again, and its asker may start it again once it is stale."""

from __future__ import annotations

import csv
import datetime as dt
import io
import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Min
from django.utils import timezone, translation

from caseflow import policy
from caseflow.accounts.models import Coalition, User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.lib import prepared as prepared_work
from caseflow.lib import softcache
from caseflow.lib.csvcells import csv_cell
from caseflow.lib.i18n import language_of
from caseflow.lib.suppression import Unchecked
from caseflow.outbox.services import enqueue
from caseflow.reporting import coalition as rolled
from caseflow.reporting import reports, returns
from caseflow.reporting.coalition import RolledUp
from caseflow.reporting.models import PreparedReport, PreparedState
from caseflow.reporting.reports import FunderReport, Period

log = logging.getLogger(__name__)


def first_case_day(*, actor: User) -> dt.date | None:
    """The day the actor's agency's first case was opened (the period lists start there)."""
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        return None
    first = Case.objects.filter(agency_id=agency_id).aggregate(first=Min("opened_at"))["first"]
    return None if first is None else timezone.localdate(first)


def kind_of(slug: str) -> reports.ReportKind | returns.ReturnKind:
    """A funder report's kind, or the Insights return's. KeyError for anything else."""
    return returns.KIND if slug == returns.SLUG else reports.REPORTS[slug]


def _agency_for(actor: User, slug: str, period: Period) -> int:
    """The actor's agency, when the actor may run report ``slug`` (or prepare the Insights
    return) for ``period``."""
    if not policy.may_run_reports(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None or (slug not in reports.REPORTS and slug != returns.SLUG):
        raise PermissionDenied
    _require_given_out(slug, period, first_case_day(actor=actor))
    return agency_id


def _require_given_out(slug: str, period: Period, earliest: dt.date | None) -> None:
    """``period`` is one the report ``slug`` is given out for, from ``earliest`` on. Raises
    ValueError otherwise: free dates could be subtracted from one another (the reporting
    README)."""
    if not any(
        (p.start, p.end) == (period.start, period.end)
        for p in reports.periods(kind_of(slug).period, timezone.localdate(), earliest)
    ):
        raise ValueError("not one of the periods this report is given out for")


def funder_report(*, actor: User, slug: str, period: Period, fmt: str) -> FunderReport:
    """The actor's own agency's report ``slug`` for ``period``; audited whatever the format."""
    agency_id = _agency_for(actor, slug, period)
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


# --- A coalition's roll-up -----------------------------------------------------------------------


def coalition_first_day(coalition: Coalition) -> dt.date | None:
    """The day the first case of any member agency was opened (the period lists start there)."""
    first = Case.objects.filter(agency__coalitions=coalition).aggregate(first=Min("opened_at"))
    return None if first["first"] is None else timezone.localdate(first["first"])


def _coalition_for(actor: User, slug: str, period: Period) -> Coalition:
    """The actor's coalition, when the actor may roll report ``slug`` up for ``period``."""
    coalition = policy.coalition_of(actor)
    if coalition is None or slug not in reports.REPORTS:
        raise PermissionDenied
    _require_given_out(slug, period, coalition_first_day(coalition))
    return coalition


def coalition_report(*, actor: User, slug: str, period: Period, fmt: str) -> RolledUp:
    """Report ``slug`` for ``period`` of every member agency of the actor's coalition, each
    suppressed as the agency gives it out, added up. Audited in each member agency's trail: the
    report, its period and the counts of its cells, never a figure."""
    coalition = _coalition_for(actor, slug, period)
    members = policy.coalition_agency_ids(coalition)
    report = rolled.rollup(slug, members, period)
    for agency_id in members:
        record(
            "report.coalition",
            actor=actor,
            agency_id=agency_id,
            detail={
                "report": slug,
                "from": period.start.isoformat(),
                "to": period.end.isoformat(),
                "format": fmt,
                "agencies": len(members),
            },
        )
    return report


def coalition_asked(user: User, coalition: Coalition) -> list[PreparedReport]:
    """The roll-ups ``user`` asked for and may still fetch, the latest first."""
    return list(
        PreparedReport.objects.filter(
            requested_by=user, coalition=coalition, expires_at__gt=timezone.now()
        )[:20]
    )


def csv_bytes(report: FunderReport | RolledUp) -> bytes:
    """The report's CSV, as the download gives it (inline or prepared: the same bytes)."""
    out = io.StringIO(newline="")
    csv.writer(out).writerows([csv_cell(c) for c in row] for row in report.csv_rows())
    return out.getvalue().encode("utf-8")


# --- Large reports, prepared in the background ---------------------------------------------------

#: How many steps each report takes (:func:`reports.step`), as counted on the demo agency; a
#: report with more breakdowns than that shows 99% until it is ready.
STEPS = {"voca": 12, "fvpsa": 129, "hud": 129, "insights": 8, returns.SLUG: 4}


def is_large(*, actor: User, slug: str, period: Period) -> bool:
    """The period counts more people than a request should (``REPORT_BACKGROUND_THRESHOLD``)."""
    agency_id = _agency_for(actor, slug, period)
    served = reports.served_cases(agency_id, period)
    return served[: settings.REPORT_BACKGROUND_THRESHOLD + 1].count() > (
        settings.REPORT_BACKGROUND_THRESHOLD
    )


def _owner_for(actor: User, slug: str, period: Period) -> dict:
    """Whose report the actor may have prepared: their agency's, or their coalition's roll-up."""
    if policy.coalition_of(actor) is not None:
        if slug == returns.SLUG:
            raise PermissionDenied  # a per-person file is one agency's, never rolled up
        return {"coalition": _coalition_for(actor, slug, period), "agency": None}
    return {"agency_id": _agency_for(actor, slug, period), "coalition": None}


@transaction.atomic
def prepared_start(*, actor: User, slug: str, period: Period) -> PreparedReport:
    """Ask for report ``slug`` for ``period`` to be prepared by a worker, for ``actor`` only: of
    their agency, or their coalition's roll-up (always prepared by a worker: it builds every
    member agency's report)."""
    owner = _owner_for(actor, slug, period)
    coalition = owner["coalition"]
    steps = STEPS.get(slug, 1)
    if coalition is not None:
        steps *= max(1, len(policy.coalition_agency_ids(coalition)))
    now = timezone.now()
    # Asked again (a second click, the back button) while the same one is still being
    # prepared: that one, not a second job.
    in_hand = (
        PreparedReport.objects.filter(
            requested_by=actor,
            **owner,
            slug=slug,
            period_start=period.start,
            period_end=period.end,
            state__in=prepared_work.UNDER_WAY,
            expires_at__gt=now,
        )
        .order_by("-created_at")
        .first()
    )
    if in_hand is not None:
        return in_hand
    prepared = PreparedReport.objects.create(
        **owner,
        requested_by=actor,
        slug=slug,
        period_start=period.start,
        period_end=period.end,
        total=steps,
        created_at=now,
        expires_at=now + dt.timedelta(hours=settings.REPORT_KEEP_HOURS),
    )
    # By name: the task module imports these services.
    enqueue("caseflow.reporting.tasks.prepare_report", report_id=prepared.pk)
    return prepared


def prepared_for(user: User, public_id: str) -> PreparedReport | None:
    """The prepared report ``public_id`` when ``user`` asked for it, still runs reports in the
    same agency (or holds a seat in the same coalition) and it has not expired; ``None`` for
    anyone and anything else."""
    coalition = policy.coalition_of(user)
    if coalition is not None:
        owner: dict = {"coalition": coalition}
    elif policy.may_run_reports(user) and policy.agency_id_of(user) is not None:
        owner = {"agency_id": policy.agency_id_of(user), "coalition": None}
    else:
        return None
    return PreparedReport.objects.filter(
        public_id=public_id,
        requested_by=user,
        **owner,
        expires_at__gt=timezone.now(),
    ).first()


def progress_key(report_id: int) -> str:
    return f"reporting:progress:{report_id}"


def progress(prepared: PreparedReport) -> int:
    """Percent done (a counter in the cache while it runs: a hint, never the truth)."""
    return prepared_work.percent(prepared.state, progress_key(prepared.pk), prepared.total)


def is_stale(prepared: PreparedReport) -> bool:
    """Started long ago and still not done: its worker must have been lost."""
    return prepared_work.is_stale(
        prepared.state,
        prepared.started_at or prepared.created_at,
        timezone.now(),
        dt.timedelta(seconds=settings.REPORT_STALE_SECONDS),
    )


def prepared_claim(*, report_id: int) -> bool:
    """A worker starts on the report: mark it running (committed at once, outside the work's
    transaction, so its page can say so). False when there is nothing to do."""
    softcache.forget(progress_key(report_id))
    return bool(
        PreparedReport.objects.filter(
            pk=report_id,
            state__in=prepared_work.CLAIMABLE,
            expires_at__gt=timezone.now(),
        ).update(
            state=PreparedState.RUNNING,
            started_at=timezone.now(),
            attempts=F("attempts") + 1,
            done=0,
            last_error="",
        )
    )


#: Failures that will not pass by trying again at once: the report is marked failed (its asker
#: may try again) and the task is done.
class PreparationFailed(Exception):
    pass


def prepared_compute(*, report_id: int) -> None:
    """Compute the report and keep its sealed CSV, all in one transaction: nothing is written
    before the end, so a worker killed half-way leaves no partial result. Idempotent: a report
    ready (or gone) is left alone. Raises :class:`PreparationFailed` (nothing written) when its
    asker may no longer run it or its period is no longer given out."""
    with transaction.atomic():
        prepared = (
            PreparedReport.objects.select_for_update()
            .select_related("requested_by")
            .filter(pk=report_id, expires_at__gt=timezone.now())
            .first()
        )
        if prepared is None or prepared.state == PreparedState.READY:
            return
        period = reports.Period(prepared.period_start, prepared.period_end, "")
        key = progress_key(prepared.pk)
        # Written in the asker's language, as the CSV they would download at once: the worker
        # has no request to say it.
        with translation.override(language_of(prepared.requested_by)):
            try:
                with reports.following_steps(lambda: prepared_work.step(key)):
                    if prepared.slug == returns.SLUG:
                        data, counts = _insights_return(actor=prepared.requested_by, period=period)
                    else:
                        build = coalition_report if prepared.coalition_id else funder_report
                        report = build(
                            actor=prepared.requested_by,
                            slug=prepared.slug,
                            period=period,
                            fmt="prepared",
                        )
                        data = csv_bytes(report)
                        counts = {"cells": report.cells, "suppressed": report.suppressed}
            except (PermissionDenied, ValueError, Unchecked) as exc:
                raise PreparationFailed(type(exc).__name__) from exc
        prepared.result = prepared.seal(data)
        prepared.state = PreparedState.READY
        prepared.done = prepared.total
        prepared.finished_at = timezone.now()
        prepared.counts = counts
        prepared.save(update_fields=["result", "state", "done", "finished_at", "counts"])
    softcache.forget(key)


def _insights_return(*, actor: User, period: Period) -> tuple[bytes, dict[str, int]]:
    """The actor's agency's Insights return for ``period`` (one of the quarters given out), its
    CSV and its counts; each included case's audit trail records that its exit went into it
    (the period only), in the caller's transaction with the sealed file."""
    agency_id = _agency_for(actor, returns.SLUG, period)
    built = returns.build(agency_id, period)
    detail = {"from": period.start.isoformat(), "to": period.end.isoformat()}
    for case in Case.objects.filter(pk__in=built.case_ids).only("pk", "agency_id").iterator():
        record("report.insights_return", actor=actor, case=case, detail=detail)
    return built.csv_bytes(), {"rows": len(built.rows), "left_out": built.left_out}


def prepared_fail(*, report_id: int, error: str) -> None:
    """Mark the report failed (its asker may try again): never one that is ready."""
    PreparedReport.objects.filter(pk=report_id).exclude(state=PreparedState.READY).update(
        state=PreparedState.FAILED, last_error=error[:100], finished_at=timezone.now()
    )


@transaction.atomic
def prepared_retry(*, actor: User, prepared: PreparedReport) -> bool:
    """Start again a report that failed or whose worker was lost. False when it is not stale."""
    locked = PreparedReport.objects.select_for_update().get(pk=prepared.pk)
    if locked.requested_by_id != actor.pk or not is_stale(locked):
        return False
    _owner_for(actor, locked.slug, reports.Period(locked.period_start, locked.period_end, ""))
    locked.state = PreparedState.WAITING
    locked.started_at = None
    locked.last_error = ""
    locked.save(update_fields=["state", "started_at", "last_error"])
    enqueue("caseflow.reporting.tasks.prepare_report", report_id=locked.pk)
    return True


def prepared_download(*, actor: User, prepared: PreparedReport) -> bytes:
    """The CSV of a ready report, for its asker only; audited (the report, its period and its
    counts)."""
    if prepared.requested_by_id != actor.pk or prepared.state != PreparedState.READY:
        raise PermissionDenied
    data = prepared.opened()
    record(
        "report.prepared_download",
        actor=actor,
        agency_id=prepared.agency_id,
        detail={
            "report": prepared.slug,
            "from": prepared.period_start.isoformat(),
            "to": prepared.period_end.isoformat(),
            "format": "csv",
            **prepared.counts,
        },
    )
    return data


def prepared_purge(*, now: dt.datetime | None = None) -> int:
    """Delete the prepared reports past their expiry, their sealed CSV and key with them."""
    deleted, _kinds = PreparedReport.objects.expired(now or timezone.now()).delete()
    return deleted
