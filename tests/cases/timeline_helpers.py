"""A case with records of every kind the timeline shows, written in bulk (the services that write
them one at a time are tested on their own)."""

from __future__ import annotations

import datetime as dt

from caseflow.agreements.models import AgreementVersion, Breach, ContactEvent, ReviewState
from caseflow.cases import journey
from caseflow.cases.models import CaseStatus, PartyRole
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.confidentiality.models import Disclosure, DisclosureKind, Release
from caseflow.safety import instruments as engine
from caseflow.safety import services as safety_services
from caseflow.safety.models import RiskAssessment, SafetyPlan, SafetyPlanVersion
from tests.agreements.helpers import make_agreement

#: The first record's time; each next one is an hour later (all in the past whatever the clock).
START = dt.datetime(2024, 1, 1, 9, 0, tzinfo=dt.UTC)

#: Share of each kind in ``fill``'s records (sums to 1).
SHARES = {
    "contact": 0.35,
    "breach": 0.1,
    "checkin": 0.25,
    "plan_version": 0.1,
    "risk_assessment": 0.05,
    "agreement_version": 0.05,
    "release": 0.05,
    "disclosure": 0.05,
}


def _instrument():
    definition = engine.load_instrument(engine.SHIPPED_DIR / "caseflow-sample.yaml").to_dict()
    row, _ = safety_services.instrument_import(definition=definition)
    return row


def fill(case, actor, total: int) -> dict[str, int]:
    """About ``total`` records on ``case`` spread over every kind (at least one of each), one
    hour apart from :data:`START`, plus a status change. Returns how many of each were made."""
    counts = {kind: max(1, round(total * share)) for kind, share in SHARES.items()}
    clock = iter(START + dt.timedelta(hours=n) for n in range(10 * total + 100))
    agreement = make_agreement(case, actor)
    agreement.case = case
    survivor = case.parties.get(role=PartyRole.SURVIVOR)
    survivor.case = case

    events = [
        ContactEvent(
            case=case,
            agency_id=case.agency_id,
            agreement=agreement,
            occurred_at=next(clock),
            channel="phone" if n % 2 else "app",
            direction="from_survivor" if n % 5 == 4 else "to_survivor",
            kind="message",
            topic="school",
            description=f"Contact number {n}",
            proposed=[],
            review=ReviewState.NO_BREACH,
            logged_by=actor,
        )
        for n in range(counts["contact"] + counts["breach"])
    ]
    ContactEvent.objects.bulk_create(events)
    breached = [e for e in events if e.direction == "to_survivor"][: counts["breach"]]
    counts["breach"] = len(breached)
    counts["contact"] = len(events)
    Breach.objects.bulk_create(
        Breach(
            case=case,
            agency_id=case.agency_id,
            agreement=agreement,
            event=e,
            occurred_at=e.occurred_at,
            reported_at=e.occurred_at,
            channel=e.channel,
            terms_broken=["forbidden_channels"],
            violations=[],
            description=f"Breach of contact {n}",
            severity="medium",
            recorded_by=actor,
        )
        for n, e in enumerate(breached)
    )
    CheckIn.objects.bulk_create(
        CheckIn(
            case=case,
            agency_id=case.agency_id,
            assignee=actor,
            due_at=next(clock),
            channel="phone",
            status=CheckInStatus.DONE,
            outcome=CheckInOutcome.REACHED,
            note=f"Check-in note {n}",
        )
        for n in range(counts["checkin"])
    )
    plan = SafetyPlan.objects.create(case=case, version=counts["plan_version"])
    SafetyPlanVersion.objects.bulk_create(
        SafetyPlanVersion(
            case=case,
            agency_id=case.agency_id,
            plan=plan,
            number=n + 1,
            author=actor,
            created_at=next(clock),
            content={},
        )
        for n in range(counts["plan_version"])
    )
    instrument = _instrument()
    RiskAssessment.objects.bulk_create(
        RiskAssessment(
            case=case,
            agency_id=case.agency_id,
            instrument=instrument,
            answers={},
            score=3,
            band="medium",
            assessor=actor,
            created_at=next(clock),
        )
        for _ in range(counts["risk_assessment"])
    )
    # make_agreement wrote version 1.
    AgreementVersion.objects.bulk_create(
        AgreementVersion(
            case=case,
            agency_id=case.agency_id,
            agreement=agreement,
            number=n + 2,
            author=actor,
            created_at=next(clock),
            terms={},
            protocol={},
            note=f"Version note {n}",
        )
        for n in range(counts["agreement_version"] - 1)
    )
    releases = [
        Release(
            case=case,
            agency_id=case.agency_id,
            consenting_party=survivor,
            recipient=f"Recipient {n}",
            recipient_index=f"r{n}",
            purpose="Referral",
            categories=["contact"],
            signed_on=next(clock).date() - dt.timedelta(days=400),
            expires_on=next(clock).date() - dt.timedelta(days=300),
        )
        for n in range(counts["release"])
    ]
    Release.objects.bulk_create(releases)
    Disclosure.objects.bulk_create(
        Disclosure(
            case=case,
            agency_id=case.agency_id,
            kind=DisclosureKind.REFERRAL_PACK,
            release=releases[n % len(releases)],
            recipient=f"Recipient {n}",
            categories=["contact"],
            disclosed_on=next(clock).date(),
            created_by=actor,
        )
        for n in range(counts["disclosure"])
    )
    journey.case_set_status(actor=actor, case=case, status=CaseStatus.ACTIVE)
    return counts
