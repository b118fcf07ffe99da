"""Demo data for the audit workspace: reads by several members of staff, two reviewed emergency
accesses (one justified; one with a crisis call recorded under it, needing follow-up, with the
supervisor's follow-up on her list) and one unreviewed (the demo seed has already opened it)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from caseflow import policy
from caseflow.audit.services import record
from caseflow.cases import services as case_services
from caseflow.casework.services import note_create
from caseflow.oversight.services import break_glass_review


def seed_demo(context) -> None:
    north, south = context.staff["north"], context.staff["south"]
    nadia = north[0]
    # Advocates read their own cases, and a supervisor reads through her team's.
    for person in (*north[1:], *south[1:]):
        for case in policy.visible_cases(person).filter(primary_advocate=person)[:3]:
            record("case.view", actor=person, case=case, obj=case)
    for case in policy.visible_cases(nadia).filter(team__name="North team")[:5]:
        record("case.view", actor=nadia, case=case, obj=case)

    # A South advocate opens a North case in an emergency; its team's supervisor reviews it.
    dev = south[1]
    target = (
        policy.break_glass_candidates(dev)
        .filter(team__name="North team")
        .exclude(assignments__user=dev)
        .order_by("reference")
        .first()
    )
    if target is None:
        return
    grant = case_services.break_glass_open(
        actor=dev,
        reference=target.reference,
        reason="Client came to the South office in crisis; her advocate was unreachable.",
    )
    record("case.view", actor=dev, case=target, obj=target)
    break_glass_review(
        actor=nadia,
        grant=grant,
        outcome="justified",
        comment="Duty cover. Advocate informed the next morning.",
    )

    # A South duty worker takes a crisis call for another North case and records it; the
    # supervisor asks for follow-up: a follow-up on the case, on her own list.
    duty = south[2] if len(south) > 2 else None
    if duty is None:
        return
    crisis = (
        policy.break_glass_candidates(duty)
        .filter(team__name="North team")
        .exclude(pk=target.pk)
        .exclude(assignments__user=duty)
        .order_by("reference")
        .first()
    )
    if crisis is None:
        return
    grant = case_services.break_glass_open(
        actor=duty,
        reference=crisis.reference,
        reason="Crisis call on the duty line at night; her advocate was off shift.",
    )
    record("case.view", actor=duty, case=crisis, obj=crisis)
    note_create(
        actor=duty,
        case=crisis,
        kind="call",
        participants=["survivor"],
        direction="incoming",
        occurred_at=timezone.now() - dt.timedelta(minutes=40),
        duration_minutes=25,
        text="She called from a friend's phone after an argument at home. Safe for tonight at "
        "her sister's; agreed her advocate calls her tomorrow in her safe window.",
    )
    break_glass_review(
        actor=nadia,
        grant=grant,
        outcome="follow_up",
        comment="Right to take the call. Go over the night handover with the duty team so the "
        "advocate hears of it first thing.",
    )
