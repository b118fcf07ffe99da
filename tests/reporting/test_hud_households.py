"""Q8a and Q8b, the households served and those there on the last Wednesday of January, April,
July and October, by household type, against a population counted by hand.

Twenty-five survivors of one agency that asks HUD's questions (an emergency shelter), in the
federal year 2026 (1 October 2025 to 30 September 2026), whose last Wednesdays are 29 October
2025, 28 January, 29 April and 29 July 2026. Each heads her own household, of the type recorded
at entry:

- nine with adults and children, supported from 6 October 2025 and still supported;
- six adults without children, from 28 January (the day itself: there that day) to 29 July
  (gone that day: not there);
- two children on their own, from 1 April, still supported;
- one who did not know, from 6 October 2025 to 10 February;
- five more adults without children, from 6 October to 30 November 2025;
- one never asked, and one with no HUD answers at all, both from 5 May, still supported.

Around them, people who must not count: a survivor whose support ended before the year and
another agency's survivor.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.cases.models import IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud
from caseflow.reporting import reports
from tests import factories as f
from tests.reporting.hud_people import at, close, hud_person, rapid_rehousing
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

UTC = dt.UTC
YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)


#: (how many, household type, supported from, to or None).
PEOPLE: list[tuple[int, str | None, str, str | None]] = [
    (9, "children_and_adults", "2025-10-06", None),
    (6, "without_children", "2026-01-28", "2026-07-29"),
    (2, "only_children", "2026-04-01", None),
    (1, hud.DONT_KNOW, "2025-10-06", "2026-02-10"),
    (5, "without_children", "2025-10-06", "2025-11-30"),
    (1, hud.NOT_COLLECTED, "2026-05-05", None),
    (1, None, "2026-05-05", None),  # no HUD answers at all
]


@pytest.fixture
def population(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    n = 0
    for count, household, began, ended in PEOPLE:
        for _one in range(count):
            answers = None if household is None else {"household_type": household}
            hud_person(cast, n, at(began), answers, closed=at(ended) if ended else None)
            n += 1
    # Gone before the year began, and another agency's: in no count.
    hud_person(
        cast,
        n,
        at("2025-05-01"),
        {"household_type": "without_children"},
        closed=at("2025-09-01"),
    )
    other = f.open_case(cast.other_agency_team, opened_at=at("2025-10-06"))
    f.add_party(other, "survivor", full_name="Elsewhere")
    return cast.agency.pk


#: Every cell as printed (Total, Without Children, With Children and Adults, With Only
#: Children, Unknown Household Type), "*" before a hidden one. Why each is hidden:
#:
#: - a count from 1 to 4 always is: the 2 children on their own and the 3 of an unknown type
#:   (the one who did not know, the one never asked, the one with no answers), and on each
#:   day those of them there;
#: - in a row with one small count, the smallest count beside it (the adults without
#:   children), so that the small one cannot be taken from the row's total; July's two small
#:   counts keep each other hidden;
#: - April's 17 lies inside the 19 served in the third quarter (April to June), published with
#:   the quarter: the 2 between them (the two who came in May) must not be told, so it hides.
#:   Hidden, it keeps April's 2 children hidden too: the 6 beside them, chosen before it was,
#:   keeps nothing hidden then, and is shown.
#:
#: Each of Q8b's counts lies inside Q8a's of its column: the rest (served in the year, not
#: there that day) is a count never published, which no small count can be worked out from
#: here (the children's and the unknown type's rests are their hidden counts less a 0 or a
#: hidden count).
EXPECTED = {
    "Q8a": [
        ("Total Households", "25 11 9 *2 *3"),
        # No HUD project described (not permanent supportive housing or rapid re-housing).
        ("For PSH & RRH - the total households served who moved into housing", "0 0 0 0 0"),
    ],
    "Q8b": [
        ("January", "16 *6 9 0 *1"),
        ("April", "*17 6 9 *2 0"),
        ("July", "13 0 9 *2 *2"),
        ("October", "15 *5 9 0 *1"),
    ],
}


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_households(population):
    report = reports.release("hud", population, YEAR)
    sections = {s.code: s for s in report.sections}
    columns = [
        "Total",
        "Without Children",
        "With Children and Adults",
        "With Only Children",
        "Unknown Household Type",
    ]
    assert (sections["Q8a"].title, sections["Q8a"].columns) == (
        "Q8a: Number of Households Served",
        columns,
    )
    assert (sections["Q8b"].title, sections["Q8b"].columns) == (
        "Q8b: Point-in-Time Count of Households on the Last Wednesday",
        columns,
    )
    shown = _printed(report)
    assert {code: shown[code] for code in EXPECTED} == EXPECTED
    assert_csv_prints(report, shown)
    # In HUD's order: after the data quality questions, before the genders.
    codes = [s.code for s in report.sections]
    assert codes.index("Q6f") + 1 == codes.index("Q8a") == codes.index("Q8b") - 1
    assert codes.index("Q8b") + 1 == codes.index("Q10a")
    # Q8a's total is the people served (Q5a's cell), and its types add up to it.
    keys, values = report.grid.keys, report.grid.values
    total = keys["served"]
    assert sections["Q8a"].rows[0].cells[0] == total
    types = sections["Q8a"].rows[0].cells[1:]
    assert (total, tuple(types)) in report.grid.sums
    # Each of Q8b's counts lies inside Q8a's of its column, through a count never published.
    assert len(sections["Q8b"].rows) == 4
    for row in sections["Q8b"].rows:
        for inner, outer in zip(row.cells, [total, *types], strict=True):
            rest = next(
                members[1]
                for whole, members in report.grid.sums
                if whole == outer and members[0] == inner and len(members) == 2
            )
            assert rest in report.unpublished
            assert values[rest] == values[outer] - values[inner]
    # No small count, published or not, can be worked out from what the year publishes.
    assert not small_counts_told(report)


#: Q22d's cells as printed (Total, then Q8a's four types). The days of participation: the nine
#: with adults and children 360 (stayers, to 1 October 2026), the six without children who
#: left on 29 July 182, the two children 183, the one who did not know 127, the five who left
#: on 30 November 55, the two from 5 May 149. Why the hidden ones hide:
#:
#: - the 2 children on their own and the 3 of an unknown type are counts from 1 to 4, and so
#:   is Q22a1's 91 to 180 days (3, the same cell as this table's);
#: - 181 to 365 days, 17 less the 6 and the 9 beside them would give the children's 2 away:
#:   the 6 without children hides (a zero is never a complement: a reader knows a hidden
#:   count is never below 0, so a hidden 0 keeps a count hidden on one side only);
#: - without children, 11 less the 5 of 31 to 60 days would give the 6 away: the 5 hides;
#:   it is also Q22a1's 5, hidden there already with its leavers and stayers (Q22a1's 91 to
#:   180 days would follow from it), and this table's 5 of that row with it.
Q22D = [
    *((label, "0 0 0 0 0") for _code, label, _most in reports.HUD_FIRST_MONTH),
    ("31 to 60 days", "*5 *5 0 0 0"),
    ("61 to 90 days", "0 0 0 0 0"),
    ("91 to 180 days", "*3 0 0 0 *3"),
    ("181 to 365 days", "17 *6 9 *2 0"),
    *((label, "0 0 0 0 0") for _code, label, _most in reports.HUD_LENGTHS[5:]),
    ("Total", "25 11 9 *2 *3"),
]


@time_machine.travel(TODAY, tick=False)
def test_the_length_of_participation_by_household_type(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert shown["Q22d"] == Q22D
    assert_csv_prints(report, shown)
    sections = {s.code: s for s in report.sections}
    q22d, q22a1 = sections["Q22d"], sections["Q22a1"]
    assert q22d.title == "Q22d: Length of Participation by Household Type"
    assert q22d.columns == ["Total", *(label for _code, label in reports.HUD_HOUSEHOLDS)]
    codes = list(sections)
    assert codes.index("Q22b") + 1 == codes.index("Q22d") == codes.index("Q22e") - 1
    # Its total row is Q8a's, and each band's total Q22a1's (the same cells), but the first:
    # Q22a1's "30 days or less" is this table's first four rows together.
    assert q22d.rows[-1].cells == sections["Q8a"].rows[0].cells
    assert [row.cells[0] for row in q22d.rows[4:-1]] == [row.cells[0] for row in q22a1.rows[1:-1]]
    keys = report.grid.keys
    # The first four are Q22a2's (the ESG CAPER's bands), adding up to Q22a1's first.
    first = tuple(keys[f"q22:{code}:*"] for code, _label, _most in reports.HUD_FIRST_MONTH)
    assert [row.cells[0] for row in q22d.rows[:4]] == [
        row.cells[0] for row in sections["Q22a2"].rows[:4]
    ]
    assert (keys["q22:30:*"], first) in report.grid.sums
    # Each column adds up to Q8a's.
    types = sections["Q8a"].rows[0].cells[1:]
    assert len(types) == len(reports.HUD_HOUSEHOLDS)
    for j, outer in enumerate(types):
        column = tuple(row.cells[1 + j] for row in q22d.rows[:-1])
        assert (outer, column) in report.grid.sums
    assert not small_counts_told(report)


def test_the_last_wednesdays_of_a_period():
    assert [reports.hud_pit_day(YEAR, month) for month, _l in reports.HUD_PIT_MONTHS] == [
        dt.date(2026, 1, 28),
        dt.date(2026, 4, 29),
        dt.date(2026, 7, 29),
        dt.date(2025, 10, 29),
    ]
    quarter = reports.Period(dt.date(2026, 1, 1), dt.date(2026, 3, 31), "Q2")
    assert [reports.hud_pit_day(quarter, month) for month, _l in reports.HUD_PIT_MONTHS] == [
        dt.date(2026, 1, 28),
        None,
        None,
        None,
    ]
    # A period that holds a month twice counts its latest last Wednesday.
    two_years = reports.Period(dt.date(2024, 10, 1), dt.date(2026, 9, 30), "two years")
    assert reports.hud_pit_day(two_years, 1) == dt.date(2026, 1, 28)
    # A month whose last day is a Wednesday: that day.
    assert reports.hud_pit_day(
        reports.Period(dt.date(2025, 1, 1), dt.date(2025, 12, 31), "2025"), 4
    ) == (dt.date(2025, 4, 30))


def test_every_household_type_answer_has_its_column():
    assert [reports.hud_household_type(code) for code, _l in hud.HOUSEHOLD_TYPES] == [
        code for code, _l in reports.HUD_HOUSEHOLDS[:-1]
    ]
    for answer in (hud.DONT_KNOW, hud.PREFERS_NOT, hud.NOT_COLLECTED, "a code since retired"):
        assert reports.hud_household_type(answer) == "unknown"


@time_machine.travel(TODAY, tick=False)
def test_a_permanent_housing_project_counts_a_household_there_once_it_has_moved_in(cast):
    """Rapid re-housing: on the last Wednesday of April (29 April 2026), of six households
    supported since January, those who moved in by that day are there (on the day itself
    too); those who moved in later, or have not, are not."""
    rapid_rehousing(cast)
    moves = ["2026-03-02", "2026-04-29", "2026-04-29", "2026-03-15", "2026-05-20", ""]
    for n, moved in enumerate(moves):
        answers = {"household_type": "children_and_adults", "move_in_on": moved}
        hud_person(cast, n, at("2026-01-05"), answers)
    report = reports.release("hud", cast.agency.pk, YEAR)
    values, keys = report.grid.values, report.grid.keys
    assert values[keys["q8b:4"]] == values[keys["q8b:4:children_and_adults"]] == 4
    # January: no one had moved in; July: all but the one who has not.
    assert values[keys["q8b:1"]] == 0
    assert values[keys["q8b:7"]] == 5
    # Q8a's second row: the households that had moved in by the year's end, inside the first.
    assert values[keys["q8a:moved"]] == values[keys["q8a:moved:children_and_adults"]] == 5
    moved = [s for s in report.sections if s.code == "Q8a"][0].rows[1]
    assert moved.label == "For PSH & RRH - the total households served who moved into housing"
    assert [values[c] for c in moved.cells] == [5, 0, 5, 0, 0]


@time_machine.travel(TODAY, tick=False)
def test_a_closed_case_is_there_until_the_day_it_closed(cast):
    """HUD's rule: there when the project start is on or before the day and the exit after
    it."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    case, episode = hud_person(cast, 0, at("2026-04-29"), {"household_type": "without_children"})
    close(case, episode, at("2026-07-30"))
    hud_person(cast, 1, at("2026-04-30"), {"household_type": "without_children"})
    report = reports.release("hud", cast.agency.pk, YEAR)
    values, keys = report.grid.values, report.grid.keys
    assert values[keys["q8b:4:without_children"]] == 1  # began that day; the other the next
    assert values[keys["q8b:7:without_children"]] == 2  # closed the day after July's
