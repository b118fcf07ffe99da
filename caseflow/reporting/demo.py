"""Demo data for funder reports: enough more Riverside cases (opened over the last year, some
closed with outcomes recorded) that most cells of each report are counts rather than hidden,
and most of the survivors who left agreed to share anonymised data with SafeLives Insights, so
the Insights return has rows (and some did not, or withdrew, so it leaves some out).
Cases are opened through the case services and their answers saved through the partners
services, and closed through the closure (reason, exit check and outcomes), dated back."""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from caseflow.cases import journey
from caseflow.cases.demo import close_for_demo
from caseflow.cases.models import (
    Case,
    CaseStatus,
    Closure,
    ClosureReason,
    Episode,
    RiskLevel,
    StandardClosureReason,
)
from caseflow.casework import needs as casework_needs
from caseflow.casework.models import Need, NeedKind, NeedStatus, NeedStatusChange
from caseflow.confidentiality import services as confidentiality
from caseflow.partners import services as partner_services
from caseflow.partners.demo import (
    demo_answers,
    demo_hud_answers,
    recorded_over_time,
    save_demo_hud_answers,
)
from caseflow.reporting.reports import periods

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


def _close(case, advocate, supervisor, when: dt.datetime, n: int) -> None:
    """Close through the closure (reason, exit check, outcomes; a supervisor approves a high
    risk), then date it back to ``when`` so the reports' periods have closures in them."""
    closure = close_for_demo(
        advocate=advocate, supervisor=supervisor, case=case, rng=random.Random(n)
    )
    Case.objects.filter(pk=case.pk).update(closed_at=when)
    Closure.objects.filter(pk=closure.pk).update(requested_at=when, closed_at=when)
    met = Need.objects.filter(case=case, public_id__in=closure.needs_met)
    met.update(status_since=when.date())
    NeedStatusChange.objects.filter(need__in=met, to_status=NeedStatus.MET).update(
        changed_on=when.date()
    )
    Episode.objects.filter(pk=closure.episode_id).update(closed_at=when)


def _closing_day(case, quarter, i: int, now: dt.datetime) -> dt.datetime:
    """A day in the latest finished quarter (so that, whatever the day the demo is made, the
    intake and exit report has exits enough to count), or, for a case opened after it, a day
    between its opening and now."""
    span = (quarter.end - quarter.start).days
    day = quarter.start + dt.timedelta(days=(i * 7) % (span + 1))
    when = dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)
    if when <= case.opened_at:
        when = case.opened_at + (now - case.opened_at) / 2
    return when


def seed_demo(context) -> None:
    now = context.now
    quarter = periods("quarter", timezone.localdate(now))[0]
    n = 0
    for team_key in ("north", "south"):
        people = context.staff[team_key]
        team = people[0].teams.get()
        advocates = people[1:]
        for i in range(EXTRA):
            n += 1
            advocate = advocates[i % len(advocates)]
            case = journey.case_open(
                actor=advocate,
                team=team,
                survivor=_person(n),
                other_party=None,
                risk_level=[RiskLevel.MEDIUM, RiskLevel.STANDARD, RiskLevel.HIGH][i % 3],
                summary="Fictional demo referral for the funder reports.",
            )
            case.opened_at = now - dt.timedelta(days=5 + (i * 37) % 330)
            if i % 9 == 4:
                # Some supported for more than a year (HUD's annual assessment is theirs).
                case.opened_at = now - dt.timedelta(days=440 + (i * 53) % 400)
            case.save(update_fields=["opened_at"])
            Episode.objects.filter(case=case, number=1).update(opened_at=case.opened_at)
            journey.case_set_status(actor=advocate, case=case, status=CaseStatus.ACTIVE)
            partner_services.demographics_save(
                actor=advocate,
                case=case,
                values=demo_answers(n, uk=True),
                expected_version=0,
            )
            if i % 3 == 0:
                # The needs the survivor came with; the closure records which were met.
                for kind in (NeedKind.HOUSING, NeedKind.MONEY, NeedKind.EMOTIONAL)[: 1 + i % 3]:
                    casework_needs.need_create(
                        actor=advocate,
                        case=case,
                        kind=kind,
                        identified_on=case.opened_at.date(),
                    )
            leaves = i % 3 == 0 or i % 2 == 0
            save_demo_hud_answers(
                actor=advocate,
                case=case,
                values=demo_hud_answers(
                    n + 1000, left=leaves, started=timezone.localtime(case.opened_at).date()
                ),
            )
            if leaves:
                # Her answer to sharing anonymised data with SafeLives Insights, asked before
                # she leaves: most agree (their exits are the Insights return's rows); some do
                # not, one in ten withdraws, and a few were never asked.
                if i % 10 != 7:
                    confidentiality.research_consent_save(
                        actor=advocate, case=case, agrees=i % 5 != 4
                    )
                if i % 10 == 9:
                    confidentiality.research_consent_save(actor=advocate, case=case, agrees=False)
                _close(case, advocate, people[0], _closing_day(case, quarter, i, now), n)
            # The days the answers were recorded, once the exit (if any) has its day.
            recorded_over_time(n + 1000, case, Episode.objects.get(case=case, number=1))
