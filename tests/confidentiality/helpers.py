from __future__ import annotations

import datetime as dt

from django.utils import timezone

from caseflow.cases.models import Case, CaseStatus, Party, PartyRole
from caseflow.confidentiality import services
from caseflow.confidentiality.models import Category

RECIPIENT = "Riverside Housing Trust"


def party(case: Case, role: str = PartyRole.SURVIVOR) -> Party:
    p = Party.objects.filter(case=case, role=role).first()
    p.case = case
    return p


def fresh(case: Case) -> Case:
    return Case.objects.get(pk=case.pk)


def release(
    cast,
    case: Case | None = None,
    *,
    categories=(Category.CONTACT, Category.ADDRESS),
    signed_on: dt.date | None = None,
    expires_on: dt.date | None = None,
    recipient: str = RECIPIENT,
):
    case = case or cast.case
    today = timezone.localdate()
    return services.release_record(
        actor=cast.other_team if case.pk == cast.team2_case.pk else cast.assigned,
        case=case,
        consenting_party=party(case),
        recipient=recipient,
        purpose="Housing referral",
        categories=list(categories),
        signed_on=signed_on or today - dt.timedelta(days=10),
        expires_on=expires_on or today + dt.timedelta(days=90),
    )


def close(case: Case, years_ago: float) -> Case:
    closed_at = timezone.now() - dt.timedelta(days=365.25 * years_ago)
    Case.objects.filter(pk=case.pk).update(status=CaseStatus.CLOSED, closed_at=closed_at)
    return fresh(case)
