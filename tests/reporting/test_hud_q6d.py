"""Q6d, the answers at entry chronic homelessness is worked out from that are missing, against a
population counted by hand.

Forty survivors of one agency that asks HUD's questions, whose project is permanent supportive
housing (HUD's row "PH (all)"), all still supported or leaving in the federal year 2026. Their
support began in April 2026 unless said:

1. six from an emergency shelter who gave everything: nothing missing;
2. five from the street (leavers, gone in June) with no day their homelessness began, two times
   and the months not collected: the day and the months missing;
3. two from a safe haven who preferred not to say how many times: the times missing;
4. five from jail who did not know how long they stayed: the time in institution missing (the
   day, the times and the months are not asked after a long or unknown stay);
5. one from hospital, under 90 days, on the street the night before, with no day: the day
   missing;
6. four from a psychiatric hospital, a week to a month, not on the street the night before:
   nothing asked, nothing missing;
7. five who rented, how long not collected: the time in housing missing;
8. two who stayed with family two to six nights, in a shelter the night before, who did not know
   the times nor the months: both missing;
9. one from a hotel for a week to a month, on the street the night before, with no day: nothing
   asked (not a short stay), nothing missing;
10. one never asked (no answers at all): where she stayed is not known, nor how long, so the
    time in housing is missing;
11. one who preferred not to say where she stayed, one night, who did not know about the night
    before: nothing asked, and the length is known: nothing missing;
12. five supported since September 2016, before 3.917 took its present form, answers never
    collected: served, but not Q6d's records;
13. one supported since June 2025 (before the year), from a shelter, with no day: counted (HUD
    counts everyone active in the year, not only those who began in it), the day missing;
14. one supported since 1 October 2016, the first day HUD counts, from a shelter, who gave
    everything: counted, nothing missing.

Another agency's survivor with no answers is in no count.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine

from caseflow.cases.models import Episode, IntakeField, PartyRole
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud
from caseflow.partners.models import HudAnswers, HudProject, HudProjectType
from caseflow.reporting import reports
from tests import factories as f
from tests.reporting.hud_people import close, hud_person
from tests.reporting.test_report_cells import _printed, assert_csv_prints

pytestmark = pytest.mark.django_db

UTC = dt.UTC
YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
DK, PNA, DNC = hud.DONT_KNOW, hud.PREFERS_NOT, hud.NOT_COLLECTED

COMPLETE = {
    "homeless_since": "2025-01-01",
    "times_homeless": "four_plus",
    "months_homeless": "12",
}


def _stay(prior: str, length: str = DNC, night: str = DNC, **more: str) -> dict[str, Any]:
    return {"prior_living": prior, "prior_length": length, "prior_night_street": night, **more}


#: The groups 1 to 11 of the docstring, begun in April 2026: (how many, their answers, leavers).
GROUPS: list[tuple[int, dict[str, Any] | None, bool]] = [
    (6, _stay("emergency_shelter", **COMPLETE), False),
    (5, _stay("place_not_meant", times_homeless="two", months_homeless=DNC), True),
    (2, _stay("safe_haven", **{**COMPLETE, "times_homeless": PNA}), False),
    (5, _stay("jail", DK, **COMPLETE), False),
    (
        1,
        _stay(
            "hospital", "month_to_90_days", "yes", times_homeless="four_plus", months_homeless="12"
        ),
        False,
    ),
    (4, _stay("psychiatric", "week_to_month", "no"), False),
    (5, _stay("rental_no_subsidy", DNC), False),
    (
        2,
        _stay(
            "family_temporary",
            "two_to_six_nights",
            "yes",
            homeless_since="2026-03-01",
            times_homeless=DK,
            months_homeless=DK,
        ),
        False,
    ),
    (1, _stay("hotel_no_voucher", "week_to_month", "yes"), False),
    (1, None, False),
    (1, _stay(PNA, "one_night", DK), False),
]


@pytest.fixture
def population(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    HudProject.objects.create(
        agency_id=cast.agency.pk,
        project_name="Harbor Light Housing",
        project_type=HudProjectType.SUPPORTIVE,
        coc_number="CA-600",
    )
    n = 0
    for how_many, answers, leaving in GROUPS:
        for _one in range(how_many):
            opened = dt.datetime(2026, 4, 1, 10, tzinfo=UTC) + dt.timedelta(days=n)
            closed = dt.datetime(2026, 6, 1, 10, tzinfo=UTC) if leaving else None
            hud_person(cast, n, opened, answers, closed=closed)
            n += 1
    for k in range(5):  # 12: before 1 October 2016, answers never collected
        hud_person(cast, n, dt.datetime(2016, 9, 1 + k, 10, tzinfo=UTC), {})
        n += 1
    since_2025 = _stay("emergency_shelter", times_homeless="four_plus", months_homeless="12")
    hud_person(cast, n, dt.datetime(2025, 6, 1, 10, tzinfo=UTC), since_2025)  # 13
    first_day = _stay("emergency_shelter", **COMPLETE)
    hud_person(cast, n + 1, dt.datetime(2016, 10, 1, 12, tzinfo=UTC), first_day)  # 14
    other = f.open_case(cast.other_agency_team, opened_at=dt.datetime(2026, 4, 3, 10, tzinfo=UTC))
    f.add_party(other, PartyRole.SURVIVOR, full_name="Elsewhere")
    episode = Episode.objects.create(case=other, number=1, opened_at=other.opened_at)
    HudAnswers(case=other, episode=episode, answers=hud.blank()).save()
    close(other, episode, dt.datetime(2026, 6, 3, 10, tzinfo=UTC))
    return cast.agency.pk


#: Every row as printed ("*" where hidden, the true value after it; "-" a column HUD greys out,
#: printed blank), then its share. The project's row, by hand:
#:
#: - records: 33 begun in 2026, the one of June 2025 and the one of 1 October 2016: 35 (the 40
#:   served less the five of September 2016, a cell never published);
#: - time in institution: the five from jail (Q15's institutional situations are ten: jail 5,
#:   hospital 1, psychiatric 4);
#: - time in housing: the five renters and the one never asked: 6;
#: - the day: the five from the street, the one from hospital, the one of June 2025: 7;
#: - the times: the two from a safe haven and the two from family: 4, from 1 to 4, so hidden;
#:   tied to the records through the 31 others, a cell never published, so nothing else hides;
#: - the months: the five from the street and the two from family: 7;
#: - unable to calculate: 5 + 2 + 5 + 1 + 5 + 2 + 1 + 1 = 22 of 35, 62.86%.
#:
#: The other rows are no one (0 of 0 is printed 0.00%, as Q6's rates of no one); the total is
#: the project's row, the same cells.
EXPECTED = [
    ("ES-EE, ES-NbN, SH, Street Outreach", "0 - - 0 0 0", "0.00%"),
    ("TH", "0 0 0 0 0 0", "0.00%"),
    ("PH (all)", "35 5 6 7 *4 7", "62.86%"),
    ("CE", "0 0 0 0 0 0", "0.00%"),
    ("SSO, Day Shelter, HP", "0 0 0 0 0 0", "0.00%"),
    ("Total", "35 - - - - -", "62.86%"),
]


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_q6d(population):
    report = reports.release("hud", population, YEAR)
    sections = {s.code: s for s in report.sections}
    q6d = sections["Q6d"]
    assert (q6d.title, q6d.corner, q6d.columns) == (
        "Q6d: Data Quality: Chronic Homelessness",
        "Entering into project type",
        [
            "Count of total records",
            "Missing time in institution (3.917.2)",
            "Missing time in housing (3.917.2)",
            "Approximate date this episode started (3.917.3) DK/PNTA/missing",
            "Number of times (3.917.4) DK/PNTA/missing",
            "Number of months (3.917.5) DK/PNTA/missing",
            "% of records unable to calculate",
        ],
    )
    shown = _printed(report)
    shares = [cells[-1].text for _label, cells in report.table(q6d)]
    assert [
        (label, counts, share) for (label, counts), share in zip(shown["Q6d"], shares, strict=True)
    ] == EXPECTED
    # Every row has HUD's seven columns, the greyed ones blank, as the CSV prints them.
    table = report.table(q6d)
    assert {len(cells) for _label, cells in table} == {7}
    assert [c.text for c in table[0][1][1:3]] == ["", ""]
    assert [c.text for c in table[-1][1][1:6]] == [""] * 5
    assert_csv_prints(report, shown)
    # In HUD's order of its tables: after Q6c, before Q6e.
    codes = [s.code for s in report.sections]
    assert codes.index("Q6c") + 1 == codes.index("Q6d") == codes.index("Q6e") - 1
    keys, values, sums = report.grid.keys, report.grid.values, report.grid.sums
    # The people served are 40; the five of September 2016 are the rest of them.
    assert values[keys["served"]] == 40
    records, before = keys["q6d:records"], keys["q6d:records:rest"]
    assert (keys["served"], (records, before)) in sums
    assert before in report.unpublished and values[before] == 5
    # Each count is tied to the records through the rest of them, never published; the time in
    # institution to Q15's institutional situations too.
    for column in (*reports.HUD_CHRONIC_DQ_MISSING, "unable"):
        cell, rest = keys[f"q6d:{column}"], keys[f"q6d:{column}:rest"]
        assert (records, (cell, rest)) in sums, column
        assert rest in report.unpublished, column
        assert values[cell] + values[rest] == 35
    institutional = keys["q15:institutional"]
    assert values[institutional] == 10
    assert (institutional, (keys["q6d:institution"], keys["q6d:institution:q15"])) in sums
    # The share is of the people unable to calculate (a count no column prints), of the records.
    project_row, total_row = q6d.rows[2], q6d.rows[-1]
    assert project_row.part == total_row.part == keys["q6d:unable"]
    assert project_row.of == total_row.of == records
    assert values[keys["q6d:unable"]] == 22
    assert keys["q6d:unable"] not in report.hidden
    # One agency's records: not added up in a coalition's roll-up, nor drawn.
    assert q6d.own


@time_machine.travel(TODAY, tick=False)
def test_a_hidden_count_of_records_hides_every_share(cast):
    """Three people: every count is from 1 to 4, and so is every share's count of records."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    HudProject.objects.create(agency_id=cast.agency.pk, project_type=HudProjectType.ES_NIGHTLY)
    for n, answers in enumerate(
        [
            _stay("emergency_shelter", **COMPLETE),
            _stay("emergency_shelter", times_homeless=DK),
            _stay("place_not_meant", **{**COMPLETE, "homeless_since": ""}),
        ]
    ):
        hud_person(cast, n, dt.datetime(2026, 4, 1 + n, 10, tzinfo=UTC), answers)
    report = reports.release("hud", cast.agency.pk, YEAR)
    q6d = {s.code: s for s in report.sections}["Q6d"]
    shown = dict(_printed(report)["Q6d"])
    # An emergency shelter: HUD's first row, the day, the times and the months asked of all.
    assert shown["ES-EE, ES-NbN, SH, Street Outreach"] == "*3 - - *2 *1 *1"
    assert shown["Total"] == "*3 - - - - -"
    shares = {label: cells[-1].text for label, cells in report.table(q6d)}
    assert shares["ES-EE, ES-NbN, SH, Street Outreach"] == shares["Total"] == "*"
    assert shares["TH"] == "0.00%"


@pytest.mark.parametrize(
    ("project_type", "row"),
    [
        (HudProjectType.ES_ENTRY_EXIT, "es"),
        (HudProjectType.ES_NIGHTLY, "es"),
        (HudProjectType.SAFE_HAVEN, "es"),
        (HudProjectType.OUTREACH, "es"),
        (HudProjectType.TRANSITIONAL, "th"),
        (HudProjectType.SUPPORTIVE, "ph"),
        (HudProjectType.HOUSING_ONLY, "ph"),
        (HudProjectType.HOUSING_WITH_SERVICES, "ph"),
        (HudProjectType.RAPID_REHOUSING, "ph"),
        (HudProjectType.COORDINATED_ENTRY, "ce"),
        (HudProjectType.SERVICES_ONLY, "sso"),
        (HudProjectType.DAY_SHELTER, "sso"),
        (HudProjectType.PREVENTION, "sso"),
        (HudProjectType.OTHER, None),
    ],
)
def test_each_project_type_is_counted_in_hud_row(project_type, row):
    assert reports.hud_chronic_dq_row(HudProject(project_type=project_type)) == row


def test_every_project_type_is_considered():
    listed = {t for _code, _label, types in reports.HUD_CHRONIC_DQ_ROWS for t in types}
    assert listed == set(HudProjectType) - {HudProjectType.OTHER}
    assert reports.hud_chronic_dq_row(None) is None
    assert [label for _c, label, _t in reports.HUD_CHRONIC_DQ_ROWS] == [
        "ES-EE, ES-NbN, SH, Street Outreach",
        "TH",
        "PH (all)",
        "CE",
        "SSO, Day Shelter, HP",
    ]


@time_machine.travel(TODAY, tick=False)
def test_a_project_hud_has_no_row_for_counts_no_one(cast):
    """An agency whose project is "Other" (or not described): every cell 0, and a note says
    why."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    HudProject.objects.create(agency_id=cast.agency.pk, project_type=HudProjectType.OTHER)
    for n in range(6):
        hud_person(cast, n, dt.datetime(2026, 4, 1 + n, 10, tzinfo=UTC), None)
    report = reports.release("hud", cast.agency.pk, YEAR)
    q6d = {s.code: s for s in report.sections}["Q6d"]
    assert report.grid.values[report.grid.keys["served"]] == 6
    texts = [[c.text for c in cells] for _label, cells in report.table(q6d)]
    assert texts[0] == ["0", "", "", "0", "0", "0", "0.00%"]
    assert texts[1:5] == [["0"] * 6 + ["0.00%"]] * 4
    assert texts[5] == ["0", "", "", "", "", "", "0.00%"]
    assert "no one" in q6d.note
    assert not [k for k in report.grid.keys if k.startswith("q6d:") and k != "q6d:none"]


def _missing(answers: dict[str, Any], *, everyone: bool = False) -> set[str]:
    return reports.hud_chronic_missing({**hud.blank(), **answers}, everyone=everyone)


@pytest.mark.parametrize("length", [DK, PNA, DNC, "castle"])
def test_a_length_of_stay_is_missing_when_not_known(length):
    assert _missing(_stay("jail", length)) == {"institution"}
    assert _missing(_stay("family_temporary", length)) == {"housing"}
    assert _missing(_stay("owned_no_subsidy", length)) == {"housing"}
    # Where they stayed is not known: "housing", as HUD counts an unknown situation.
    assert _missing(_stay(DK, length)) == {"housing"}
    # From a homeless situation the length is not needed; the rest is asked.
    assert _missing(_stay("emergency_shelter", length, **COMPLETE)) == set()


@pytest.mark.parametrize(
    ("answers", "asked"),
    [
        (_stay("emergency_shelter"), True),
        (_stay("place_not_meant", "year_or_more", "no"), True),
        (_stay("safe_haven"), True),
        (_stay("jail", "one_night", "yes"), True),
        (_stay("hospital", "month_to_90_days", "yes"), True),
        (_stay("hospital", "90_days_to_year", "yes"), False),
        (_stay("hospital", "month_to_90_days", "no"), False),
        (_stay("hospital", "month_to_90_days", DK), False),
        (_stay("family_temporary", "two_to_six_nights", "yes"), True),
        (_stay("family_temporary", "week_to_month", "yes"), False),
        (_stay("rental_no_subsidy", "one_night", "no"), False),
        (_stay(DNC, "one_night", "yes"), True),
    ],
)
def test_the_day_times_and_months_are_asked_of_those_hud_expects_answers_from(answers, asked):
    expected = {"date", "times", "months"} if asked else set()
    assert _missing(answers) == expected
    assert _missing({**answers, **COMPLETE}) == set()
    # In the first row (shelters, safe havens, street outreach) they are asked of everyone, and
    # no length of stay is counted.
    assert _missing(_stay("jail", DK), everyone=True) == {"date", "times", "months"}
    assert _missing({**answers, **COMPLETE}, everyone=True) == set()


@pytest.mark.parametrize(
    ("given", "missing"),
    [
        ({"homeless_since": ""}, {"date"}),
        ({"homeless_since": "not a day"}, {"date"}),
        ({"times_homeless": DK}, {"times"}),
        ({"times_homeless": PNA}, {"times"}),
        ({"times_homeless": DNC}, {"times"}),
        ({"months_homeless": DK}, {"months"}),
        ({"months_homeless": "13"}, {"months"}),
        ({"times_homeless": "one", "months_homeless": "1"}, set()),
    ],
)
def test_each_answer_is_missing_when_not_given(given, missing):
    assert _missing(_stay("emergency_shelter", **{**COMPLETE, **given})) == missing
