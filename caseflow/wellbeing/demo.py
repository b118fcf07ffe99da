"""Demo data for her own rating: the UK agency asks the SafeLives Insights questions, the US one
the VOCA outcome questions (chosen by each agency's admin). Each open high-risk case has five
check-ins over the last weeks at which she was reached and rated how she is: a trend that rises,
with a bad week in it (progress is not a straight line), and now and then her own words. The
ratings go through the service; every word is fictional."""

from __future__ import annotations

import datetime as dt

from caseflow.accounts.models import Membership, Role
from caseflow.cases.models import CaseStatus, RiskLevel
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.wellbeing import services
from caseflow.wellbeing.questions import Preset
from caseflow.wellbeing.selectors import question_set

#: The agencies' choices, by slug.
PRESETS = {"riverside": Preset.SAFELIVES, "hillview": Preset.VOCA}
#: How far back the ratings go at most, and where each check-in falls between that (or the
#: case's opening, if later) and now.
SPAN = dt.timedelta(days=40)
PLACES = (0.05, 0.25, 0.45, 0.7, 0.92)
#: Where each of her answers stands on its scale at each check-in (0 = its lowest): rising,
#: with a bad week after the third.
SHAPES = (
    (0.2, 0.3, 0.5, 0.4, 0.7),
    (0.1, 0.3, 0.4, 0.3, 0.6),
    (0.3, 0.3, 0.5, 0.6, 0.8),
    (0.2, 0.4, 0.4, 0.3, 0.5),
)
WORDS = {
    0: "Still jumping every time the phone goes.",
    2: "Sleeping a bit better since the locks were changed.",
    3: "He turned up at school pick-up. Shaken.",
    4: "Feel like I can breathe again most days.",
}


def _choose_questions() -> None:
    for slug, preset in PRESETS.items():
        admin = (
            Membership.objects.filter(agency__slug=slug, role=Role.AGENCY_ADMIN, is_active=True)
            .select_related("user")
            .first()
        )
        if admin is not None:
            services.question_set_save(actor=admin.user, preset=preset, off=[], ask_words=True)


def seed_demo(context) -> None:
    _choose_questions()
    now = context.now
    high = [
        c
        for c in context.cases
        if c.risk_level == RiskLevel.HIGH
        and c.status != CaseStatus.CLOSED
        and not c.restricted
        and c.primary_advocate_id
    ]
    for n, case in enumerate(high):
        advocate = case.primary_advocate
        questions = question_set(case.agency_id).questions
        shape = SHAPES[n % len(SHAPES)]
        start = max(case.opened_at, now - SPAN)
        if now - start < dt.timedelta(days=7):
            continue  # too new for a trend
        for step, place in enumerate(PLACES):
            due = (start + (now - start) * place).replace(minute=0, second=0, microsecond=0)
            checkin = CheckIn.objects.create(
                case=case,
                assignee=advocate,
                due_at=due,
                channel="phone",
                status=CheckInStatus.DONE,
                outcome=CheckInOutcome.REACHED,
                outcome_at=due + dt.timedelta(minutes=20),
                created_by=advocate,
            )
            answers = {}
            for offset, question in enumerate(questions):
                share = min(1.0, max(0.0, shape[step] + 0.1 * ((offset + n) % 2)))
                answers[question.code] = round(
                    question.low + share * (question.high - question.low)
                )
            services.rating_record(
                actor=advocate,
                case=case,
                answers=answers,
                words=WORDS.get(step, "") if (step + n) % 2 == 0 else "",
                taken_at=due + dt.timedelta(minutes=25),
                checkin=checkin,
            )
