"""Demo data for the cycle: on the demo's high-risk cases, what the other party did after each
incident (an apology within a day or two every time, with a gift, a promise to change or a
threat of self-harm on some), so the journey shows the pattern beside the harm; and on a case
with a contact agreement, a contact followed by "just to talk". Everything goes through the
cycle's service; every word is fictional. Runs after the casework and agreements demos."""

from __future__ import annotations

import datetime as dt

from caseflow import policy
from caseflow.agreements.models import ContactEvent
from caseflow.cases.models import CaseStatus, RiskLevel
from caseflow.casework.models import Incident
from caseflow.cycle import services
from caseflow.cycle.models import StandardKind

#: After incident number n (oldest first): the kinds that followed, hours after it, and her words.
AFTER: list[list[tuple[str, int, str]]] = [
    [(StandardKind.APOLOGY, 30, "Fictional: he said sorry over and over, said it was the stress.")],
    [
        (StandardKind.APOLOGY, 20, ""),
        (StandardKind.GIFT, 44, "Fictional: flowers left at the door with a card."),
    ],
    [
        (StandardKind.PITY, 10, "Fictional: said he would hurt himself if she did not answer."),
        (StandardKind.APOLOGY, 36, ""),
    ],
    [
        (StandardKind.PROMISE, 16, "Fictional: promised to go to a course and stop drinking."),
        (StandardKind.APOLOGY, 40, ""),
    ],
    [(StandardKind.AFFECTION, 24, ""), (StandardKind.APOLOGY, 50, "")],
]


def seed_demo(context) -> None:
    now = context.now
    high = [
        case
        for case in context.cases
        if case.status != CaseStatus.CLOSED
        and case.risk_level == RiskLevel.HIGH
        and not case.restricted
        and case.primary_advocate_id
    ]
    for case in high:
        advocate = case.primary_advocate
        if not policy.may(advocate, case, "edit"):
            continue
        incidents = list(Incident.objects.filter(case=case).order_by("occurred_at", "pk"))
        for number, incident in enumerate(incidents):
            incident.case = case
            for kind, hours, words in AFTER[number % len(AFTER)]:
                at = incident.occurred_at + dt.timedelta(hours=hours)
                if at > now:
                    continue
                services.mark_record(
                    actor=advocate, case=case, incident=incident, at=at, kind=kind, words=words
                )
        event = (
            ContactEvent.objects.filter(case=case, direction="to_survivor", occurred_at__lt=now)
            .order_by("-occurred_at", "-pk")
            .first()
        )
        if event is not None:
            event.case = case
            services.mark_record(
                actor=advocate,
                case=case,
                contact_event=event,
                at=min(event.occurred_at + dt.timedelta(hours=3), now),
                kind=StandardKind.JUST_TO_TALK,
                words="Fictional: asked to meet 'just to talk' about the children.",
            )
