"""Demo data for safety plans and risk assessments, written through the services."""

from __future__ import annotations

import datetime as dt

from caseflow.cases.models import Case, RiskLevel
from caseflow.safety import instruments as engine
from caseflow.safety import services
from caseflow.safety.hard_dates import on_year
from caseflow.safety.models import RiskAssessment, SafetyPlan, SafetyPlanVersion

SAFE_CONTACTS = [
    "Sister (fictional) knows the code word 'blue umbrella' means call the police.",
    "Neighbour at number 12 (fictional) will let her in at any hour.",
    "Friend from work (fictional): a text saying 'lunch tomorrow?' means come and get me.",
]
HOME = [
    "Kitchen has knives and only one exit: move to the front room when an argument starts.",
    "Phone kept charged in the coat pocket by the front door.",
    "Locks changed last month; the spare key is with the neighbour.",
]
LEAVING = [
    "Refuge space identified through the helpline; taxi paid for by the service.",
    "Will go to her sister's first, then the refuge. Leave on a weekday morning.",
]
TECH = [
    "Location sharing turned off on the phone; new e-mail account set up at the office.",
    "Checked the car for a tracker with the police; changed all passwords.",
]
BARRIERS = {
    "money": "No account in her own name yet: appointment at the bank on Tuesday.",
    "housing": "Tenancy is in his name: housing officer contacted.",
    "surveillance": "He knew where she had been last week: phone to be checked.",
}


#: Emotional safety, beside physical safety (fictional, in the advocate's words).
EMOTIONAL = {
    "triggers": "Sunday evenings and his apologetic messages bring the pull back. Going for a "
    "walk with her sister and putting the phone in another room helps.",
    "reach_out": "Her sister (any time); the helpline at night; the advocate on weekdays.",
    "delay_contact": "Wait an hour before answering; write the reply in the notes app first "
    "and read it to her sister.",
    "factual_record": "The dated list of what happened is kept at the office; she re-reads it "
    "with the advocate when doubts come.",
    "staying": "While she stays: the safe room is the kitchen (back door), the code word with "
    "the neighbour, and the car keys kept by the door.",
}


def _content(context, step: int, expires: dt.date | None = None) -> dict:
    rng = context.rng
    content = {
        "safe_contacts": rng.choice(SAFE_CONTACTS),
        "home": rng.choice(HOME),
        "emergency_numbers": "Police 999 · National helpline 0808 2000 247 (fictional entry)",
        "go_bag": ["id", "keys", "phone"] + (["medication", "money"] if step > 1 else []),
    }
    if step > 1:
        content["leaving"] = rng.choice(LEAVING)
        content["technology"] = rng.choice(TECH)
        content["documents"] = "Passports, birth certificates, tenancy letter (copies at office)."
    if step > 2:
        content.update(EMOTIONAL)
        content["barriers"] = dict(BARRIERS)
        content["children"] = "Children know to go to the neighbour's and say the code word."
    if expires is not None:
        content["protective_orders"] = [
            {
                "court": "Riverside Family Court (fictional)",
                "reference": "FC-DEMO-0001",
                "granted": (expires - dt.timedelta(days=180)).isoformat(),
                "expires": expires.isoformat(),
                "conditions": "No contact except through the co-parenting app.",
            }
        ]
    return content


WORDS_ITEM = "survivor_fears_serious_harm"
WORDS_DEMO = "If he finds out I have been here, I think he will really hurt me. (Fictional.)"


#: The dates that are hard for her, in her words (fictional): (kind, words, days from today,
#: years back for a yearly date or None for a one-off, days before she wants a check-in).
HARD_DATES = [
    ("anniversary", "The night I left. (Fictional.)", 9, 2, 2),
    ("birthday", "My daughter's birthday: he always tries to turn up. (Fictional.)", 23, 6, 3),
    ("release", "When he comes out of prison. (Fictional.)", 12, None, 3),
    ("court_date", "The final hearing. (Fictional.)", 5, None, 1),
]


def _hard_dates(context, case: Case, offset: int) -> None:
    """Two or three hard dates on a high-risk case's plan, yearly and one-off."""
    today = context.now.date()
    advocate = case.primary_advocate
    assert advocate is not None  # only cases with an advocate are given hard dates
    chosen = HARD_DATES[offset % 2 :: 2] + ([HARD_DATES[2]] if offset % 3 == 0 else [])
    for kind, words, days, years_back, before in dict.fromkeys(chosen):
        day = today + dt.timedelta(days=days + offset % 4)
        if years_back is not None:
            day = on_year(day, day.year - years_back)
        services.hard_date_add(
            actor=advocate,
            case=case,
            kind=kind,
            words=words,
            day=day,
            yearly=years_back is not None,
            support_days_before=before,
        )


def _answers(context, instrument: engine.Instrument, heavy: bool) -> dict:
    rng = context.rng
    share = 0.75 if heavy else 0.3
    return {item.id: rng.random() < share for item in instrument.items}


def seed_demo(context) -> None:
    sample, _ = services.instrument_import(
        definition=engine.load_instrument(engine.SHIPPED_DIR / "caseflow-sample.yaml").to_dict()
    )
    definition = sample.instrument()
    today = context.now.date()
    for index, case in enumerate(context.cases):
        advocate = case.primary_advocate
        if advocate is None or index % 6 == 5:
            continue  # a few cases have no plan yet: the page says so
        expires = today + dt.timedelta(days=12) if index == 1 else None
        steps = 2 + (index % 2)
        for step in range(1, steps + 1):
            services.plan_save(
                actor=advocate,
                case=case,
                expected_version=step - 1,
                content=_content(context, step, expires if step == steps else None),
            )
        # Spread the versions over the past weeks so the history reads like real use.
        for version in SafetyPlanVersion.objects.filter(plan__case=case):
            days_ago = (steps - version.number) * 20 + 3
            SafetyPlanVersion.objects.filter(pk=version.pk).update(
                created_at=context.now - dt.timedelta(days=days_ago)
            )
        SafetyPlan.objects.filter(case=case).update(updated_at=context.now - dt.timedelta(days=3))
        assessments = 1 + index % 3
        for n in range(assessments):
            heavy = index % 4 == 0 and n == assessments - 1
            services.assessment_record(
                actor=advocate,
                case=case,
                instrument=sample,
                answers=_answers(context, definition, heavy),
                # The question that asks for the survivor's own words, answered in them.
                words={WORDS_ITEM: WORDS_DEMO} if heavy else None,
            )
        for n, row in enumerate(RiskAssessment.objects.filter(case=case).order_by("pk")):
            days_ago = (assessments - n) * 30
            RiskAssessment.objects.filter(pk=row.pk).update(
                created_at=context.now - dt.timedelta(days=days_ago)
            )
        if index == 2:
            # One review already overdue: the sweep below turns it into a follow-up.
            SafetyPlan.objects.filter(case=case).update(review_by=today - dt.timedelta(days=4))
    high = Case.objects.filter(
        pk__in=[case.pk for case in context.cases], risk_level=RiskLevel.HIGH
    ).select_related("primary_advocate")
    for offset, case in enumerate(high.order_by("pk")):
        if case.primary_advocate is not None:
            _hard_dates(context, case, offset)
    services.safety_followups_sweep(context.now)
