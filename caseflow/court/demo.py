"""Demo data for court: several high-risk cases have hearings. Each has one heard last month
with its outcome (an order made and linked to the safety plan's protective order where the plan
records one, or adjourned), and one coming up this week or next, with its safety steps added
(plan review, check-ins either side in the survivor's safe windows, accompaniment). Everything
goes through the court services; every court is fictional."""

from __future__ import annotations

import datetime as dt

from caseflow.cases.models import CaseStatus, RiskLevel
from caseflow.court import services, steps
from caseflow.court.models import Attendance, HearingKind, HearingOutcome, Support
from caseflow.court.orders import plan_orders

COURTS = (
    "Exampletown Family Court (fictional)",
    "Riverside Magistrates' Court (fictional)",
    "Northgate County Court (fictional)",
)
KINDS = (
    HearingKind.PROTECTION_ORDER,
    HearingKind.CHILD_ARRANGEMENTS,
    HearingKind.CRIMINAL,
    HearingKind.HOUSING,
)
SUPPORT = (
    [Support.ACCOMPANIMENT, Support.WAITING_ROOM],
    [Support.ACCOMPANIMENT, Support.SPECIAL_MEASURES],
    [Support.VIDEO_LINK, Support.INTERPRETER],
    [Support.ACCOMPANIMENT],
)


def seed_demo(context) -> None:
    high = [
        c
        for c in context.cases
        if c.risk_level == RiskLevel.HIGH
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
    ][:4]
    now = context.now
    for n, case in enumerate(high):
        advocate = case.primary_advocate
        kind = KINDS[n % len(KINDS)]
        past = services.hearing_record(
            actor=advocate,
            case=case,
            court=COURTS[n % len(COURTS)],
            kind=kind,
            starts_at=(now - dt.timedelta(days=20 + 3 * n)).replace(
                hour=10, minute=0, second=0, microsecond=0
            ),
            attendance=Attendance.IN_PERSON,
            support=list(SUPPORT[n % len(SUPPORT)]),
        )
        orders = plan_orders(case)
        made = bool(orders) and (kind == HearingKind.PROTECTION_ORDER or n % 2 == 0)
        services.hearing_outcome_record(
            actor=advocate,
            hearing=past,
            expected_version=past.version,
            outcome=HearingOutcome.ORDER_MADE if made else HearingOutcome.ADJOURNED,
            attendance=Attendance.IN_PERSON,
            orders=[orders[0].key] if made else [],
            notes="Heard in the morning list; the survivor gave evidence from behind a screen."
            if made
            else "Adjourned for the other party's reports; relisted.",
        )
        upcoming = services.hearing_record(
            actor=advocate,
            case=case,
            court=COURTS[(n + 1) % len(COURTS)],
            kind=kind if not made else HearingKind.CHILD_ARRANGEMENTS,
            starts_at=(now + dt.timedelta(days=2 + 2 * n)).replace(
                hour=10 + n, minute=30, second=0, microsecond=0
            ),
            attendance=Attendance.VIDEO if n == 2 else Attendance.IN_PERSON,
            support=list(SUPPORT[(n + 1) % len(SUPPORT)]),
        )
        steps.hearing_steps_add(actor=advocate, hearing=upcoming, codes=list(steps.CODES))
