"""Retention: the agency's schedule, and the purge proposals it makes due."""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Agency, User
from caseflow.audit.services import record
from caseflow.cases.models import Case, CaseStatus
from caseflow.confidentiality.models import (
    ProposalStatus,
    PurgeProposal,
    PurgeScope,
    RetentionSchedule,
)
from caseflow.confidentiality.services.configure import may_configure


def schedule_for(agency_id: int) -> tuple[int, int]:
    """(narratives years, whole-record years) after closure for the agency."""
    schedule = RetentionSchedule.objects.filter(agency_id=agency_id).first()
    if schedule is None:
        return settings.RETENTION_NARRATIVES_YEARS, settings.RETENTION_RECORD_YEARS
    return schedule.narratives_years, schedule.record_years


@transaction.atomic
def retention_save(*, actor: User, narratives_years: int, record_years: int) -> RetentionSchedule:
    if not may_configure(actor):
        raise PermissionDenied
    if record_years < narratives_years:
        raise ValueError("the whole record cannot go before its narratives")
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    schedule, _ = RetentionSchedule.objects.update_or_create(
        agency_id=agency_id,
        defaults={
            "narratives_years": narratives_years,
            "record_years": record_years,
            "updated_by": actor,
        },
    )
    record(
        "retention.save",
        actor=actor,
        obj=schedule,
        detail={"narratives_years": narratives_years, "record_years": record_years},
    )
    return schedule


LIVE = (ProposalStatus.PENDING, ProposalStatus.APPROVED, ProposalStatus.EXECUTED)


def _propose(case: Case, scope: str, due_on: dt.date) -> PurgeProposal | None:
    try:
        with transaction.atomic():
            proposal = PurgeProposal.objects.create(
                case=case, agency_id=case.agency_id, scope=scope, due_on=due_on
            )
            record(
                "purge.propose",
                case=case,
                obj=proposal,
                detail={"proposal": proposal.pk, "scope": scope},
            )
    except IntegrityError:
        return None
    return proposal


def purge_propose_due(*, now: dt.datetime | None = None) -> list[PurgeProposal]:
    """Propose the purges the agencies' schedules make due; cancel proposals of reopened cases.
    Idempotent: a case has at most one live proposal per scope."""
    now = now or timezone.now()
    created: list[PurgeProposal] = []
    stale = PurgeProposal.objects.filter(
        status__in=(ProposalStatus.PENDING, ProposalStatus.APPROVED)
    ).exclude(case__status=CaseStatus.CLOSED)
    for proposal in stale.select_related("case"):
        with transaction.atomic():
            proposal.status = ProposalStatus.CANCELLED
            proposal.decided_at = now
            proposal.save(update_fields=["status", "decided_at"])
            record(
                "purge.cancel",
                case=proposal.case,
                obj=proposal,
                detail={"proposal": proposal.pk, "reason": "case_reopened"},
            )
    for agency_id in Agency.objects.values_list("pk", flat=True):
        narratives_years, record_years = schedule_for(agency_id)
        closed = Case.objects.filter(
            agency_id=agency_id, status=CaseStatus.CLOSED, closed_at__isnull=False
        ).only("pk", "agency_id", "closed_at", "public_id", "reference")
        live = PurgeProposal.objects.filter(case=OuterRef("pk"), status__in=LIVE)
        whole_cut = now - relativedelta(years=record_years)
        for case in closed.filter(closed_at__lte=whole_cut).exclude(
            Exists(live.filter(scope=PurgeScope.WHOLE))
        ):
            due = (case.closed_at + relativedelta(years=record_years)).date()
            if (p := _propose(case, PurgeScope.WHOLE, due)) is not None:
                created.append(p)
        narratives_cut = now - relativedelta(years=narratives_years)
        for case in closed.filter(closed_at__lte=narratives_cut).exclude(Exists(live)):
            due = (case.closed_at + relativedelta(years=narratives_years)).date()
            if (p := _propose(case, PurgeScope.NARRATIVES, due)) is not None:
                created.append(p)
    return created
