"""Demo data for funder reports: enough more Riverside cases (opened over the last year, some
closed with outcomes recorded) that most cells of each report are counts rather than hidden.
Cases are opened through the case services and their answers saved through the partners
services; the closures of these demo cases are written as records (with their episode)."""

from __future__ import annotations

import datetime as dt

from caseflow.cases import services as case_services
from caseflow.cases.models import (
    AbuseChange,
    CaseStatus,
    Closure,
    ClosureReason,
    ClosureState,
    Episode,
    EpisodeStart,
    EpisodeStatus,
    FeelsSafer,
    PlanExitCheck,
    RiskLevel,
    StandardClosureReason,
)
from caseflow.partners import services as partner_services
from caseflow.partners.demo import demo_answers

#: More cases per Riverside team.
EXTRA = 60
FIRST = ["Alex", "Sam", "Jo", "Kim", "Lee", "Ria", "Tao", "Uma", "Val", "Wen"]
LAST = ["Example", "Sample", "Placeholder", "Fictional", "Pretend", "Madeup"]


def _person(n: int) -> dict:
    return {
        "full_name": f"{FIRST[n % len(FIRST)]} {LAST[(n // 10) % len(LAST)]} {n}",
        "date_of_birth": dt.date(1970 + n % 30, 1 + n % 12, 1 + n % 27),
        "phone": "",
        "email": "",
    }


def _reason(agency, standard: str) -> ClosureReason:
    label = dict(StandardClosureReason.choices)[standard]
    reason, _ = ClosureReason.objects.get_or_create(
        agency=agency, standard=standard, defaults={"label": str(label)}
    )
    return reason


def _close(case, advocate, when: dt.datetime, n: int) -> None:
    case_services.case_set_status(actor=advocate, request=None, case=case, status=CaseStatus.CLOSED)
    case.closed_at = when
    case.save(update_fields=["closed_at"])
    episode = case.episodes.order_by("-number").first()
    if episode is None:
        episode = Episode.objects.create(
            case=case, number=1, start=EpisodeStart.REFERRAL, opened_at=case.opened_at
        )
    episode.status = EpisodeStatus.CLOSED
    episode.closed_at = when
    episode.closed_by = advocate
    episode.save()
    if hasattr(episode, "closure"):
        return
    reasons = [
        StandardClosureReason.GOALS_MET,
        StandardClosureReason.GOALS_MET,
        StandardClosureReason.SURVIVOR_CHOICE,
        StandardClosureReason.NO_CONTACT,
    ]
    intake = [RiskLevel.HIGH, RiskLevel.MEDIUM, RiskLevel.MEDIUM, RiskLevel.STANDARD][n % 4]
    exit_band = RiskLevel.STANDARD if n % 3 else RiskLevel.MEDIUM
    Closure.objects.create(
        case=case,
        episode=episode,
        state=ClosureState.CLOSED,
        reason=_reason(case.agency, reasons[n % 4]),
        plan_check=PlanExitCheck.REVIEWED,
        abuse_change=[AbuseChange.STOPPED, AbuseChange.REDUCED, AbuseChange.REDUCED][n % 3],
        feels_safer=[FeelsSafer.YES, FeelsSafer.YES, FeelsSafer.A_LITTLE][n % 3],
        risk_at_intake=intake,
        risk_at_exit=exit_band,
        requested_by=advocate,
        requested_at=when,
        closed_at=when,
    )


def seed_demo(context) -> None:
    now = context.now
    n = 0
    for team_key in ("north", "south"):
        people = context.staff[team_key]
        team = people[0].teams.get()
        advocates = people[1:]
        for i in range(EXTRA):
            n += 1
            advocate = advocates[i % len(advocates)]
            case = case_services.case_open(
                actor=advocate,
                team=team,
                survivor=_person(n),
                other_party=None,
                risk_level=[RiskLevel.MEDIUM, RiskLevel.STANDARD, RiskLevel.HIGH][i % 3],
                summary="Fictional demo referral for the funder reports.",
            )
            case.opened_at = now - dt.timedelta(days=5 + (i * 37) % 330)
            case.save(update_fields=["opened_at"])
            case_services.case_set_status(
                actor=advocate, request=None, case=case, status=CaseStatus.ACTIVE
            )
            partner_services.demographics_save(
                actor=advocate,
                request=None,
                case=case,
                values=demo_answers(n),
                expected_version=0,
            )
            if i % 3 == 0:
                _close(case, advocate, now - dt.timedelta(days=1 + (i * 11) % 150), n)
