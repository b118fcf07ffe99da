"""Demo data for community work: two years of prevention and community education sessions at
both demo agencies (school talks, workshops, training for professionals, stalls at community
events), and the outcome surveys survivors handed back, mostly saying yes, some no, some left
blank. Riverside runs shelter, so some of its surveys are about shelter. Everything goes through
the community services, so the audit trail reads as it would in use."""

from __future__ import annotations

import datetime as dt

from caseflow.accounts.zones import agency_today
from caseflow.community import services
from caseflow.community.models import Audience, SessionKind, SurveyAnswer, SurveyService

#: The latest finished federal year may have begun 24 months ago.
DAYS = 760

#: (kind, audience, fewest, most people), as an agency's education work tends to be.
SESSIONS = (
    (SessionKind.TALK, Audience.YOUNG_PEOPLE, 18, 90),
    (SessionKind.WORKSHOP, Audience.YOUNG_PEOPLE, 8, 25),
    (SessionKind.TALK, Audience.ADULTS, 10, 40),
    (SessionKind.EVENT, Audience.ADULTS, 25, 150),
    (SessionKind.TRAINING, Audience.PROFESSIONALS, 6, 30),
)


def _answer(rng) -> str:
    roll = rng.random()
    if roll < 0.82:
        return SurveyAnswer.YES
    if roll < 0.93:
        return SurveyAnswer.NO
    return SurveyAnswer.NOT_ANSWERED


def seed_demo(context) -> None:
    rng = context.rng
    teams = [people for people in context.staff.values() if people]
    agencies: dict[int, list] = {}
    for people in teams:
        agencies.setdefault(people[0].membership.agency_id, []).extend(people)
    for i, people in enumerate(agencies.values()):
        agency = people[0].membership.agency
        today = agency_today(agency)
        shelter = i == 0
        for back in range(DAYS, 0, -1):
            day = today - dt.timedelta(days=back)
            if day.weekday() < 5 and rng.random() < 0.12:
                kind, audience, low, high = rng.choice(SESSIONS)
                services.session_record(
                    actor=rng.choice(people),
                    held_on=day,
                    kind=kind,
                    audience=audience,
                    participants=rng.randint(low, high),
                )
            for _n in range(rng.choice((0, 0, 0, 1, 1, 2))):
                service = (
                    SurveyService.SHELTER
                    if shelter and rng.random() < 0.4
                    else SurveyService.SUPPORT
                )
                services.survey_record(
                    actor=rng.choice(people),
                    returned_on=day,
                    service=service,
                    safety=_answer(rng),
                    resources=_answer(rng),
                )
