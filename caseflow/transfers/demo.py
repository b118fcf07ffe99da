"""Demo data for transfers: two Riverside cases asked to move to Hillview under the survivor's
release, one waiting in the Hillview supervisor's "Decisions waiting", the other taken on there
(a new Hillview case, the Riverside case closed as transferred). Everything goes through the
transfers services."""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta
from django.utils import timezone

from caseflow.cases.models import Case, CaseStatus, Party, PartyRole
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.services import release_record
from caseflow.transfers import services

CATEGORIES: list[str] = [Category.CONTACT, Category.ADDRESS, Category.RISK, Category.NARRATIVES]


def _candidates(context, agency_id: int) -> list[Case]:
    return [
        c
        for c in context.cases
        if c.agency_id != agency_id
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
        and Party.objects.filter(case=c, role=PartyRole.SURVIVOR).exists()
    ]


def seed_demo(context) -> None:
    supervisor = context.staff["hillview"][0]
    hillview = supervisor.membership.agency
    team = supervisor.teams.first()
    today = timezone.localdate()
    made = []
    for case in _candidates(context, hillview.pk)[-2:]:
        case = Case.objects.get(pk=case.pk)
        advocate = case.primary_advocate
        assert advocate is not None  # a candidate has one
        survivor = Party.objects.get(case=case, role=PartyRole.SURVIVOR)
        survivor.case = case
        release = release_record(
            actor=advocate,
            case=case,
            consenting_party=survivor,
            recipient=hillview.name,
            purpose="She is moving to Hillview's area and wants their support there.",
            categories=CATEGORIES,
            signed_on=today - dt.timedelta(days=3),
            expires_on=today + relativedelta(months=6),
        )
        made.append(
            services.transfer_request(
                actor=advocate,
                case=case,
                receiving_agency=hillview,
                release_id=release.public_id,
                categories=CATEGORIES,
            )
        )
    if len(made) == 2:
        services.transfer_accept(actor=supervisor, transfer=made[0], team=team)
