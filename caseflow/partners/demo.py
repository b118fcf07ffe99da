"""Demo data for working with other agencies: Riverside names its risk meeting and records its
lawful basis; a high-risk case is referred to the meeting, which agreed three actions (one of
them now overdue on the advocate's queue); a housing referral is tracked to "accepted" and
another is still waiting for its reply (a follow-up); the demo survivors' demographics are
filled in, some of them declined. Everything goes through the partners services."""

from __future__ import annotations

import datetime as dt
import random

from caseflow.cases.models import CaseStatus, IntakeField, PartyRole, RiskLevel
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.services import field_settings_save, release_record
from caseflow.partners import services
from caseflow.partners.models import DECLINED, NOT_ASKED, QUESTIONS, answers

HOUSING = "Safe Homes Housing Association (fictional)"
POLICE = "Riverside Police (fictional)"


#: How the demo's answers spread, as weights (an answer not listed is never given): roughly
#: the people a US domestic-abuse service supports, so that every funder report shows numbers
#: across its bands (most aged 25 to 44, mostly women, of every background), with "declined"
#: and "not asked" among them.
DEMO_WEIGHTS: dict[str, dict[str, int]] = {
    "age_band": {
        "13_17": 3,
        "18_24": 14,
        "25_34": 30,
        "35_44": 25,
        "45_54": 13,
        "55_59": 5,
        "60_64": 3,
        "65_plus": 3,
        DECLINED: 2,
        NOT_ASKED: 2,
    },
    "gender_identity": {
        "woman": 82,
        "man": 9,
        "non_binary": 3,
        "transgender": 2,
        "different": 1,
        DECLINED: 2,
        NOT_ASKED: 1,
    },
    "race_ethnicity": {
        "white": 42,
        "black": 20,
        "hispanic": 18,
        "asian": 6,
        "indigenous": 3,
        "mena": 2,
        "pacific": 1,
        "multiple": 4,
        "other": 1,
        DECLINED: 2,
        NOT_ASKED: 1,
    },
    # An agency in England: the 2021 census's groups, roughly as in a large city.
    "ethnic_group": {
        "white_british": 48,
        "white_other": 10,
        "white_irish": 2,
        "white_gypsy_traveller": 1,
        "asian_indian": 6,
        "asian_pakistani": 6,
        "asian_bangladeshi": 3,
        "asian_other": 2,
        "black_african": 7,
        "black_caribbean": 4,
        "mixed_white_black_caribbean": 2,
        "mixed_other": 2,
        "other_arab": 2,
        "other_any": 1,
        DECLINED: 3,
        NOT_ASKED: 1,
    },
    "disability": {"no": 68, "yes": 26, DECLINED: 3, NOT_ASKED: 3},
    "language": {"english": 76, "spanish": 14, "other": 5, "interpreter": 4, NOT_ASKED: 1},
    "relationship": {"ex_partner": 45, "partner": 34, "family": 15, "other": 4, DECLINED: 2},
    "household": {
        "with_children": 48,
        "alone": 20,
        "with_adults": 15,
        "with_other_party": 9,
        "no_fixed": 6,
        NOT_ASKED: 2,
    },
    "children": {"none": 30, "one": 29, "two": 25, "three_plus": 14, NOT_ASKED: 2},
    "immigration": {
        "citizen": 80,
        "visa": 8,
        "no_recourse": 4,
        "uncertain": 5,
        DECLINED: 3,
    },
}


def demo_answers(n: int, *, uk: bool = False) -> dict[str, str]:
    """Survivor ``n``'s answers: drawn by :data:`DEMO_WEIGHTS`, the same for the same ``n``.
    Only an agency in the ``uk`` asks the census's ethnic groups."""
    out = {}
    for i, question in enumerate(QUESTIONS):
        if question == "ethnic_group" and not uk:
            out[question] = NOT_ASKED
            continue
        weights = DEMO_WEIGHTS[question]
        given = {value for value, _label in answers(question)}
        choices = [value for value in weights if value in given]
        rng = random.Random(n * 1009 + i)
        out[question] = rng.choices(choices, weights=[weights[c] for c in choices])[0]
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
    # Riverside works in England: it asks the census's ethnic groups too.
    field_settings_save(actor=admin, values={IntakeField.DEMOGRAPHIC_ETHNIC_GROUP: (False, "")})
    # The survivors' answers, some declined and some not asked.
    for n, case in enumerate(context.cases):
        advocate = case.primary_advocate
        if advocate is None or case.restricted:
            continue
        services.demographics_save(
            actor=advocate,
            case=case,
            values=demo_answers(n, uk=case.agency_id == riverside.pk),
            expected_version=0,
        )
