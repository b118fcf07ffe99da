"""Demo data for the audit workspace: reads by several members of staff, and one reviewed and one
unreviewed emergency access (the demo seed has already opened the unreviewed one)."""

from __future__ import annotations

from caseflow import policy
from caseflow.audit.services import record
from caseflow.cases import services as case_services
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
