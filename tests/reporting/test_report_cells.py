"""Every cell of every funder report, against a population seeded here and counted by hand.

Twenty survivors of one agency, all referred in April 2026 and all closed in June 2026, so that
everything happens inside one quarter: the VOCA quarter (Q3 of the federal year 2026, April to
June), the Insights quarter (April to June 2026) and the federal year 2026 (FVPSA and HUD) count
the same people, and the year's release is tied to quarters that are empty but for that one.
Around them: calls (anonymous ones among them), shelter stays and turn-aways, payments (one
waiting for approval), notes, check-ins, incidents; and things that must not count (another
agency's case and call, a call after the quarter, a payment not approved, an internal note).

Each report is compared with the table it must print, cell by cell, "*" where suppression hides a
count (1 to 4, and the complements that keep them from being worked out). Why each "*" is there
is said beside it.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from caseflow.assistance import services as assistance
from caseflow.assistance.models import AssistanceSettings, FundingSource
from caseflow.calls import services as calls
from caseflow.cases.models import (
    Case,
    CaseStatus,
    Closure,
    ClosureReason,
    ClosureState,
    Episode,
    EpisodeStart,
    EpisodeStatus,
    PartyRole,
    RiskLevel,
)
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.community import services as community
from caseflow.lib.suppression import printed_stars, worked_out
from caseflow.partners.models import DECLINED, Demographics
from caseflow.reporting import reports
from caseflow.servicelog import services as servicelog
from caseflow.shelter import services as shelter
from caseflow.shelter.models import Bed, Room, Site
from tests import factories as f
from tests.casework.helpers import make_incident, make_note

pytestmark = pytest.mark.django_db

UTC = dt.UTC
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
QUARTER = reports.federal_quarter(dt.date(2026, 4, 1))
CALENDAR_QUARTER = reports.calendar_quarter(dt.date(2026, 4, 1))
YEAR = reports.federal_year(2026)

N = 20
# One row per survivor; person 19 was never asked (no record of answers at all).
AGES = ["25_34"] * 6 + ["35_44"] * 6 + ["18_24"] * 3 + ["45_54"] * 2 + [DECLINED] * 2
GENDERS = ["woman"] * 15 + ["man"] * 2 + ["non_binary", DECLINED]
RACES = ["white"] * 7 + ["black"] * 5 + ["hispanic"] * 3 + ["asian"] * 2 + ["multiple", DECLINED]
DISABILITY = ["no"] * 12 + ["yes"] * 6 + [DECLINED]
CHILDREN = ["none"] * 6 + ["one"] * 6 + ["two"] * 5 + ["three_plus"] * 2
LANGUAGES = ["en"] * 12 + ["es"] * 5 + ["so"] * 2 + [""]
INTERPRETER = [""] * 12 + ["es"] * 3 + [""] * 2 + ["so"] * 2 + [""]
STARTS = [EpisodeStart.REFERRAL] * 17 + [EpisodeStart.RETURN] * 2 + [EpisodeStart.REREFERRAL]
# Risk at intake and at exit, whether the abuse stopped, whether she feels safer.
INTAKE = [RiskLevel.HIGH] * 8 + [RiskLevel.MEDIUM] * 7 + [RiskLevel.STANDARD] * 5
EXIT = [RiskLevel.STANDARD] * 6 + [RiskLevel.MEDIUM] * 2 + [RiskLevel.STANDARD] * 12
ABUSE = ["stopped"] * 9 + ["reduced"] * 6 + ["unchanged"] * 5
SAFER = ["yes"] * 14 + ["a_little"] * 6
REASONS = ["goals_met"] * 12 + ["no_contact"] * 5 + ["moved_away"] * 3


def _at(day: str, hour: int = 10) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC)


@pytest.fixture
def population(cast):
    assert len(AGES) == len(GENDERS) == len(RACES) == len(DISABILITY) == len(CHILDREN) == N - 1
    assert len(LANGUAGES) == len(INTERPRETER) == len(STARTS) == len(INTAKE) == N
    actor = cast.assigned
    cases: list[Case] = []
    with time_machine.travel(_at("2026-04-01"), tick=False):
        site = Site.objects.create(agency=cast.agency, name="Oak House", address="1 Fictional Rd")
        room = Room.objects.create(agency=cast.agency, site=site, name="Room 1")
        beds = [Bed.objects.create(agency=cast.agency, room=room, label=f"Bed {n}") for n in "ABC"]
        AssistanceSettings.objects.create(
            agency=cast.agency, currency="USD", approval_limit=Decimal("150.00")
        )
        fund = FundingSource.objects.create(agency=cast.agency, name="VOCA")
    for n in range(N):
        opened = _at(f"2026-04-{n + 1:02d}")
        case = f.open_case(cast.team1, assignees=[actor], reference=f"C-{n}", opened_at=opened)
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
        party.languages = LANGUAGES[n]
        party.interpreter_language = INTERPRETER[n]
        party.save()
        if n < N - 1:
            Demographics(
                case=case,
                party=party,
                age_band=AGES[n],
                gender_identity=GENDERS[n],
                race_ethnicity=RACES[n],
                disability=DISABILITY[n],
                children=CHILDREN[n],
            ).save()
        Episode.objects.create(case=case, number=1, start=STARTS[n], opened_at=opened)
        cases.append(case)
    # Services in the quarter: 6 support calls and 2 court notes (and an internal one, not a
    # service), 7 check-ins done (and one missed), 3 payments made (one waiting is not counted).
    support_notes = [
        make_note(cases[n], actor, when=_at("2026-05-04"), kind="call") for n in range(6)
    ]
    court_notes = [
        make_note(cases[n], actor, when=_at("2026-05-05"), kind="court") for n in range(2)
    ]
    make_note(cases[3], actor, when=_at("2026-05-05"), kind="internal")
    for n in range(8):
        CheckIn.objects.create(
            case=cases[n],
            channel="phone",
            due_at=_at("2026-05-12"),
            assignee=actor,
            status=CheckInStatus.DONE if n < 7 else CheckInStatus.MISSED,
        )
    with time_machine.travel(_at("2026-05-20"), tick=False):
        for n, amount in ((0, "85.00"), (1, "120.00"), (2, "40.00"), (3, "400.00")):
            assistance.payment_record(
                actor=actor,
                case=cases[n],
                amount=Decimal(amount),
                currency="USD",
                purpose="hotel",
                payee_kind="hotel",
                payee_name="Riverside Inn",
                funding_source=fund,
                paid_on=dt.date(2026, 5, 20),
            )
    # Incidents she told us about: 8 people coercive control, 5 of them physical harm too.
    for n in range(8):
        kinds = ["coercive", "physical"] if n < 5 else ["coercive"]
        make_incident(cases[n], actor, when=_at("2026-04-25"), kinds=kinds)
    # Calls: 6 anonymous, 5 from survivors, 2 from professionals; and two that do not count.
    quarter_calls = []
    for n, kind in enumerate(["anonymous"] * 6 + ["survivor"] * 5 + ["professional"] * 2):
        with time_machine.travel(_at(f"2026-05-{n + 1:02d}", 21), tick=False):
            quarter_calls.append(calls.call_log(actor=actor, caller_kind=kind))
    with time_machine.travel(_at("2026-07-01", 0), tick=False):
        calls.call_log(actor=actor, caller_kind="survivor")
    with time_machine.travel(_at("2026-05-02"), tick=False):
        calls.call_log(actor=cast.other_agency, caller_kind="anonymous")
    # Shelter: 10 nights with two children, and 7 nights alone; 6 households turned away.
    with time_machine.travel(_at("2026-04-10"), tick=False):
        shelter.stay_book(
            actor=actor,
            case=cases[0],
            bed=beds[0],
            starts_on=dt.date(2026, 4, 10),
            ends_on=dt.date(2026, 4, 20),
            children=2,
        )
        shelter.stay_book(
            actor=actor,
            case=cases[1],
            bed=beds[1],
            starts_on=dt.date(2026, 5, 1),
            ends_on=dt.date(2026, 5, 8),
        )
        for n in range(6):
            shelter.turnaway_record(
                actor=actor, on=dt.date(2026, 4, 11 + n), adults=1, children=1 if n < 3 else 0
            )
    # Services counted in the funders' categories. The agency counted 5 anonymous calls as
    # VOCA's hotline counselling (on no case), then chose to count by Insights only (and a
    # category of its own): the VOCA row it used is still shown. In the quarter besides: the 6
    # support notes as emotional support, the 2 court notes as support at court, the first stay
    # as peer mentoring (its own). In July (the year's fourth quarter): one safety planning.
    # Another agency's is not counted.
    admin = cast.agency_admin
    with time_machine.travel(_at("2026-07-02"), tick=False):
        counted = [("call", s, "voca_c2", "2026-05-01") for s in quarter_calls[:5]]
        for kind, source, category, day in counted:
            servicelog.service_record(
                actor=actor,
                source_kind=kind,
                source=source,
                category=category,
                minutes=30,
                given_on=dt.date.fromisoformat(day),
            )
        servicelog.service_schemes_save(actor=admin, schemes=["insights"])
        own = servicelog.service_category_add(actor=admin, label="Peer mentoring")
        counted = [
            *(("note", s, "insights_emotional", "2026-05-04") for s in support_notes),
            *(("note", s, "insights_court", "2026-05-05") for s in court_notes),
            ("stay", cases[0].shelter_stays.get(), f"own:{own.public_id}", "2026-04-10"),
            ("note", support_notes[0], "insights_safety_planning", "2026-07-01"),
        ]
        for kind, source, category, day in counted:
            servicelog.service_record(
                actor=actor,
                source_kind=kind,
                source=source,
                category=category,
                minutes=30,
                given_on=dt.date.fromisoformat(day),
            )
        foreign = make_note(cast.foreign_case, cast.other_agency, when=_at("2026-05-04"))
        servicelog.service_record(
            actor=cast.other_agency,
            source_kind="note",
            source=foreign,
            category="insights_emotional",
            minutes=30,
            given_on=dt.date(2026, 5, 4),
        )
    # Community work in the federal year 2026: four education sessions (two for young people,
    # 30 and 12 came; an event for adults, 80; a training for 3 professionals), and 18 outcome
    # surveys (6 about shelter, all "yes"; 12 about support: the safety statement 9 yes, 2 no,
    # 1 blank; the resources statement 9 yes, 1 no, 2 blank). Not counted: a session the day
    # before the year began, another agency's session and survey.
    with time_machine.travel(_at("2026-07-02"), tick=False):
        for day, kind, audience, people in [
            ("2025-11-04", "talk", "young_people", 30),
            ("2026-02-10", "workshop", "young_people", 12),
            ("2026-05-01", "event", "adults", 80),
            ("2026-06-01", "training", "professionals", 3),
            ("2025-09-30", "talk", "adults", 50),
        ]:
            community.session_record(
                actor=actor,
                held_on=dt.date.fromisoformat(day),
                kind=kind,
                audience=audience,
                participants=people,
            )
        community.session_record(
            actor=cast.other_agency,
            held_on=dt.date(2026, 3, 3),
            kind="talk",
            audience="adults",
            participants=20,
        )
        surveys = [("shelter", "yes", "yes")] * 6 + [
            *[("support", "yes", "yes")] * 8,
            ("support", "yes", "no"),
            ("support", "no", "not_answered"),
            ("support", "no", "not_answered"),
            ("support", "not_answered", "yes"),
        ]
        for service, safety, resources in surveys:
            community.survey_record(
                actor=actor,
                returned_on=dt.date(2026, 3, 9),
                service=service,
                safety=safety,
                resources=resources,
            )
        community.survey_record(
            actor=cast.other_agency,
            returned_on=dt.date(2026, 3, 9),
            service="support",
            safety="no",
            resources="no",
        )
    # Every case closed in June, through a closure record with its outcomes.
    for n, case in enumerate(cases):
        closed = _at(f"2026-06-{n + 1:02d}")
        reason, _ = ClosureReason.objects.get_or_create(
            agency=cast.agency, standard=REASONS[n], defaults={"label": REASONS[n]}
        )
        episode = case.episodes.get()
        Closure.objects.create(
            case=case,
            episode=episode,
            state=ClosureState.CLOSED,
            reason=reason,
            plan_check="reviewed",
            abuse_change=ABUSE[n],
            feels_safer=SAFER[n],
            risk_at_intake=INTAKE[n],
            risk_at_exit=EXIT[n],
            requested_by=actor,
            requested_at=closed,
            closed_at=closed,
        )
        Episode.objects.filter(pk=episode.pk).update(status=EpisodeStatus.CLOSED, closed_at=closed)
        Case.objects.filter(pk=case.pk).update(status=CaseStatus.CLOSED, closed_at=closed)
    # Not counted: another agency's survivor.
    other = f.open_case(cast.other_agency_team, reference="B-1", opened_at=_at("2026-04-03"))
    party = f.add_party(other, PartyRole.SURVIVOR, full_name="Not counted")
    Demographics(case=other, party=party, age_band="25_34").save()
    return cast.agency.pk


def _printed(report: reports.FunderReport) -> dict[str, list[tuple[str, str]]]:
    """Each row as the report prints it, with each count's true value: "7" is printed as 7,
    "*2" is a 2 printed as "*", "-" a column the funder's table greys out, printed blank."""
    out = {}
    for section in report.sections:
        rows = []
        for row in section.rows:
            texts = []
            for cell in row.cells:
                shown = report.shown(cell)
                value = report.grid.values[cell]
                assert shown.text == ("*" if shown.value is None else str(value))
                texts.append(("*" if shown.value is None else "") + str(value))
            for at in row.blank:
                texts.insert(at, "-")
            rows.append((row.label, " ".join(texts)))
        out[section.code or section.title] = rows
    return out


#: The sections the quarter and its year print alike: everyone in the population was served,
#: and every service given, in that one quarter.
QUARTER_AND_YEAR = {
    "New, returning and continuing": [
        ("New in this period", "*17"),
        ("Came back or referred again in this period", "*3"),
        ("Continuing from before", "0"),
        ("People served", "20"),
    ],
    "Services given, by type": [
        ("Advocacy and emotional support contacts", "6"),
        ("Support at court", "*2"),
        ("Liaison with other agencies", "0"),
        ("Safety check-ins completed", "7"),
        ("Risk assessments", "0"),
        ("Referrals to other services", "0"),
        ("Referrals to the risk meeting", "0"),
        ("Emergency financial help (payments made)", "*3"),
        ("All services", "18"),
    ],
    "Gender identity": [
        ("Woman", "15"),
        ("Man", "*2"),
        ("Non-binary", "*1"),
        ("Transgender", "0"),
        ("A culturally specific identity", "0"),
        ("A different identity", "0"),
        ("Questioning", "0"),
        ("Declined to answer", "*1"),
        ("Not asked", "*1"),
        ("People served", "20"),
    ],
    "Race and ethnicity": [
        ("American Indian, Alaska Native or Indigenous", "0"),
        ("Asian or Asian American", "*2"),
        ("Black, African American or African", "5"),
        ("Hispanic or Latin American", "*3"),
        ("Middle Eastern or North African", "0"),
        ("Native Hawaiian or Pacific Islander", "0"),
        ("White", "7"),
        ("More than one", "*1"),
        ("Another", "0"),
        ("Declined to answer", "*1"),
        ("Not asked", "*1"),
        ("People served", "20"),
    ],
    "Preferred language": [
        ("English", "12"),
        ("Somali", "*2"),
        ("Spanish", "5"),
        ("Not recorded", "*1"),
        ("People served", "20"),
    ],
    "Interpreter needed, by language": [
        ("Somali", "*2"),
        ("Spanish", "*3"),
        ("No interpreter recorded", "15"),
        ("People served", "20"),
    ],
}

#: Every report's every cell. Why the hidden ones are hidden: a count from 1 to 4 always is;
#: the others are complements, the smallest count in a sum that would otherwise give a small
#: one away (VOCA: 17 new people beside 3 returning; 5 survivors' calls beside 2
#: professionals'). The year's two reports are suppressed as one grid and against the year's
#: quarters as published: HUD's 25 - 34 is hidden because FVPSA's 25 to 59 (14) and HUD's other
#: bands would give away the 2 aged 45 - 54; the year's calls count one survivor's call on 1 July
#: (the fourth quarter, where it is hidden), so the year's total is hidden (its 2 professionals'
#: calls would follow from it; its 6 survivors' calls are the quarter's hidden 5 and the fourth
#: quarter's hidden 1 together, and show neither); the insights crosstab hides the cells that
#: would give away the 2 whose risk went from high to medium (the 6 beside them in the high row
#: and the two columns' totals: 8 at high and the 20 in all are shown, and the 2 cannot be told
#: from them). Beds count no one and are always shown. Services in the funders' categories:
#: the quarter hides the 2 at court and the 1 of the agency's own category; the year counts one
#: safety planning on 1 July (the fourth quarter, where it is hidden), so it and the year's total
#: (15, one more than the quarter's 14) are hidden.
EXPECTED = {
    "voca": {
        **QUARTER_AND_YEAR,
        "Services given, by the funder's categories": [
            ("Hotline or crisis line counselling", "5"),
            ("Safety planning", "0"),
            ("Risk assessment", "0"),
            ("Support at court", "*2"),
            ("Support with the police and criminal justice", "0"),
            ("Housing advocacy", "0"),
            ("Help with money and benefits", "0"),
            ("Support with children and child contact", "0"),
            ("Health and wellbeing support", "0"),
            ("Emotional support", "6"),
            ("Liaison with other agencies", "0"),
            ("Peer mentoring", "*1"),
            ("All services counted in a category", "14"),
        ],
        "Hotline and crisis calls, by who called": [
            ("The survivor", "*5"),
            ("A friend or family member", "0"),
            ("A professional", "*2"),
            ("Anonymous", "6"),
            ("All calls", "13"),
        ],
        "People by type of abuse they reported": [
            ("Physical violence", "5"),
            ("Sexual violence", "0"),
            ("Coercive or controlling behaviour", "8"),
            ("Stalking or harassment", "0"),
            ("Abuse through phones, accounts or devices", "0"),
            ("Economic abuse", "0"),
            ("Threats", "0"),
            ("Involving the children", "0"),
            ("Breach of a court order", "0"),
        ],
        "age": [
            ("0 to 12", "0"),
            ("13 to 17", "0"),
            ("18 to 24", "*3"),
            ("25 to 59", "14"),
            ("60 and older", "0"),
            ("Not reported", "*3"),
            ("People served", "20"),
        ],
        "Disability": [
            # The 1 declined and the 1 not asked hide with the 6: were the 6 printed, the
            # 20 less the 12 and the 6 would leave 2 for the two "*", each at least 1 (a zero
            # is printed), so each is 1.
            ("Yes", "*6"),
            ("No", "12"),
            ("Declined to answer", "*1"),
            ("Not asked", "*1"),
            ("People served", "20"),
        ],
    },
    "fvpsa": {
        **QUARTER_AND_YEAR,
        "age": [
            ("18 to 24", "*3"),
            ("25 to 59", "14"),
            ("60 and older", "0"),
            ("Under 18", "0"),
            ("Not reported", "*3"),
            ("People served", "20"),
        ],
        "Children": [
            ("None", "6"),
            ("One", "6"),
            ("Two", "5"),
            ("Three+", "*2"),
            ("Declined to answer", "0"),
            ("Not asked", "*1"),
            ("People served", "20"),
        ],
        "Services given, by the funder's categories": [
            ("Hotline or crisis line counselling", "5"),
            ("Safety planning", "*1"),
            ("Risk assessment", "0"),
            ("Support at court", "*2"),
            ("Support with the police and criminal justice", "0"),
            ("Housing advocacy", "0"),
            ("Help with money and benefits", "0"),
            ("Support with children and child contact", "0"),
            ("Health and wellbeing support", "0"),
            ("Emotional support", "6"),
            ("Liaison with other agencies", "0"),
            ("Peer mentoring", "*1"),
            ("All services counted in a category", "*15"),
        ],
        "Referrals to other services, by service": [
            ("Housing", "0"),
            ("Legal", "0"),
            ("Health", "0"),
            ("Children's services", "0"),
            ("Police", "0"),
            ("Another domestic abuse service", "0"),
            ("Other", "0"),
            ("All referrals", "0"),
        ],
        "Hotline and crisis calls, by who called": [
            ("The survivor", "6"),
            ("A friend or family member", "0"),
            ("A professional", "*2"),
            ("Anonymous", "6"),
            ("All calls", "*14"),
        ],
        "Shelter": [
            ("Shelter nights (a bed slept in for a night)", "17"),
            ("Households turned away for lack of space", "6"),
            ("People in the households turned away", "9"),
        ],
        "People sheltered": [
            ("Adults", "*2"),
            ("Children staying with them", "*2"),
            ("Everyone sheltered", "*4"),
        ],
        "Bed count": [("Beds in use at the agency's open sites", "3")],
        # Sessions count no survivor: never hidden, however few.
        "Prevention and community education sessions, by who they were for": [
            ("Children and young people", "2"),
            ("Adults in the community", "1"),
            ("Professionals (training)", "1"),
            ("All sessions", "4"),
        ],
        "People who came to prevention and community education sessions": [
            ("Children and young people", "42"),
            ("Adults in the community", "80"),
            ("Professionals (training)", "3"),
            ("Everyone who came", "125"),
        ],
        # Columns: shelter, support, total. The small counts of the support column and their
        # row totals hide one another (each pair's difference is a published 0, each column's
        # sum a published total, so no one of them can be worked out).
        "Outcome surveys: “As a result of contact with this agency, I have more ways to plan "
        "for my safety”": [
            ("Yes", "6 9 15"),
            ("No", "0 *2 *2"),
            ("Left blank", "0 *1 *1"),
            ("Total", "6 12 18"),
        ],
        "Outcome surveys: “As a result of contact with this agency, I know more about community "
        "resources”": [
            ("Yes", "6 9 15"),
            ("No", "0 *1 *1"),
            ("Left blank", "0 *2 *2"),
            ("Total", "6 12 18"),
        ],
    },
    "hud": {
        # The project's identifiers (none described here) and the people served, each one
        # household.
        "Q4a": [("", "20 20")],
        # Q5a's rows by age are Q11's (below) added up: the 17 adults, as the 3 of unknown age
        # (Q11's 2 and 1, both hidden) are, hidden; no child; the youth, Q27a's 3. Everyone
        # left and heads her own household.
        "Q5a": [
            ("Total number of persons served", "20"),
            ("Number of adults (age 18 or over)", "*17"),
            ("Number of children (under age 18)", "0"),
            ("Number of persons with unknown age", "*3"),
            ("Number of leavers", "20"),
            ("Number of adult and head of household leavers", "20"),
            ("Number of stayers", "0"),
            ("Number of youth under age 25", "*3"),
            ("Number of adult heads of household", "*17"),
            ("Number of child and unknown-age heads of household", "*3"),
        ],
        # Q6a: survivor 18 declined both the race and the gender question, survivor 19 was
        # never asked either: Q12's and Q10a's last two cells (the same cells), each a count
        # from 1 to 4, and so their totals; the overall score counts the two once, hidden too.
        "Q6a": [
            ("Race and Ethnicity (3.04)", "*1 *1 - *2"),
            ("Gender (3.06)", "*1 *1 - *2"),
            ("Overall Score", "- - - *2"),
        ],
        # Q6f: no project described, so none night by night: no bed night records.
        "Q6f": [("Bed Night (All clients in ES - NBN)", "0 0")],
        # Q10a: the genders of "Gender identity" above (the same cells), in HUD's order.
        "Q10a": [
            ("Woman", "15"),
            ("Man", "*2"),
            ("Culturally Specific Identity", "0"),
            ("Transgender", "0"),
            ("Non-Binary", "*1"),
            ("Questioning", "0"),
            ("Different Identity", "0"),
            ("Client Doesn't Know/Prefers Not to Answer", "*1"),
            ("Data Not Collected", "*1"),
            ("Total", "20"),
        ],
        # Q10d: the same people by gender and by age. The women's 3 aged 18 to 24 is a count
        # from 1 to 4, and their 12 aged 25 to 64 hides with it (their 15 less it would give it
        # away); the 2 men (both aged 45 to 54), the non-binary person and the one who declined
        # (both declined their age too) and the one never asked are counts from 1 to 4 in each
        # of their cells. The 14 aged 25 to 64 are Q11's four bands of those ages together; the
        # 2 and the 1 of the last two columns are Q11's.
        "Q10d": [
            ("Woman", "15 0 *3 *12 0 0 0"),
            ("Man", "*2 0 0 *2 0 0 0"),
            ("Culturally Specific Identity", "0 0 0 0 0 0 0"),
            ("Transgender", "0 0 0 0 0 0 0"),
            ("Non-Binary", "*1 0 0 0 0 *1 0"),
            ("Questioning", "0 0 0 0 0 0 0"),
            ("Different Identity", "0 0 0 0 0 0 0"),
            ("Client Doesn't Know/Prefers Not to Answer", "*1 0 0 0 0 *1 0"),
            ("Data Not Collected", "*1 0 0 0 0 0 *1"),
            ("Total", "20 0 *3 14 0 *2 *1"),
        ],
        # Q27a: the youth, Q11's 0 under 18 and 3 aged 18 to 24 (the same cells), their total
        # the 3 (a count from 1 to 4 too).
        "Q27a": [("12 - 17", "0"), ("18 - 24", "*3"), ("Total", "*3")],
        # Q27c: the youth by gender, Q10d's columns under 18 and 18 to 24 (the same cells): the
        # 3 women aged 18 to 24, hidden there, and so their total, the youth's.
        "Q27c": [
            ("Woman", "*3 0 *3"),
            *(
                (label, "0 0 0")
                for label in (
                    "Man",
                    "Culturally Specific Identity",
                    "Transgender",
                    "Non-Binary",
                    "Questioning",
                    "Different Identity",
                    "Client Doesn't Know/Prefers Not to Answer",
                    "Data Not Collected",
                )
            ),
            ("Total", "*3 0 *3"),
        ],
        "Q11": [
            ("Under 5", "0"),
            ("5-12", "0"),
            ("13-17", "0"),
            ("18-24", "*3"),
            ("25-34", "6"),
            ("35-44", "*6"),
            ("45-54", "*2"),
            ("55-64", "0"),
            ("65+", "0"),
            ("Client Doesn't Know/Prefers Not to Answer", "*2"),
            ("Data Not Collected", "*1"),
            ("Total", "20"),
        ],
        "Q12": [
            ("American Indian, Alaska Native, or Indigenous", "0"),
            ("Asian or Asian American", "*2"),
            ("Black, African American, or African", "5"),
            ("Hispanic/Latina/e/o", "*3"),
            ("Middle Eastern or North African", "0"),
            ("Native Hawaiian or Pacific Islander", "0"),
            ("White", "7"),
            ("Multiracial", "*1"),
            ("Client Doesn't Know/Prefers Not to Answer", "*1"),
            ("Data Not Collected", "*1"),
            ("Total", "20"),
        ],
        "Q22a1": [
            ("30 days or less", "0 0 0"),
            ("31 to 60 days", "0 0 0"),
            # Each referred on 1 to 20 April and closed on the same day of June: 61 days.
            ("61 to 90 days", "20 20 0"),
            ("91 to 180 days", "0 0 0"),
            ("181 to 365 days", "0 0 0"),
            ("366 to 730 days (1-2 Yrs)", "0 0 0"),
            ("731 to 1,095 days (2-3 Yrs)", "0 0 0"),
            ("1,096 to 1,460 days (3-4 Yrs)", "0 0 0"),
            ("1,461 to 1,825 days (4-5 Yrs)", "0 0 0"),
            ("More than 1,825 days (> 5 Yrs)", "0 0 0"),
            ("Total", "20 20 0"),
        ],
        # Twenty leavers of 61 days each; no stayers, so no figure about them.
        "Q22b": [("Average Length", "61 *0"), ("Median Length", "61 *0")],
    },
    "insights": {
        "Risk at intake (rows) and at exit (columns)": [
            ("High", "0 *2 *6 0 8"),
            ("Medium", "0 0 7 0 7"),
            ("Standard", "0 0 5 0 5"),
            ("Not assessed", "0 0 0 0 0"),
            ("Total", "0 *2 *18 0 20"),
        ],
        "Did the abuse stop?": [
            ("Stopped", "9"),
            ("Reduced", "6"),
            ("Unchanged", "5"),
            ("Increased", "0"),
            ("Not known", "0"),
            ("All exits", "20"),
        ],
        "Does the survivor feel safer?": [
            ("Yes", "14"),
            ("A little", "6"),
            ("No", "0"),
            ("Not asked or did not say", "0"),
            ("All exits", "20"),
        ],
        "Why support ended": [
            ("Goals met", "12"),
            ("The survivor's choice", "0"),
            ("No contact after several attempts", "*5"),
            ("Moved out of the area", "*3"),
            ("Referred on to another service", "0"),
            ("Other", "0"),
            ("Transferred to another service", "0"),
            ("All exits", "20"),
        ],
        "Needs met in the period": [
            ("Housing", "0"),
            ("Income and money", "0"),
            ("Children and child contact", "0"),
            ("Immigration status", "0"),
            ("Disability and health", "0"),
            ("Legal and court", "0"),
            ("Technology safety", "0"),
            ("Emotional support", "0"),
            ("Substance use", "0"),
            ("Other", "0"),
            ("All needs met", "0"),
        ],
        "Age": [
            ("Under 13", "0"),
            ("13 to 17", "0"),
            ("18 to 24", "*3"),
            ("25 to 34", "6"),
            ("35 to 44", "6"),
            ("45 to 54", "*2"),
            ("55 to 59", "0"),
            ("60 to 64", "0"),
            ("65 or over", "0"),
            ("Declined to answer", "*2"),
            ("Not asked", "*1"),
            ("All exits", "20"),
        ],
    },
}

# Q22a2: Q22a1's rows, its first band in four (the ESG CAPER's), each 0 (no one's support
# lasted a month or less).
EXPECTED["hud"]["Q22a2"] = [
    *((label, "0 0 0") for label in reports.HUD_ESG_FIRST_MONTH.values()),
    *EXPECTED["hud"]["Q22a1"][1:],
]

CASES = {
    "voca": QUARTER,
    "fvpsa": YEAR,
    "hud": YEAR,
    "insights": CALENDAR_QUARTER,
}


@pytest.mark.parametrize("slug", list(CASES))
@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_each_report(population, slug):
    report = reports.release(slug, population, CASES[slug])
    shown = _printed(report)
    assert shown == EXPECTED[slug]
    assert_csv_prints(report, shown)
    # No small count, published or not, can be worked out, zeros read as zeros.
    assert not small_counts_told(report)
    grid = report.grid
    assert not [c for c in report.hidden - report.unpublished if grid.values[c] == 0]


def told_in(
    report: reports.FunderReport,
    values: list[int],
    sums: list[tuple[int, tuple[int, ...]]],
    hidden: set[int],
) -> set[int]:
    """The cells of ``hidden`` a reader works out of ``report`` (its grid, or one beside it
    with more cells and ``sums``). Every cell is read as a reader who adds
    and subtracts and knows that counts are never negative (a hidden count inside a count of
    nothing is nothing); every cell but a year's count less a quarter's also as a reader who
    solves for each hidden count's least and greatest value, knowing that a printed "*" is not
    zero (zeros are printed: two "*" that add up to 2 are each 1). A year's count less one of
    its quarters' (a link never published between the two releases) is read only the first
    way: against the second reader, the year could keep some of them only by hiding its
    people served (the reporting README)."""
    printed = printed_stars(values, report.hidden, report.unpublished)
    plain = worked_out(values, sums, hidden, bounds=False)
    bounded = worked_out(values, sums, hidden, at_least_one=printed)
    return plain | (bounded - report.quarter_links)


def small_counts_told(report: reports.FunderReport) -> set[str]:
    """The small counts of a release, published or not, that a reader works out from what it
    publishes (:func:`told_in`): their keys, so that a failure names them. Empty for a safe
    release."""
    grid = report.grid
    names = {cell: key for key, cell in grid.keys.items()}
    found = told_in(report, grid.values, grid.sums, report.hidden)
    return {names[c] for c in found if 0 < abs(grid.values[c]) < report.threshold}


def assert_csv_prints(report: reports.FunderReport, shown: dict) -> None:
    """The CSV prints exactly what the preview shows, section by section in the report's
    order."""
    facts = {s.code or s.title: s.facts for s in report.sections}
    csv: list[list[str]] = []
    columns_next = False
    for row in report.csv_rows():
        if len(row) == 1:  # a section's heading, then its columns' names
            columns_next = True
        elif columns_next:
            columns_next = False
        elif row:
            csv.append(row)
    # The shares printed after a count (Q6's error rates), as the preview's table gives them.
    shares = {
        s.code or s.title: [
            [c.text for c in cells[len(s.facts) + len(row.cells) + len(row.blank) :]]
            for row, (_l, cells) in zip(s.rows, report.table(s), strict=True)
        ]
        if any(row.of is not None for row in s.rows)
        else [[] for _r in s.rows]
        for s in report.sections
    }
    printed = [
        [
            label,
            *facts[code],
            *("*" if t.startswith("*") else "" if t == "-" else t for t in texts.split(" ")),
            *shares[code][i],
        ]
        for code, rows in shown.items()
        for i, (label, texts) in enumerate(rows)
    ]
    assert csv == printed


@time_machine.travel(TODAY, tick=False)
def test_a_quarter_reads_the_same_before_and_after_its_year_is_run(population):
    before = _printed(reports.release("voca", population, QUARTER))
    reports.release("fvpsa", population, YEAR)
    assert _printed(reports.release("voca", population, QUARTER)) == before == EXPECTED["voca"]


@pytest.mark.parametrize(
    ("days", "band"),
    [
        (0, "30"),
        (30, "30"),
        (31, "60"),
        (61, "90"),
        (90, "90"),
        (91, "180"),
        (365, "365"),
        (366, "730"),
        (1825, "1825"),
        (1826, "more"),
    ],
)
def test_hud_length_of_participation_bands_hold_their_last_day(days, band):
    assert reports.hud_length_band(days) == band
