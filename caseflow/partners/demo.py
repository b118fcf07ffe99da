"""Demo data for working with other agencies: Riverside names its risk meeting and records its
lawful basis; a high-risk case is referred to the meeting, which agreed three actions (one of
them now overdue on the advocate's queue); a housing referral is tracked to "accepted" and
another is still waiting for its reply (a follow-up); the demo survivors' demographics are
filled in, some of them declined. Everything goes through the partners services."""

from __future__ import annotations

import datetime as dt

from caseflow.cases.models import CaseStatus, PartyRole, RiskLevel
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.services import release_record
from caseflow.partners import services
from caseflow.partners.models import DECLINED, NOT_ASKED, QUESTIONS, answers

HOUSING = "Safe Homes Housing Association (fictional)"
POLICE = "Riverside Police (fictional)"


def demo_answers(n: int) -> dict[str, str]:
    """Plausible answers, concentrated on a few so that the demo's reports show counts, with
    "declined" and "not asked" among them."""
    out = {}
    for i, question in enumerate(QUESTIONS):
        given = [value for value, _label in answers(question) if value not in (DECLINED, NOT_ASKED)]
        roll = (n * 7 + i * 3) % 20
        if roll == 0:
            out[question] = DECLINED
        elif roll == 1:
            out[question] = NOT_ASKED
        else:
            # Most answers fall on the first few choices of each question.
            out[question] = given[(roll + n) % min(len(given), 3 if len(given) > 3 else 2)]
    return out


def seed_demo(context) -> None:
    riverside = context.staff["north"][0].membership.agency
    admin = next(
        u for u in riverside.memberships.select_related("user") if u.role == "agency_admin"
    ).user
    services.settings_save(
        actor=admin,
        meeting_name="MARAC",
        lawful_basis="Sharing to protect the survivor's vital interests when the risk of serious "
        "harm is high (fictional demo wording).",
    )
    today = context.now.date()
    high = [
        c
        for c in context.cases
        if c.agency_id == riverside.pk
        and c.risk_level == RiskLevel.HIGH
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
    ]
    if high:
        case = high[0]
        advocate = case.primary_advocate
        referral = services.meeting_refer(
            actor=advocate,
            case=case,
            route="assessment",
            reason="",
            basis="lawful_basis",
            release=None,
            categories=[Category.RISK, Category.CONTACT, Category.CHILDREN],
            referred_on=today - dt.timedelta(days=20),
            meeting_on=today - dt.timedelta(days=10),
        )
        services.meeting_update(
            actor=advocate,
            referral=referral,
            meeting_on=referral.meeting_on,
            outcome="Police to flag the address for a priority response; housing to look at a "
            "move; the school told of the contact arrangements (fictional).",
        )
        for text, owner, other, due, done in (
            ("Call the survivor about the housing options", advocate, "", -3, False),
            (
                "Flag the address for a priority response",
                None,
                "Riverside Police (fictional)",
                7,
                False,
            ),
            ("Share the school contact plan with the survivor", advocate, "", -8, True),
        ):
            action = services.action_add(
                actor=advocate,
                referral=referral,
                text=text,
                owner=owner,
                owner_agency=other,
                due_on=today + dt.timedelta(days=due),
            )
            if done:
                services.action_set_status(actor=advocate, action=action, status="done")
    # Housing referrals: one accepted, one still waiting past its reply date.
    open_cases = [
        c
        for c in context.cases
        if c.agency_id == riverside.pk
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
    ]
    for case, accepted in zip(open_cases[1:3], (True, False), strict=False):
        advocate = case.primary_advocate
        survivor = case.parties.filter(role=PartyRole.SURVIVOR).first()
        if survivor is None:
            continue
        release = release_record(
            actor=advocate,
            case=case,
            consenting_party=survivor,
            recipient=HOUSING,
            purpose="Referral for a safe move.",
            categories=[Category.CONTACT, Category.ADDRESS],
            signed_on=today - dt.timedelta(days=15),
            expires_on=today + dt.timedelta(days=180),
        )
        sent = services.referral_create(
            actor=advocate,
            case=case,
            direction="out",
            service_type="housing",
            organisation=HOUSING,
            details="A safe move away from the other party's area.",
            sent_on=today - dt.timedelta(days=14),
            respond_by=today - dt.timedelta(days=4),
            release=release,
            needs=[],
        )
        if accepted:
            services.referral_set_state(
                actor=advocate,
                referral=sent,
                state="accepted",
                on=today - dt.timedelta(days=2),
                expected_version=sent.version,
            )
    services.referral_followups_sweep(context.now)
    # The survivors' answers, some declined and some not asked.
    for n, case in enumerate(context.cases):
        advocate = case.primary_advocate
        if advocate is None or case.restricted:
            continue
        services.demographics_save(
            actor=advocate,
            case=case,
            values=demo_answers(n),
            expected_version=0,
        )
