"""Every cell of the HUD APR questions counted from HUD's entry and exit answers, against a
population seeded here and counted by hand.

Twenty survivors of one agency that asks HUD's questions, all referred in April 2026 (the
federal year 2026): twelve leave in June (leavers), eight are still supported at the year's end
(stayers); person 19 was never asked (no answers at all: "Data Not Collected" everywhere). Around
them, answers that must not count: another agency's survivor, a survivor of this agency referred
after the year, a later episode of support of person 0 (begun after the year), and the exit
answers of a stayer. The release is the one given out (the year with FVPSA and its quarters), so
"*" is where the year's suppression hides a count; why each is hidden is said beside it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

import pytest
import time_machine

from caseflow.cases.models import (
    Case,
    CaseStatus,
    Episode,
    EpisodeStatus,
    IntakeField,
    Party,
    PartyRole,
)
from caseflow.confidentiality.services import field_settings_save
from caseflow.lib.suppression import Grid
from caseflow.partners import hud
from caseflow.partners.models import (
    Demographics,
    HudAnswers,
    HudProject,
    HudProjectType,
)
from caseflow.reporting import reports
from tests import factories as f
from tests.reporting.test_hud_any_answer import told_by_any_answer, told_by_disabling
from tests.reporting.test_hud_income_change import told_by_q19a
from tests.reporting.test_report_cells import _printed, assert_csv_prints

pytestmark = pytest.mark.django_db

UTC = dt.UTC
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
YEAR = reports.federal_year(2026)
N = 20
LEAVERS = 12
DK, PNA, DNC = hud.DONT_KNOW, hud.PREFERS_NOT, hud.NOT_COLLECTED

# One entry per person with answers (0 to 18).
PRIOR = (
    ["emergency_shelter"] * 5
    + ["place_not_meant", "hospital"]
    + ["family_temporary"] * 5
    + ["hotel_no_voucher"]
    + ["rental_no_subsidy"] * 5
    + [PNA]
)
DV = ["yes"] * 16 + ["no", "no", DK]
DV_WHEN = ["within_3_months"] * 8 + ["3_to_6_months"] * 5 + ["6_to_12_months"] * 2
DV_WHEN += ["over_a_year"] + [DNC] * 3
FLEEING = ["yes"] * 11 + ["no"] * 5 + [DNC] * 3
INCOME: list[tuple[str, str, list[str]]] = [
    ("yes", "900", ["earned"]),
    ("yes", "900", ["earned", "child_support"]),
    ("yes", "900", ["earned"]),
    ("yes", "900", ["earned"]),
    ("yes", "900", ["earned", "child_support"]),
    ("yes", "1000.00", ["earned"]),  # the last dollar of "$501 - $1000"
    ("yes", "1250", ["earned"]),
    ("yes", "1250", ["earned"]),
    ("yes", "2500", ["earned"]),
    ("yes", "2500", ["earned"]),
    ("yes", "120", ["ssi"]),
    ("yes", "", ["tanf"]),  # income, amount not given: "Data Not Collected"
    ("no", "", []),
    ("no", "", []),
    ("no", "", []),
    ("no", "", []),
    ("no", "", []),
    (PNA, "", []),
    (DNC, "", []),
]
# Leavers only (0 to 11); stayer 12's exit answers must not count.
EXIT_INCOME: list[tuple[str, str, list[str]]] = [
    *[("yes", "1100", ["earned"])] * 5,
    *[("yes", "2100", ["earned"])] * 2,
    ("yes", "300", ["unemployment"]),
    ("no", "", []),
    ("no", "", []),
    (DNC, "", []),
    (DK, "", []),
]
DESTINATION = ["rental_no_subsidy"] * 3 + ["rental_subsidy"] * 2 + ["family_permanent"]
DESTINATION += ["family_temporary"] * 3 + ["emergency_shelter", "no_exit_interview", DNC]
# The subsidy of the two leavers who rent with one (3 and 4): one not given.
SUBSIDY = {3: "hcv", 4: DNC}
# Leavers only (0 to 11), at exit; stayer 12's must not count.
EXIT_BENEFITS: list[tuple[str, list[str]]] = [
    *[("yes", ["snap"])] * 6,
    *[("yes", ["snap", "wic"])] * 2,
    ("no", []),
    ("no", []),
    ("yes", []),  # benefits said, none named: "Data Not Collected" in Q20b
    (DK, []),
]
EXIT_INSURANCE: list[tuple[str, list[str]]] = [
    *[("yes", ["medicaid"])] * 7,
    ("yes", ["medicaid", "employer"]),
    ("yes", ["employer"]),
    ("yes", []),  # insured, no source ticked
    ("no", []),
    (PNA, []),
]
EXIT_CONDITIONS: list[tuple[str, list[str]]] = [
    *[("yes", ["mental_health"])] * 4,
    ("yes", ["mental_health", "physical"]),
    ("yes", ["alcohol", "drug"]),
    ("yes", ["drug"]),
    ("no", []),
    ("yes", []),  # a condition said, none named: "Condition Unknown"
    ("yes", ["chronic_health", "physical", "developmental"]),
    (DK, []),
    (DNC, []),
]
#: A stayer's exit answers (never counted).
STAYER_EXIT = {
    "exit_benefits_any": "yes",
    "exit_benefits_sources": ["tanf_other"],
    "exit_insurance_any": "yes",
    "exit_insurance_sources": ["va"],
    "exit_conditions_any": "yes",
    "exit_conditions": ["hiv_aids"],
}
BENEFITS = [["snap", "wic"]] * 3 + [["snap"]] * 6 + [[]] * 10
INSURANCE: list[tuple[str, list[str]]] = [
    *[("yes", ["medicaid"])] * 10,
    *[("yes", ["medicaid", "private"])] * 2,
    *[("yes", ["employer"])] * 2,
    ("yes", []),  # insured, no source ticked: in no row of its own
    ("no", []),
    ("no", []),
    (DK, []),
    (DNC, []),
]
CONDITIONS: list[list[str]] = [
    ["mental_health"],
    ["mental_health", "chronic_health"],
    ["mental_health"],
    ["mental_health", "physical"],
    ["mental_health"],
    ["mental_health", "alcohol"],
    ["alcohol", "drug"],  # "both" in Q13a1, two conditions in Q13a2
    ["chronic_health"],
    ["developmental", "physical", "chronic_health"],
] + [[]] * 10
# Whether they have a disabling condition, where it is not "yes" with conditions or "no".
CONDITIONS_ANY = {16: "yes", 17: PNA}  # 16 said yes and named none: "Condition Unknown"
# Veteran status, where it is not "no" (19, never asked, is "Data Not Collected").
VETERAN = {0: "yes", 2: "yes", 9: "yes", 10: DK, 11: PNA, 18: DNC}
# What chronic homelessness is worked out from, beyond the prior living situation and the
# disabling condition, with what it comes to (each person's support began on 1 April 2026
# plus n days):
CHRONIC: dict[int, dict[str, str]] = {
    # Emergency shelter, homeless since more than a year before support began: yes.
    0: {"homeless_since": "2025-01-01"},
    # Emergency shelter since less than a year, but four times or more adding up to 12 months.
    1: {"homeless_since": "2025-06-01", "times_homeless": "four_plus", "months_homeless": "12"},
    # Four times or more, but six months in all: no.
    2: {"times_homeless": "four_plus", "months_homeless": "6"},
    # Twice in three years: no.
    3: {"times_homeless": "two"},
    # How many times not known: "doesn't know".
    4: {"times_homeless": DK},
    # 5, on the street, nothing more collected: "not collected".
    # A short hospital stay (under 90 days), on the street the night before, homeless since
    # December 2024: yes.
    6: {"prior_night_street": "yes", "homeless_since": "2024-12-01"},
    # 7 and 8 stayed with family for a week or more (not under a week): no, whatever else.
    7: {"prior_night_street": "yes", "homeless_since": "2020-01-01"},
}


def _at(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=10, tzinfo=UTC)


def _answers(n: int) -> dict[str, Any]:
    income = INCOME[n]
    exit_income = EXIT_INCOME[n] if n < LEAVERS else ("yes", "5000", ["earned"])
    answers = hud.blank()
    answers.update(
        prior_living=PRIOR[n],
        prior_length="week_to_month",
        dv_history=DV[n],
        dv_when=DV_WHEN[n],
        dv_fleeing=FLEEING[n],
        income_any=income[0],
        income_amount=income[1],
        income_sources=income[2],
        benefits_any="yes" if BENEFITS[n] else "no",
        benefits_sources=BENEFITS[n],
        insurance_any=INSURANCE[n][0],
        insurance_sources=INSURANCE[n][1],
        conditions_any=CONDITIONS_ANY.get(n, "yes" if CONDITIONS[n] else "no"),
        conditions=CONDITIONS[n],
        destination=DESTINATION[n] if n < LEAVERS else "rental_subsidy",
        destination_subsidy=SUBSIDY.get(n, DNC) if n < LEAVERS else "vash",
        veteran=VETERAN.get(n, "no"),
        **CHRONIC.get(n, {}),
        exit_income_any=exit_income[0],
        exit_income_amount=exit_income[1],
        exit_income_sources=exit_income[2],
    )
    if n < LEAVERS:
        for key, given in (
            ("benefits", EXIT_BENEFITS),
            ("insurance", EXIT_INSURANCE),
        ):
            answers[f"exit_{key}_any"], answers[f"exit_{key}_sources"] = given[n]
        answers["exit_conditions_any"], answers["exit_conditions"] = EXIT_CONDITIONS[n]
    else:
        answers.update(STAYER_EXIT)
    assert not hud.problems(answers)
    return answers


#: Answers nobody in the population gave: whoever counts them counted a record that must not.
STRAY = {
    **hud.blank(),
    "prior_living": "jail",
    "dv_history": "yes",
    "dv_when": "over_a_year",
    "dv_fleeing": PNA,
    "income_any": "yes",
    "income_amount": "1800",
    "income_sources": ["pension"],
    "benefits_any": "yes",
    "benefits_sources": ["tanf_other"],
    "insurance_any": "yes",
    "insurance_sources": ["va"],
    "conditions_any": "yes",
    "conditions": ["hiv_aids"],
    "destination": "rental_subsidy",
    "destination_subsidy": "vash",
    "veteran": "yes",
    "homeless_since": "2020-01-01",
    "times_homeless": "four_plus",
    "months_homeless": "more_than_12",
    **STAYER_EXIT,
}


def _record(case: Case, episode: Episode, answers: dict[str, Any]) -> None:
    HudAnswers(case=case, episode=episode, answers=answers).save()


@pytest.fixture
def population(cast):
    lists = (PRIOR, DV, DV_WHEN, FLEEING, INCOME, BENEFITS, INSURANCE, CONDITIONS)
    assert {len(x) for x in lists} == {N - 1}
    exits = (EXIT_INCOME, DESTINATION, EXIT_BENEFITS, EXIT_INSURANCE, EXIT_CONDITIONS)
    assert {len(x) for x in exits} == {LEAVERS}
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    for n in range(N):
        opened = _at(f"2026-04-{n + 1:02d}")
        case = f.open_case(cast.team1, assignees=[cast.assigned], opened_at=opened)
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
        episode = Episode.objects.create(case=case, number=1, opened_at=opened)
        if n < N - 1:
            _record(case, episode, _answers(n))
        if n < LEAVERS:
            closed = _at(f"2026-06-{n + 1:02d}")
            Episode.objects.filter(pk=episode.pk).update(
                status=EpisodeStatus.CLOSED, closed_at=closed
            )
            Case.objects.filter(pk=case.pk).update(status=CaseStatus.CLOSED, closed_at=closed)
        if n == 0:
            # Support begun again after the year: its answers are the next year's.
            later = Episode.objects.create(
                case=case, number=2, status=EpisodeStatus.ACTIVE, opened_at=_at("2026-10-05")
            )
            _record(case, later, STRAY)
    # Not counted: a survivor of this agency referred after the year, and another agency's.
    late = f.open_case(cast.team1, assignees=[cast.assigned], opened_at=_at("2026-10-20"))
    f.add_party(late, PartyRole.SURVIVOR, full_name="Late")
    _record(late, Episode.objects.create(case=late, number=1, opened_at=late.opened_at), STRAY)
    other = f.open_case(cast.other_agency_team, opened_at=_at("2026-04-03"))
    f.add_party(other, PartyRole.SURVIVOR, full_name="Elsewhere")
    _record(other, Episode.objects.create(case=other, number=1, opened_at=other.opened_at), STRAY)
    return cast.agency.pk


DK_ROW = "Client Doesn't Know/Prefers Not to Answer"
#: The stayers' rows of Q16 and Q18: all eight stayers began in April, a year is not up.
HUD_NOT_ASSESSED = [
    "Number of adult stayers not yet required to have an annual assessment",
    "Number of adult stayers without required annual assessment",
]
DNC_ROW = "Data Not Collected"

L = reports.HUD_LIVING_LABELS

#: Every cell of the questions, as printed ("*" where hidden, with its true value after it). Why the
#: hidden ones are hidden: a count from 1 to 4 always is; the others are complements, the smallest
#: count left in a sum that would otherwise give a small one away (Q15: 6 homeless are 1 and 5, so
#: the 5 hides with the 1; Q23c: 6 to permanent homes are 1 and 5; Q14b's two small counts need no
#: complement, as their sum alone is known). Q17, Q20a, Q13a1 and Q13b1 have no total (one person
#: may have several sources or conditions), so only their small counts hide. Q21's people by how
#: many sources cover them add up to everyone (at start) and to the leavers (at exit) with the one
#: insured person who named no source, a cell never published. The exit columns count the twelve
#: leavers only: stayer 12's exit answers (TANF, VHA, HIV/AIDS) are in no cell. Q13a2 and Q13b2
#: count alcohol and drug use disorders as two conditions, as HUD does (Q13a1 shows them together as
#: "both"); their hidden cells are all counts from 1 to 4. Q18's people with earned income are Q17's
#: (those with only earned income and those with both, tied): at exit no one has both, so Q18's 7 is
#: Q17's printed 7 and is printed too, and the 8 with a source hides instead, as it would give away
#: the one with only other income; at start Q17's 10 is 8 and a hidden 2, so the 8 hides with the 2,
#: and the 12 with a source with them (12 less 10 is the 2 with only other income). A reader
#: knows that every "*" is at least 1 (zeros are printed), so a printed count hides too where,
#: printed, it would leave the "*" of its sum no more room than one each: Q15's 5 who rent
#: without a subsidy (20 less the subtotals 6, 6 and 5 leaves 3 for Q15's three "*") and Q13c2's
#: 5 with none (8 less 5 leaves 3 for its three "*"). Q23d's two
#: leavers who rent with a subsidy are Q23c's hidden row (2), its parts 1 and 1. Q20b's 9 with
#: benefits at start are Q20a's 9 with SNAP and those with another benefit and not SNAP (none; each
#: of Q20a's benefits is tied inside Q20b's "1 + Source(s)", the rest never published): printed as
#: Q20a's 9 is, the 10 with none hide with the one not collected (20 people); at exit the small
#: rows hide each other. Q25a's and Q26b's hidden cells are all counts from 1 to 4; Q5a's veterans
#: (3) are Q25a's first two rows, its chronically homeless (3) Q26b's first.
EXPECTED = {
    "Q15": [
        ("Place not meant for habitation", "*1"),
        (L["emergency_shelter"], "*5"),
        ("Safe Haven", "0"),
        ("Subtotal - Homeless Situations", "6"),
        ("Foster care home or foster care group home", "0"),
        (L["hospital"], "*1"),
        ("Jail, prison or juvenile detention facility", "0"),
        ("Long-term care facility or nursing home", "0"),
        ("Psychiatric hospital or other psychiatric facility", "0"),
        ("Substance abuse treatment facility or detox center", "0"),
        ("Subtotal - Institutional Settings", "*1"),
        (L["transitional"], "0"),
        (L["halfway_house"], "0"),
        ("Hotel or motel paid for without emergency shelter voucher", "*1"),
        ("Host Home (non-crisis)", "0"),
        ("Staying or living in a friend's room, apartment or house", "0"),
        ("Staying or living in a family member's room, apartment or house", "*5"),
        # caseflow's answers 3.917 has not, after HUD's rows of their group.
        ("Moved from one HOPWA funded project to HOPWA TH", "0"),
        ("Subtotal - Temporary Situation", "6"),
        # Printed, the 5 would leave 3 of the 20 to the institutional "*" and the two below:
        # each at least 1, so each 1.
        ("Rental by client, no ongoing housing subsidy", "*5"),
        ("Rental by client, with ongoing housing subsidy", "0"),
        ("Owned by client, with ongoing housing subsidy", "0"),
        ("Owned by client, no ongoing housing subsidy", "0"),
        ("Staying or living with family, permanent tenure", "0"),
        ("Staying or living with friends, permanent tenure", "0"),
        ("Moved from one HOPWA funded project to HOPWA PH", "0"),
        ("Subtotal - Permanent Situations", "*5"),
        (DK_ROW, "*1"),
        (DNC_ROW, "*1"),
        ("Total", "20"),
    ],
    "Q14a": [
        ("Yes", "16"),
        ("No", "*2"),
        (DK_ROW, "*1"),
        (DNC_ROW, "*1"),
        ("Total", "20"),
    ],
    "Q14b": [
        ("Within the past three months", "8"),
        ("Three to six months ago", "5"),
        ("Six months to one year", "*2"),
        ("One year ago, or more", "*1"),
        (DK_ROW, "0"),
        (DNC_ROW, "0"),
        ("Total", "16"),
    ],
    "Q23c": [
        (L["place_not_meant"], "0"),
        (L["emergency_shelter"], "*1"),
        ("Safe Haven", "0"),
        ("Subtotal - Homeless Situations", "*1"),
        ("Foster care home or foster care group home", "0"),
        (L["hospital"], "0"),
        ("Jail, prison or juvenile detention facility", "0"),
        ("Long-term care facility or nursing home", "0"),
        ("Psychiatric hospital or other psychiatric facility", "0"),
        ("Substance abuse treatment facility or detox center", "0"),
        ("Subtotal - Institutional Situations", "0"),
        (L["transitional"], "0"),
        (L["halfway_house"], "0"),
        ("Hotel or motel paid for without emergency shelter voucher", "0"),
        ("Host Home (non-crisis)", "0"),
        ("Staying or living with family, temporary tenure (e.g., room, apartment, or house)", "*3"),
        ("Staying or living with friends, temporary tenure (e.g., room, apartment, or house)", "0"),
        ("Moved from one HOPWA funded project to HOPWA TH", "0"),
        ("Subtotal - Temporary Situations", "*3"),
        ("Staying or living with family, permanent tenure", "*1"),
        ("Staying or living with friends, permanent tenure", "0"),
        ("Moved from one HOPWA funded project to HOPWA PH", "0"),
        ("Rental by client, no ongoing housing subsidy", "*3"),
        ("Rental by client, with ongoing housing subsidy", "*2"),
        ("Owned by client, with ongoing housing subsidy", "0"),
        ("Owned by client, no ongoing housing subsidy", "0"),
        ("Subtotal - Permanent Situations", "6"),
        ("No Exit Interview completed", "*1"),
        ("Other", "0"),
        ("Deceased", "0"),
        (DK_ROW, "0"),
        (DNC_ROW, "*1"),
        ("TOTAL", "12"),
    ],
    "Q23d": [
        ("GPD TIP housing subsidy", "0"),
        ("VASH housing subsidy", "0"),
        ("RRH or equivalent subsidy", "0"),
        ("HCV voucher (tenant or project based) (not dedicated)", "*1"),
        ("Public housing unit", "0"),
        ("Rental by client, with other ongoing housing subsidy", "0"),
        ("Housing Stability Voucher", "0"),
        ("Family Unification Program Voucher (FUP)", "0"),
        ("Foster Youth to Independence Initiative (FYI)", "0"),
        ("Permanent Supportive Housing", "0"),
        ("Other permanent housing dedicated for formerly homeless persons", "0"),
        (DK_ROW, "0"),
        (DNC_ROW, "*1"),
        ("Total", "*2"),
    ],
    "Q16": [
        ("No Income", "5 0 *2"),
        ("$1 - $150", "*1 0 0"),
        ("$151 - $250", "0 0 0"),
        ("$251 - $500", "0 0 *1"),
        ("$501 - $1,000", "6 0 0"),
        ("$1,001 - $1,500", "*2 0 5"),
        ("$1,501 - $2,000", "0 0 0"),
        ("$2,001+", "*2 0 *2"),
        (DK_ROW, "*1 0 *1"),
        (DNC_ROW, "*3 0 *1"),
        (HUD_NOT_ASSESSED[0], "0 8 0"),
        (HUD_NOT_ASSESSED[1], "0 0 0"),
        ("Total Adults", "20 8 12"),
    ],
    "Q17": [
        # At exit, 7 earned: printed beside Q19a2's 5 with earned income then (below), they
        # would tell the 2 of them whose income at start or exit is not known.
        ("Earned Income", "10 0 *7"),
        ("Unemployment Insurance", "0 0 *1"),
        ("Supplemental Security Income (SSI)", "*1 0 0"),
        ("Social Security Disability Insurance (SSDI)", "0 0 0"),
        ("VA Service - Connected Disability Compensation", "0 0 0"),
        ("VA Non-Service Connected Disability Pension", "0 0 0"),
        ("Private Disability Insurance", "0 0 0"),
        ("Worker's Compensation", "0 0 0"),
        ("Temporary Assistance for Needy Families (TANF)", "*1 0 0"),
        ("General Assistance (GA)", "0 0 0"),
        ("Retirement Income from Social Security", "0 0 0"),
        ("Pension or retirement income from a former job", "0 0 0"),
        ("Child Support", "*2 0 0"),
        ("Alimony and other spousal support", "0 0 0"),
        ("Other Source", "0 0 0"),
    ],
    "Q18": [
        ("Adults with Only Earned Income (i.e., Employment Income)", "*8 0 *7"),
        ("Adults with Only Other Income", "*2 0 *1"),
        ("Adults with Both Earned and Other Income", "*2 0 0"),
        # Printed: "1 or more source" (12) hides, so with the total (20) this 5 no longer
        # tells Q6c's hidden 3 whose income at start is not known.
        ("Adults with No Income", "5 0 *2"),
        ("Adults with Client Doesn't Know/Prefers Not to Answer Income Information", "*1 0 *1"),
        ("Adults with Missing Income Information", "*2 0 *1"),
        (HUD_NOT_ASSESSED[0], "0 8 0"),
        (HUD_NOT_ASSESSED[1], "0 0 0"),
        ("Total Adults", "20 8 12"),
        # At exit the 8 hides: printed, it would leave 4 of the 12 leavers to the three "*" at
        # exit above it (no income, doesn't know, not collected), each at least 1, and with
        # Q6c's errors at exit (doesn't know and not collected) a reader pins each: 2, 1 and 1.
        ("1 or more source of income", "*12 0 *8"),
        # Q19a1's and Q19a2's people: no stayer was assessed (none supported a year); 8 of the
        # 12 leavers have their income known at start and at exit (1 and 4 named earned and
        # other income without the earned part, 10 and 11 are not known at exit or at start).
        # Hidden: with Q5a's 12 leavers it would tell the 4 not counted.
        ("Adults with Income Information at Start and Annual Assessment/Exit", "- 0 *8"),
    ],
    # No stayer is counted: every count 0, and the averages of nobody hidden.
    "Q19a1": [
        ("Number of Adults with Earned Income (i.e., Employment Income)", "0 0 0 0 0 0 0 0"),
        ("Average Change in Earned Income", "*0 *0 *0 *0 *0 *0 *0 *0"),
        ("Number of Adults with Other Income", "0 0 0 0 0 0 0 0"),
        ("Average Change in Other Income", "*0 *0 *0 *0 *0 *0 *0 *0"),
        ("Number of Adults with Any Income (i.e., Total Income)", "0 0 0 0 0 0 0 0"),
        ("Average Change in Overall Income", "*0 *0 *0 *0 *0 *0 *0 *0"),
    ],
    # The 8 leavers: 0, 2 and 3 earned $900 then $1,100, 5 $1,000 then $2,100, 6 $1,250 then
    # $2,100 (more: 2,550 / 5 = 510); 7 earned $1,250, then $300 of unemployment insurance
    # (earned income lost, other gained, less in all); 8 and 9 earned $2,500, then nothing.
    # Every average of fewer than five hidden, and the totals' with their hidden 8.
    "Q19a2": [
        ("Number of Adults with Earned Income (i.e., Employment Income)", "*3 0 0 5 0 0 *8 5"),
        ("Average Change in Earned Income", "*-2083 *0 *0 510 *0 *0 *-462 510"),
        ("Number of Adults with Other Income", "0 0 0 0 *1 *7 *8 *1"),
        ("Average Change in Other Income", "*0 *0 *0 *0 *300 *0 *38 *300"),
        ("Number of Adults with Any Income (i.e., Total Income)", "*2 *1 0 5 0 0 *8 5"),
        ("Average Change in Overall Income", "*-2500 *-950 *0 510 *0 *0 *-425 510"),
    ],
    "Q20a": [
        (reports.HUD_BENEFITS["snap"], "9 0 8"),
        (
            "Special Supplemental Nutrition Program for Women, Infants, and Children (WIC)",
            "*3 0 *2",
        ),
        ("TANF Child Care Services", "0 0 0"),
        ("TANF Transportation Services", "0 0 0"),
        ("Other TANF-Funded Services", "0 0 0"),
        ("Other Source", "0 0 0"),
    ],
    "Q20b": [
        ("No Sources", "*10 0 *2"),
        ("1 + Source(s)", "9 0 8"),
        (DK_ROW, "0 0 *1"),
        ("Data Not Collected/Not stayed long enough for Annual Assessment", "*1 8 *1"),
        ("Total", "20 8 12"),
    ],
    "Q21": [
        ("MEDICAID", "12 0 8"),
        ("MEDICARE", "0 0 0"),
        ("State Children's Health Insurance Program", "0 0 0"),
        ("Veteran's Health Administration (VHA)", "0 0 0"),
        ("Employer - Provided Health Insurances", "*2 0 *2"),
        ("Health Insurance obtained through COBRA", "0 0 0"),
        ("Private Pay Health Insurance", "*2 0 0"),
        ("State Health Insurance for Adults", "0 0 0"),
        ("Indian Health Services Program", "0 0 0"),
        ("Other", "0 0 0"),
        ("No Health Insurance", "*2 0 *1"),
        (DK_ROW, "*1 0 *1"),
        (DNC_ROW, "*2 0 0"),
        ("Number of Stayers not yet Required To Have an Annual Assessment", "0 8 0"),
        ("1 Source of Health Insurance", "12 0 8"),
        ("More than 1 Source of Health Insurance", "*2 0 *1"),
        # caseflow's own row (HUD counts these stayers as not collected).
        ("Number of Stayers Without Required Annual Assessment", "0 0 0"),
    ],
    "Q13a1": [
        ("Mental Health Disorder", "6"),
        ("Alcohol Use Disorder", "*1"),
        ("Drug Use Disorder", "0"),
        ("Both Alcohol and Drug Use Disorders", "*1"),
        ("Chronic Health Condition", "*3"),
        ("HIV/AIDS", "0"),
        ("Developmental Disability", "*1"),
        ("Physical Disability", "*2"),
    ],
    "Q13a2": [
        ("None", "8"),
        ("1 Condition", "*4"),
        ("2 Conditions", "*4"),
        ("3+ Conditions", "*1"),
        ("Condition Unknown", "*1"),
        (DK_ROW, "*1"),
        (DNC_ROW, "*1"),
        ("Total", "20"),
    ],
    "Q13b1": [
        ("Mental Health Disorder", "5"),
        ("Alcohol Use Disorder", "0"),
        ("Drug Use Disorder", "*1"),
        ("Both Alcohol and Drug Use Disorders", "*1"),
        ("Chronic Health Condition", "*1"),
        ("HIV/AIDS", "0"),
        ("Developmental Disability", "*1"),
        ("Physical Disability", "*2"),
    ],
    "Q13b2": [
        ("None", "*1"),
        ("1 Condition", "5"),
        ("2 Conditions", "*2"),
        ("3+ Conditions", "*1"),
        ("Condition Unknown", "*1"),
        (DK_ROW, "*1"),
        (DNC_ROW, "*1"),
        ("Total", "12"),
    ],
    # The eight stayers' conditions at entry (none has an annual assessment).
    "Q13c1": [
        ("Mental Health Disorder", "0"),
        ("Alcohol Use Disorder", "0"),
        ("Drug Use Disorder", "0"),
        ("Both Alcohol and Drug Use Disorders", "0"),
        ("Chronic Health Condition", "0"),
        ("HIV/AIDS", "0"),
        ("Developmental Disability", "0"),
        ("Physical Disability", "0"),
    ],
    "Q13c2": [
        # Printed, the 5 would leave 3 of the 8 to the three "*": each 1.
        ("None", "*5"),
        ("1 Condition", "0"),
        ("2 Conditions", "0"),
        ("3+ Conditions", "0"),
        ("Condition Unknown", "*1"),
        (DK_ROW, "*1"),
        (DNC_ROW, "*1"),
        ("Total", "8"),
    ],
    # Four people gave the day their homelessness began: 0 (455 days before support began),
    # 1 (305), 6 (492) and 7 (more than six years); the sixteen others did not. The 16 hides
    # with the 4 it would give away.
    "Q22e": [
        ("7 days or less", "0"),
        ("8 to 14 days", "0"),
        ("15 to 21 days", "0"),
        ("22 to 30 days", "0"),
        ("31 to 60 days", "0"),
        ("61 to 90 days", "0"),
        ("91 to 180 days", "0"),
        ("181 to 365 days", "*1"),
        ("366 to 730 days (1-2 Yrs)", "*2"),
        ("731 days or more", "*1"),
        ("Total (persons moved into housing)", "*4"),
        ("Not yet moved into housing", "0"),
        ("Data not collected", "*16"),
        ("Total persons", "20"),
    ],
    # Q22g: Q22e by race and ethnicity. No one answered the race question (Q12's 20 are all
    # "Data Not Collected"), so every person is in the last column, the total's twin: the 4
    # housed (455, 305, 492 and 2,289 days: 885 on average, the middle two 455 and 492) and
    # the 16 others, hidden as in Q22e, and the figures of the 4 with them.
    "Q22g": [
        ("Persons Moved into housing", "*4 0 0 0 0 0 0 0 0 *4"),
        ("Persons who were exited without move-in", "*16 0 0 0 0 0 0 0 0 *16"),
        ("Average time to Move-In", "*885 *0 *0 *0 *0 *0 *0 *0 *0 *885"),
        ("Median time to Move-In", "*474 *0 *0 *0 *0 *0 *0 *0 *0 *474"),
    ],
    "Q25a": [
        ("Chronically Homeless Veteran", "*1"),
        ("Non-Chronically Homeless Veteran", "*2"),
        ("Not a Veteran", "13"),
        (DK_ROW, "*2"),
        (DNC_ROW, "*2"),
        ("Total", "20"),
    ],
    "Q26b": [
        ("Chronically Homeless", "*3"),
        ("Not Chronically Homeless", "13"),
        (DK_ROW, "*2"),
        (DNC_ROW, "*2"),
        ("Total", "20"),
    ],
    # Q25c and Q25d: the three veterans (0, 2 and 9, Q5a's 3, their total) answered neither the
    # gender nor the age question: "Data Not Collected", hidden with their total.
    "Q25c": [
        *((label, "0") for _code, label, _given in reports.HUD_GROUP_GENDERS[:-1]),
        (DNC_ROW, "*3"),
        ("Total", "*3"),
    ],
    "Q25d": [
        *((label, "0") for _code, label, _given in reports.HUD_GROUP_AGES[:-1]),
        (DNC_ROW, "*3"),
        ("Total", "*3"),
    ],
    # Q26b by household type: no one's was asked, so every household is of an unknown type
    # (the last column, the total's twin), hidden where Q26b's count is.
    "Q26a": [
        ("Chronically Homeless", "*3 0 0 0 *3"),
        ("Not Chronically Homeless", "13 0 0 0 13"),
        (DK_ROW, "*2 0 0 0 *2"),
        (DNC_ROW, "*2 0 0 0 *2"),
        ("Total", "20 0 0 0 20"),
    ],
    # Q10a: everyone served by gender; no one answered the question.
    "Q10a": [
        *((reports.HUD_GENDER_LABELS[code], "0") for code in list(reports.HUD_GENDERS)[:-1]),
        (DNC_ROW, "20"),
        ("Total", "20"),
    ],
    # Q10d: no one answered the gender or the age question: everyone is "Data Not Collected"
    # in both, the one pair anyone gave; every other row and column is a zero.
    "Q10d": [
        *(
            (reports.HUD_GENDER_LABELS[code], "0 0 0 0 0 0 0")
            for code in list(reports.HUD_GENDERS)[:-1]
        ),
        (DNC_ROW, "20 0 0 0 0 0 20"),
        ("Total", "20 0 0 0 0 0 20"),
    ],
    # Q22d: Q22a1's people by household type: no one's was asked, so all of an unknown type
    # (the last column, the total's twin): the 12 leavers of 61 days, the 8 stayers of 164 to
    # 171.
    "Q22d": [
        *((label, "0 0 0 0 0") for _code, label, _most in reports.HUD_FIRST_MONTH),
        ("31 to 60 days", "0 0 0 0 0"),
        ("61 to 90 days", "12 0 0 0 12"),
        ("91 to 180 days", "8 0 0 0 8"),
        *((label, "0 0 0 0 0") for _code, label, _most in reports.HUD_LENGTHS[4:]),
        ("Total", "20 0 0 0 20"),
    ],
    # Q26c: no one answered the gender question (Q10a's 20 are all "Data Not Collected"), so
    # the three chronically homeless are too, hidden with Q26b's 3, their total.
    "Q26c": [
        *((label, "0") for _code, label, _given in reports.HUD_GROUP_GENDERS[:-1]),
        (DNC_ROW, "*3"),
        ("Total", "*3"),
    ],
    # Q26d: no one answered the age question, so the three chronically homeless are all "Data
    # Not Collected" (Q11's 20), hidden with Q26b's 3, their total (the same cell).
    "Q26d": [
        *((label, "0") for _code, label, _bands in reports.HUD_GROUP_AGES[:-1]),
        (DNC_ROW, "*3"),
        ("Total", "*3"),
    ],
    # The three chronically homeless persons (0, 1 and 6, all leavers: the stayers' column is
    # 0) by what Q13a1 and Q13b1, Q17 and Q20a count of everyone. At start: 0 has a mental
    # health disorder, 1 one and a chronic health condition, 6 alcohol and drug use disorders
    # ("both"); all three earned income, 1 child support too; 0, 1 and 2 had SNAP and WIC
    # (only 0 and 1 of them chronically homeless), 6 SNAP. At exit: 0 and 1 a mental health
    # disorder, 6 a drug use disorder; all three earned income; SNAP, 6 with WIC. Every count
    # is from 1 to 4, so hides; its whole (Q13a1's, Q17's, Q20a's cell) less it is a count
    # never published.
    "Q26e": [
        ("Mental Health Disorder", "*2 0 *2"),
        ("Alcohol Use Disorder", "0 0 0"),
        ("Drug Use Disorder", "0 0 *1"),
        ("Both Alcohol and Drug Use Disorders", "*1 0 0"),
        ("Chronic Health Condition", "*1 0 0"),
        ("HIV/AIDS", "0 0 0"),
        ("Developmental Disability", "0 0 0"),
        ("Physical Disability", "0 0 0"),
    ],
    # Q26f: at start 0 and 6 have only earned income, 1 earned income and child support (both);
    # all three earned income at exit; no one stays. Every count is from 1 to 4, as are the
    # totals (3 at start, 3 leavers); the stayers' total is 0.
    "Q26f": [
        (
            label.replace("adult stayers", "Chronically Homeless Persons").replace(
                "Adults", "Chronically Homeless Persons"
            ),
            {"earned": "*2 0 *3", "both": "*1 0 0"}.get(code, "0 0 0"),
        )
        for code, label in [*reports.HUD_INCOME_CATEGORIES, *reports.HUD_NOT_ASSESSED]
    ]
    + [
        ("Total Chronically Homeless Persons", "*3 0 *3"),
        ("1 or more source of income", "*3 0 *3"),
        # Their income known at start and at exit: 0 and 6 (1 named both kinds of income
        # without the earned part).
        (
            "Chronically Homeless Persons with Income Information at Start and Annual "
            "Assessment/Exit",
            "- 0 *2",
        ),
    ],
    "Q26g": [
        (label, {"earned": "*3 0 *3", "child_support": "*1 0 0"}.get(code, "0 0 0"))
        for code, label in reports.HUD_INCOME_SOURCES.items()
    ],
    "Q26h": [
        (label, {"snap": "*3 0 *3", "wic": "*2 0 *1"}.get(code, "0 0 0"))
        for code, label in reports.HUD_BENEFITS.items()
    ],
}

#: Q25i: the three veterans all left: 0 and 2 to rent with no subsidy, 9 to an emergency
#: shelter. Q23c's rows, each count from 1 to 4 hidden, as is its total (Q5a's hidden 3).
EXPECTED["Q25i"] = [
    (
        label,
        {
            L["emergency_shelter"]: "*1",
            "Subtotal - Homeless Situations": "*1",
            "Rental by client, no ongoing housing subsidy": "*2",
            "Subtotal - Permanent Situations": "*2",
            "TOTAL": "*3",
        }.get(label, "0"),
    )
    for label, _printed_cells in EXPECTED["Q23c"]
]
#: Q25j: no veteran left to rent with a subsidy: Q23d's rows, each 0, its total Q25i's row.
EXPECTED["Q25j"] = [(label, "0") for label, _printed_cells in EXPECTED["Q23d"]]
#: Q27a: no one answered the age question, so no one is counted a youth.
#: Q6a: no one answered the race or the gender question: every one of the 20 is "Information
#: Missing" in both, and counted once in the overall score ("Data Issues" is greyed out).
EXPECTED["Q6a"] = [
    ("Race and Ethnicity (3.04)", "0 20 - 20"),
    ("Gender (3.06)", "0 20 - 20"),
    ("Overall Score", "- - - 20"),
]
#: Q6f: an emergency shelter with entry and exit, not night by night: no bed night records.
EXPECTED["Q6f"] = [("Bed Night (All clients in ES - NBN)", "0 0")]
#: Q22a2: Q22a1's bands, its first in four (the ESG CAPER's): the 12 leavers of 61 days, the 8
#: stayers of 164 to 171 days, no one in the first month.
EXPECTED["Q22a2"] = [
    *((label, "0 0 0") for label in reports.HUD_ESG_FIRST_MONTH.values()),
    ("31 to 60 days", "0 0 0"),
    ("61 to 90 days", "12 12 0"),
    ("91 to 180 days", "8 0 8"),
    *((label, "0 0 0") for _code, label, _most in reports.HUD_LENGTHS[4:]),
    ("Total", "20 12 8"),
]
EXPECTED["Q27a"] = [("12 - 17", "0"), ("18 - 24", "0"), ("Total", "0")]
#: Q27c: nor by gender: Q10a's rows, each 0 under 18 and 18 to 24, and in total.
EXPECTED["Q27c"] = [(label, "0 0 0") for label, _printed_cells in EXPECTED["Q10a"]]
#: Q27f1 and Q27f2: no youth, so no youth who left: Q23c's and Q23d's rows, each 0.
EXPECTED["Q27f1"] = [(label, "0") for label, _printed_cells in EXPECTED["Q23c"]]
EXPECTED["Q27f2"] = [(label, "0") for label, _printed_cells in EXPECTED["Q23d"]]
#: Q27d, Q27g and Q27h: no youth, so none by living situation, source or kind of income:
#: Q15's, Q17's and Q18's rows (Q18's "Adults" the youth, its "1 or more source of income"
#: too, and its last row, Q19a's people, blank at start), each 0.
EXPECTED["Q27d"] = [(label, "0") for label, _printed_cells in EXPECTED["Q15"]]
EXPECTED["Q27e"] = [
    *((label, "0 0 0") for _code, label, _most in reports.HUD_LENGTHS),
    ("Total", "0 0 0"),
]
EXPECTED["Q27g"] = [(label, "0 0 0") for label, _printed_cells in EXPECTED["Q17"]]
EXPECTED["Q27h"] = [
    (label.replace("Adults", "Youth").replace("adult stayers", "youth stayers"), "0 0 0")
    for label, _printed_cells in EXPECTED["Q18"][:-1]
] + [("Youth with Income Information at Start and Annual Assessment/Exit", "- 0 0")]


#: Each question's title and columns, as HUD's FY2024 APR/CAPER programming specifications
#: name them (caseflow leaves out the household types' columns, Q5a's "Count of Clients for DQ",
#: and Q14b's columns of whether the person is currently fleeing, which FY2024 dropped).
STAYS = ["Total", "Leavers", "Stayers"]
INCOME_AT = ["Income at Start", "Income at Latest Annual Assessment for Stayers"]
BENEFIT_AT = ["Benefit at Start", "Benefit at Latest Annual Assessment for Stayers"]
#: Q23d's title, and Q25j's and Q27f2's with the group's name after it.
SUBSIDIES = (
    "Exit Destination \u2013 Subsidy Type of Persons Exiting to Rental by Client With An Ongoing "
    "Subsidy"
)
HOUSEHOLD_TYPES = [
    "Without Children",
    "With Children and Adults",
    "With Only Children",
    "Unknown Household Type",
]
HEADINGS = {
    "Q4a": (
        "Project Identifiers in HMIS",
        [
            "Organization Name",
            "Organization ID",
            "Project Name",
            "Project ID",
            "HMIS Project Type",
            "RRH Subtype",
            "Coordinated Entry Access Point",
            "Affiliated with a residential project",
            "Project IDs of affiliations",
            "CoC Number",
            "Geocode",
            "Victim Service Provider",
            "HMIS Software Name",
            "Report Start Date",
            "Report End Date",
            "Total Active Clients",
            "Total Active Households",
        ],
    ),
    "Q5a": ("Report Validations Table", ["Count of Clients"]),
    "Q6a": ("Data Quality: Personally Identifiable Information", reports.HUD_PII_COLUMNS),
    "Q6b": ("Data Quality: Universal Data Elements", ["Error Count", "% of Error Rate"]),
    "Q6c": ("Data Quality: Income and Housing Data Quality", ["Error Count", "% of Error Rate"]),
    "Q6d": ("Data Quality: Chronic Homelessness", reports.HUD_CHRONIC_DQ_COLUMNS),
    "Q6f": (
        "Data Quality: Inactive Records: Street Outreach and Emergency Shelter",
        reports.HUD_INACTIVE_COLUMNS,
    ),
    "Q6e": (
        "Data Quality: Timeliness",
        ["Number of Project Start Records", "Number of Project Exit Records"],
    ),
    "Q8a": ("Number of Households Served", ["Total", *HOUSEHOLD_TYPES]),
    "Q8b": ("Point-in-Time Count of Households on the Last Wednesday", ["Total", *HOUSEHOLD_TYPES]),
    "Q11": ("Age", ["Total"]),
    "Q10a": ("Gender", ["Total"]),
    "Q22d": (
        "Length of Participation by Household Type",
        ["Total", *(label for _code, label in reports.HUD_HOUSEHOLDS)],
    ),
    "Q10d": (
        "Gender by Age Ranges",
        [
            "Total",
            "Under Age 18",
            "Age 18-24",
            "Age 25-64",
            "Age 65 and over",
            "Client Doesn't Know/Prefers Not to Answer",
            "Data Not Collected",
        ],
    ),
    "Q12": ("Race and Ethnicity", ["Total"]),
    "Q22a1": ("Length of Participation - CoC Projects", STAYS),
    "Q22a2": ("Length of Participation - ESG Projects", STAYS),
    "Q22b": ("Average and Median Length of Participation in Days", STAYS[1:]),
    "Q15": ("Living Situation", ["Total"]),
    "Q14a": ("Domestic Violence History", ["Total"]),
    "Q14b": (
        "Most recent experience of domestic violence, sexual assault, dating violence, "
        "stalking, or human trafficking",
        ["Total"],
    ),
    "Q23c": ("Exit Destination", ["Total"]),
    "Q23d": (SUBSIDIES, ["Total"]),
    "Q16": ("Cash Income - Ranges", [*INCOME_AT, "Income at Exit for Leavers"]),
    "Q17": ("Cash Income - Sources", [*INCOME_AT, "Income at Exit for Leavers"]),
    "Q18": (
        "Client Cash Income Category - Earned/Other Income Category - by Start and Annual "
        "Assessment/Exit Status",
        [
            "Number of Adults at Start",
            "Number of Adults at Annual Assessment (Stayers)",
            "Number of Adults at Exit (Leavers)",
        ],
    ),
    **{
        code: (
            f"Client Cash Income Change - Income Source - by Start and {status} Status",
            [
                *(name.format(at=at) for _c, name in reports.HUD_INCOME_CHANGE_COLUMNS),
                "Total Adults (including those with No Income)",
                "Performance Measure: Adults who Gained or Increased Income from Start to "
                f"{at}, Average Gain",
                "Performance measure: Percent of Persons who Accomplished this Measure",
            ],
        )
        for code, status, at in (
            ("Q19a1", "Latest", "Annual Assessment"),
            ("Q19a2", "Exit", "Exit"),
        )
    },
    "Q19b": ("Disabling Conditions and Income for Adults at Exit", reports.HUD_DISABLING_COLUMNS),
    "Q20a": ("Type of Non-Cash Benefit Sources", [*BENEFIT_AT, "Benefit at Exit for Leavers"]),
    "Q20b": ("Number of Non-Cash Benefit Sources", [*BENEFIT_AT, "Benefit at Exit for Leavers"]),
    "Q21": (
        "Health Insurance",
        ["At Start", "At Annual Assessment for Stayers", "At Exit for Leavers"],
    ),
    "Q13a1": ("Physical and Mental Health Conditions at Start", ["Total Persons"]),
    "Q13a2": ("Number of Conditions at Start", ["Total Persons"]),
    "Q13b1": ("Physical and Mental Health Conditions at Exit", ["Total Persons"]),
    "Q13b2": ("Number of Conditions at Exit", ["Total Persons"]),
    "Q13c1": ("Physical and Mental Health Conditions for Stayers", ["Total Persons"]),
    "Q13c2": ("Number of Conditions for Stayers", ["Total Persons"]),
    "Q22e": (
        "Length of Time Prior to Housing - based on 3.917 Date Homelessness Started",
        ["Total"],
    ),
    "Q22g": (
        "Length of Time Prior to Housing by Race and Ethnicity - based on 3.917 Date "
        "Homelessness Started",
        ["Total", *(label for _k, label in reports.HUD_RACE_COLUMNS)],
    ),
    "Q25a": ("Number of Veterans", ["Total"]),
    "Q25c": ("Gender - Veterans", ["Total"]),
    "Q25d": ("Age - Veterans", ["Total"]),
    "Q25i": ("Exit Destination - Veterans", ["Total"]),
    "Q25j": (f"{SUBSIDIES} - Veterans", ["Total"]),
    "Q27a": ("Age of Youth", ["Total"]),
    "Q27c": ("Gender - Youth", ["Total", "Under Age 18", "Age 18-24"]),
    "Q27f1": ("Exit Destination - Youth", ["Total"]),
    "Q27f2": (f"{SUBSIDIES} - Youth", ["Total"]),
    "Q27d": ("Living Situation - Youth", ["Total"]),
    "Q27e": ("Length of Participation - Youth", STAYS),
    "Q27l": (
        "Length of Time Prior to Housing - based on 3.917 Date Homelessness Started - Youth",
        ["Total"],
    ),
    "Q27j": ("Average and Median Length of Participation in Days - Youth", ["Leavers", "Stayers"]),
    "Q27g": ("Type of Cash Income Sources - Youth", [*INCOME_AT, "Income at Exit for Leavers"]),
    "Q27h": (
        "Client Cash Income Category - Earned/Other Income Category - by Start and Annual "
        "Assessment/Exit Status - Youth",
        [
            "Number of Youth at Start",
            "Number of Youth at Annual Assessment (Stayers)",
            "Number of Youth at Exit (Leavers)",
        ],
    ),
    "Q27i": (
        "Disabling Conditions and Income for Youth at Exit",
        [
            "Youth with Disabling Condition",
            "Youth without Disabling Condition",
            "Total Youth",
            "% with Disabling Condition by Source",
        ],
    ),
    "Q26a": (
        "Chronic Homeless Status - Number of Households w/at least one or more CH person",
        ["Total", *(label for _code, label in reports.HUD_HOUSEHOLDS)],
    ),
    "Q26b": ("Number of Chronically Homeless Persons by Household", ["Total"]),
    "Q26c": ("Gender of Chronically Homeless Persons", ["Total"]),
    "Q26d": ("Age of Chronically Homeless Persons", ["Total"]),
    "Q26e": (
        "Physical and Mental Health Conditions - Chronically Homeless Persons",
        [
            "Conditions At Start",
            "Conditions at Latest Assessment for Stayers",
            "Conditions at Exit for Leavers",
        ],
    ),
    "Q26f": (
        "Client Cash Income - Chronically Homeless Persons",
        [
            "Number of Chronically Homeless Persons at Start",
            "Number of Chronically Homeless Persons at Annual Assessment (Stayers)",
            "Number of Chronically Homeless Persons at Exit (Leavers)",
        ],
    ),
    "Q26g": (
        "Type of Cash Income Sources - Chronically Homeless Persons",
        [*INCOME_AT, "Income at Exit for Leavers"],
    ),
    "Q26h": (
        "Type of Non-Cash Benefit Sources - Chronically Homeless Persons",
        [*BENEFIT_AT, "Benefit at Exit for Leavers"],
    ),
}


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_hud_questions(population):
    HudProject.objects.create(
        agency_id=population,
        organization_name="Harbor Light Services",
        organization_id="HLS-01",
        project_name="Harbor Light Emergency Shelter",
        project_id="ES-7",
        project_type=HudProjectType.ES_ENTRY_EXIT,
        coc_number="CA-600",
        geocode="069037",
    )
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    # Q4a: the project as its admin described it, in words, and the people served, each one
    # household (the same cell as Q5a's total).
    q4a = {s.code: s for s in report.sections}["Q4a"]
    assert q4a.columns[:5] == [
        "Organization Name",
        "Organization ID",
        "Project Name",
        "Project ID",
        "HMIS Project Type",
    ]
    assert q4a.facts == [
        "Harbor Light Services",
        "HLS-01",
        "Harbor Light Emergency Shelter",
        "ES-7",
        "Emergency shelter, entry and exit",
        "",
        "No",
        "",
        "",
        "CA-600",
        "069037",
        "Yes",
        "caseflow",
        "2025-10-01",
        "2026-09-30",
    ]
    assert {s.code: (s.title, s.columns) for s in report.sections} == {
        code: (f"{code}: {title}", columns) for code, (title, columns) in HEADINGS.items()
    }
    # The CSV names the rows' column where HUD's table does.
    csv = report.csv_rows()
    named = {csv[i][0]: csv[i + 1] for i in range(len(csv) - 1) if len(csv[i]) == 1}
    assert named["Q5a"] == ["Category", "Count of Clients"]
    assert named["Q6b"] == named["Q6c"] == ["Data Element", "Error Count", "% of Error Rate"]
    assert named["Q6d"] == ["Entering into project type", *reports.HUD_CHRONIC_DQ_COLUMNS]
    assert named["Q6e"][0] == "Time for Record Entry"
    assert named["Q11"] == ["", "Total"]
    assert shown["Q4a"] == [("", "20 20")]
    assert q4a.rows[0].cells == [report.grid.keys["served"]] * 2
    assert not q4a.note
    assert {code: shown[code] for code in EXPECTED} == EXPECTED
    # Q5a's veterans are Q25a's two rows of veterans; its chronically homeless, Q26b's. No one
    # answered the age question: no adult, child or youth, the 20 of unknown age (Q11's "Data
    # Not Collected", printed there), each the head of her household; every leaver one of
    # the adult and head of household leavers.
    assert shown["Q5a"] == [
        ("Total number of persons served", "20"),
        ("Number of adults (age 18 or over)", "0"),
        ("Number of children (under age 18)", "0"),
        ("Number of persons with unknown age", "20"),
        ("Number of leavers", "12"),
        ("Number of adult and head of household leavers", "12"),
        ("Number of stayers", "8"),
        ("Number of veterans", "*3"),
        ("Number of chronically homeless persons", "*3"),
        ("Number of youth under age 25", "0"),
        ("Number of adult heads of household", "0"),
        ("Number of child and unknown-age heads of household", "20"),
    ]
    # The questions in the order of HUD's tables (an emergency shelter: no Q22c), and the CSV
    # prints the same.
    # No one's household type was asked: every household is of an unknown type. Everyone was
    # there on the last Wednesday of April (support began from 1 April, the first leaver left
    # on 1 June), the eight stayers on July's; no one on January's or October's (2025).
    assert shown["Q8a"] == [
        ("Total Households", "20 0 0 0 20"),
        # An emergency shelter: no one moves into housing.
        ("For PSH & RRH - the total households served who moved into housing", "0 0 0 0 0"),
    ]
    assert shown["Q8b"] == [
        ("January", "0 0 0 0 0"),
        ("April", "20 0 0 0 20"),
        ("July", "8 0 0 0 8"),
        ("October", "0 0 0 0 0"),
    ]
    assert list(shown) == [
        *("Q4a", "Q5a", "Q6a", "Q6b", "Q6c", "Q6d", "Q6e", "Q6f", "Q8a", "Q8b", "Q10a"),
        "Q10d",
        *("Q11", "Q12", "Q13a1", "Q13b1", "Q13c1", "Q13a2", "Q13b2", "Q13c2", "Q14a", "Q14b"),
        "Q15",
        *("Q16", "Q17", "Q18", "Q19a1", "Q19a2", "Q19b", "Q20a", "Q20b", "Q21", "Q22a1"),
        "Q22a2",
        *("Q22b", "Q22d"),
        *("Q22e", "Q22g", "Q23c", "Q23d", "Q25a", "Q25c", "Q25d", "Q25i"),
        *("Q25j", "Q26a", "Q26b", "Q26c", "Q26d"),
        *("Q26e", "Q26f", "Q26g", "Q26h", "Q27a", "Q27c", "Q27d", "Q27e", "Q27f1"),
        *("Q27f2", "Q27g", "Q27h", "Q27i", "Q27j", "Q27l"),
    ]
    # Q6: the people whose answer is not known, each the sum of cells printed elsewhere (Q25a's
    # 2 + 2, Q13a2's 1 + 1, Q23c's 0 + 1 + 1 with no exit interview, Q18's 1 + 2 and 1 + 1),
    # with its share of the people asked, hidden with its count. The project has a CoC.
    sections = {s.code: s for s in report.sections}
    rates = {
        code: [(label, [c.text for c in cells]) for label, cells in report.table(sections[code])]
        for code in ("Q6a", "Q6b", "Q6c")
    }
    assert rates == {
        "Q6a": [
            ("Race and Ethnicity (3.04)", ["0", "20", "", "20", "100.00%"]),
            ("Gender (3.06)", ["0", "20", "", "20", "100.00%"]),
            ("Overall Score", ["", "", "", "20", "100.00%"]),
        ],
        "Q6b": [
            ("Veteran Status (3.07)", ["*", "*"]),
            ("Project Start Date (3.10)", ["0", "0.00%"]),
            ("Relationship to Head of Household (3.15)", ["0", "0.00%"]),
            ("Enrollment CoC (3.16)", ["0", "0.00%"]),
            ("Disabling Condition (3.08)", ["*", "*"]),
        ],
        "Q6c": [
            ("Destination (3.12)", ["*", "*"]),
            ("Income and Sources (4.02) at Start", ["*", "*"]),
            ("Income and Sources (4.02) at Annual Assessment", ["0", "0.00%"]),
            ("Income and Sources (4.02) at Exit", ["*", "*"]),
        ],
    }
    assert [row for _c, rows in ((c, shown[c]) for c in ("Q6b", "Q6c")) for row in rows] == [
        ("Veteran Status (3.07)", "*4"),
        ("Project Start Date (3.10)", "0"),
        ("Relationship to Head of Household (3.15)", "0"),
        ("Enrollment CoC (3.16)", "0"),
        ("Disabling Condition (3.08)", "*2"),
        ("Destination (3.12)", "*2"),
        ("Income and Sources (4.02) at Start", "*3"),
        ("Income and Sources (4.02) at Annual Assessment", "0"),
        ("Income and Sources (4.02) at Exit", "*2"),
    ]
    keys, values = report.grid.keys, report.grid.values
    assert (keys["q6b:veteran"], (keys["q25a:dk"], keys["q25a:dnc"])) in report.grid.sums
    # The people with earned income, in each table of sources, are those with only earned
    # income and those with both in its table of kinds of income.
    for sources, kinds in (("q17", "q18"), ("q26g", "q26f"), ("q27g", "q27h")):
        for column in ("start", "annual", "exit"):
            parts = (keys[f"{kinds}:earned:{column}"], keys[f"{kinds}:both:{column}"])
            assert (keys[f"{sources}:earned:{column}"], parts) in report.grid.sums
    assert shown["Q17"][0] == ("Earned Income", "10 0 *7")
    assert sections["Q6c"].rows[0].of == keys["q5a:leavers"]
    # Q6d: an emergency shelter, so its first row; everyone counted began in April 2026. The
    # day homelessness began is given by 0, 1, 6 and 7 (16 without), the times by 1, 2 and 3
    # (17 without), the months by 1 and 2 (18 without); only 1 gave all three (19 unable, 95%).
    # Each is tied to the 20 records (the people served) through the few who answered: from 1
    # to 4, so every count hides, and the share with them.
    assert shown["Q6d"] == [
        ("ES-EE, ES-NbN, SH, Street Outreach", "20 - - *16 *17 *18"),
        *((label, "0 0 0 0 0 0") for label in ("TH", "PH (all)", "CE", "SSO, Day Shelter, HP")),
        ("Total", "20 - - - - -"),
    ]
    shares = [cells[-1].text for _l, cells in report.table(sections["Q6d"])]
    assert shares == ["*", *["0.00%"] * 4, "*"]
    assert values[keys["q6d:unable"]] == 19
    # Q22b: the leavers stayed 61 days each (1 April to 1 June, ...); the stayers 164 to 171
    # days, through the year's last day, 167.5 on average and in the middle: 168, halves
    # rounded up.
    assert shown["Q22b"] == [("Average Length", "61 168"), ("Median Length", "61 168")]
    assert_csv_prints(report, shown)
    # Nor does a reader who knows Q18's and Q19a's rules learn a small count (the 2 above).
    assert not told_by_q19a(report)
    # Nor one who knows that each source, benefit, insurance and condition is some of those
    # with any (Q18's, Q20b's, Q21's and Q13b2's rows).
    assert not told_by_any_answer(report)
    # Nor one who knows that chronic homelessness needs a disabling condition.
    assert not told_by_disabling(report)
    # Q14b's people are Q14a's "Yes", Q23c's and Q16's leavers Q5a's: the same cells.
    keys, sections = report.grid.keys, {s.code: s for s in report.sections}
    assert sections["Q14b"].rows[-1].cells[-1] == keys["q14a:yes"]
    assert sections["Q23c"].rows[-1].cells == [keys["q5a:leavers"]]
    assert sections["Q23d"].rows[-1].cells == [keys["q23c:rental_subsidy"]]
    assert sections["Q25j"].rows[-1].cells == [keys["q25i:rental_subsidy"]]
    # The columns of Q16, Q18 and Q20b are everyone, the stayers and the leavers: Q5a's cells.
    columns = [keys["served"], keys["q5a:stayers"], keys["q5a:leavers"]]
    assert sections["Q20b"].rows[-1].cells == columns
    assert sections["Q25a"].rows[-1].cells == sections["Q26b"].rows[-1].cells == [keys["served"]]
    q5a = {row.label: row.cells for row in sections["Q5a"].rows}
    assert q5a["Number of chronically homeless persons"] == [keys["q26b:yes"]]
    veterans = (keys["q5a:veterans"], (keys["q25a:chronic_veteran"], keys["q25a:veteran"]))
    assert veterans in report.grid.sums and q5a["Number of veterans"] == [veterans[0]]
    # Its rows by age: Q10d's cells, Q27a's youth, and sums of Q10d's cells (a reader's, once
    # suppression has chosen); each survivor heads her household.
    q10d = sections["Q10d"].rows[-1].cells
    assert q5a["Number of children (under age 18)"] == [q10d[1]]
    assert q5a["Number of youth under age 25"] == sections["Q27a"].rows[-1].cells
    for label, parts in (
        ("Number of adults (age 18 or over)", q10d[2:5]),
        ("Number of persons with unknown age", q10d[5:7]),
        ("Number of child and unknown-age heads of household", [q10d[1], *q10d[5:7]]),
    ):
        assert (q5a[label][0], tuple(parts)) in report.grid.sums
    assert q5a["Number of adult heads of household"] == q5a["Number of adults (age 18 or over)"]
    assert q5a["Number of adult and head of household leavers"] == q5a["Number of leavers"]
    assert sections["Q16"].rows[-1].cells == columns
    # Q18's columns are everyone counted and the leavers; its last row adds up its first three.
    assert sections["Q18"].rows[-3].cells == columns
    # Q13a2's people are everyone counted, Q13b2's the leavers: the same cells.
    assert sections["Q13a2"].rows[-1].cells == [keys["served"]]
    assert sections["Q13b2"].rows[-1].cells == [keys["q5a:leavers"]]
    # Q21's people by how many sources cover them, at start and at exit, each add up to its total
    # with an unpublished cell: the insured who named no source (one at start, one at exit).
    values = report.grid.values
    assert [values[keys[f"q21:unlisted:{c}"]] for c in ("start", "annual", "exit")] == [1, 0, 1]
    for column, total in (("start", N), ("annual", N - LEAVERS), ("exit", LEAVERS)):
        rows = ("none", "dk", "dnc", "one", "more", "unlisted", "not_required", "missing")
        assert sum(values[keys[f"q21:{r}:{column}"]] for r in rows) == total


@time_machine.travel(TODAY, tick=False)
def test_each_persons_answers_are_opened_once(population, cast):
    """One decryption per person: every question reads the answers opened once."""
    with (
        mock.patch.object(reports, "read_hud_answers", wraps=reports.read_hud_answers) as reads,
        mock.patch.object(reports, "unwrap_data_key", wraps=reports.unwrap_data_key) as unwraps,
    ):
        reports.release("hud", population, YEAR)
    assert reads.call_count == 1
    hud_unwraps = unwraps.call_count
    with mock.patch.object(reports, "unwrap_data_key", wraps=reports.unwrap_data_key) as plain:
        field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (True, "")})
        reports.release("hud", population, YEAR)
    # The 19 people with answers, once each, beyond what the other questions read.
    assert hud_unwraps - plain.call_count == N - 1


@time_machine.travel(TODAY, tick=False)
def test_a_report_unwraps_each_case_key_once_for_both_sets_of_answers(population, cast):
    """Built on its own, the report reads each person's demographic and HUD answers in one pass:
    one unwrap of her case key for both, and the same cells as when each is read alone."""
    served = reports.served_cases(population, YEAR).order_by("pk")
    survivors = Party.objects.filter(case__in=served, role=PartyRole.SURVIVOR).order_by("case_id")
    # Demographic answers for half the people, the last of them (who has no HUD answers) too.
    given = [p for n, p in enumerate(survivors) if n % 2 or n == N - 1]
    for n, party in enumerate(given):
        Demographics(case=party.case, party=party, age_band=("25_34", "35_44")[n % 2]).save()
    with mock.patch.object(reports, "unwrap_data_key", wraps=reports.unwrap_data_key) as unwraps:
        report = reports.build("hud", population, YEAR)
    # The 19 people with HUD answers and the one with demographic answers only: once each.
    assert unwraps.call_count == N
    # The same counts as each set of answers read on its own (the annual release reads them
    # separately: its demographic answers are opened once for all its reports).
    alone = reports.annual_release(population, reports.federal_year_of(YEAR.end))["hud"]
    keys = [k for k in report.grid.keys if k in alone.grid.keys and "|" not in k]
    assert len(keys) > 300
    assert [report.grid.values[report.grid.keys[k]] for k in keys] == [
        alone.grid.values[alone.grid.keys[k]] for k in keys
    ]
    # Every other one of them is 25 to 34.
    assert report.grid.values[report.grid.keys["demo:age_band:25_34"]] == (len(given) + 1) // 2


@time_machine.travel(TODAY, tick=False)
def test_an_agency_that_does_not_ask_gets_none_of_these_questions(population, cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (True, "")})
    report = reports.release("hud", population, YEAR)
    assert [s.code for s in report.sections] == [
        "Q4a",
        "Q5a",
        "Q6a",
        "Q6f",
        "Q10a",
        "Q10d",
        "Q11",
        "Q12",
        "Q22a1",
        "Q22a2",
        "Q22b",
        "Q27a",
        "Q27c",
    ]
    # No project described yet: its columns are blank, and the page says who describes it.
    q4a = report.sections[0]
    assert q4a.facts[:11] == [""] * 11
    assert "HUD project" in q4a.note


@pytest.mark.parametrize(
    ("any_income", "amount", "band"),
    [
        ("no", "", "none"),
        ("yes", "0", "none"),
        ("yes", "0.50", "150"),
        ("yes", "150", "150"),
        ("yes", "150.01", "250"),
        ("yes", "2000", "2000"),
        ("yes", "2000.01", "more"),
        ("yes", "", "dnc"),
        (DK, "", "dk"),
        (PNA, "", "dk"),
        (DNC, "", "dnc"),
    ],
)
def test_income_bands_hold_their_last_dollar(any_income, amount, band):
    assert reports.hud_income_band(any_income, amount) == band


def test_an_answer_no_row_holds_is_not_collected_and_unknowns_are_one_row():
    assert reports.hud_row("yes", ("yes", "no")) == "yes"
    assert reports.hud_row(DK, ("yes", "no")) == reports.hud_row(PNA) == "dk"
    assert reports.hud_row(DNC, ("yes", "no")) == "dnc"
    # A code no row holds (one the lists no longer have) is counted, once, as not collected.
    assert reports.hud_row("castle", ("yes", "no")) == "dnc"
    assert reports.hud_row(None, ("yes", "no")) == "dnc"


@pytest.mark.parametrize(
    ("any_condition", "conditions", "row"),
    [
        ("no", [], "none"),
        ("yes", ["physical"], "1"),
        ("yes", ["alcohol", "drug"], "2"),  # two conditions, as HUD counts them
        ("yes", ["alcohol", "drug", "physical"], "3"),
        ("yes", ["mental_health", "physical", "hiv_aids"], "3"),
        ("yes", ["mental_health", "physical", "hiv_aids", "developmental"], "3"),
        ("yes", [], "unknown"),
        (DK, [], "dk"),
        (PNA, [], "dk"),
        (DNC, [], "dnc"),
    ],
)
def test_conditions_are_counted_by_hud_elements(any_condition, conditions, row):
    answers = {"exit_conditions_any": any_condition, "exit_conditions": conditions}
    assert reports.hud_condition_count(answers, "exit_") == row


@pytest.mark.parametrize(
    ("any_income", "sources", "row"),
    [
        ("yes", ["earned"], "earned"),
        ("yes", ["ssi", "child_support"], "other"),
        ("yes", ["earned", "tanf"], "both"),
        ("yes", [], "dnc"),  # income said, no source named: missing
        ("no", [], "none"),
        (DK, [], "dk"),
        (PNA, [], "dk"),
        (DNC, [], "dnc"),
    ],
)
def test_income_is_categorised_by_its_sources(any_income, sources, row):
    answers = {"exit_income_any": any_income, "exit_income_sources": sources}
    assert reports.hud_income_category(answers, "exit_") == row


def test_an_average_is_published_only_with_its_groups_count():
    """Q22b's figures are about a group: shown when the group's count is shown and at least the
    threshold, whatever the figure's own size (4 days is not 4 people), hidden otherwise; never
    added to another agency's in a roll-up, nor drawn as bars."""
    from caseflow.reporting import charts

    b = reports.Builder()
    b.grid.cell("q5a:leavers", 3)
    b.grid.cell("q5a:stayers", 6)
    reports._average_and_median(b, {"leavers": [10, 20, 30], "stayers": [1, 2, 3, 4, 5, 6]})
    report = b.finish("hud", "HUD", YEAR)
    assert report.threshold == 5
    section = report.sections[-1]
    assert report.table(section) == [
        ("Average Length", [reports.Shown("*", None), reports.Shown("4", 4)]),
        ("Median Length", [reports.Shown("*", None), reports.Shown("4", 4)]),
    ]
    assert report.suppressed == 2
    assert section.figures and charts.bar_chart(report, section) is None
    # The group's count hidden (a complement), its figures hide with it.
    report.hidden.add(b.grid.keys["q5a:stayers"])
    assert [c.text for _l, cells in report.table(section) for c in cells] == ["*"] * 4


@pytest.mark.parametrize(
    ("part", "whole", "text"),
    [
        (7, 19, "36.84%"),
        (5, 8, "62.50%"),
        (2, 3, "66.67%"),
        (1, 30000 // 5, "0.02%"),  # 0.0167 %, up to a hundredth
        (1, 80000, "0.00%"),  # 0.00125 %, down
        (20, 20, "100.00%"),
        (0, 0, "0.00%"),  # no one asked: no one wrong
    ],
)
def test_an_error_rate_is_printed_in_hundredths_of_a_percent_halves_up(part, whole, text):
    grid = Grid()
    count, of = grid.cell("count", part), grid.cell("whole", whole)
    section = reports.Section(
        "Q6b", ["Error Count", "% of Error Rate"], [reports.Row("x", [count], of=of)]
    )
    report = reports.FunderReport("hud", "HUD", YEAR, [section], grid)
    assert [c.text for c in report.table(section)[0][1]] == [str(part), text]
    # Either count hidden: the rate is hidden with it.
    for hidden in (count, of):
        report.hidden = {hidden}
        assert report.table(section)[0][1][1].text == "*"
