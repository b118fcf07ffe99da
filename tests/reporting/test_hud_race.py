"""Q22f and Q22g, the days to move in and the days from homelessness to housing by race and
ethnicity, against a population counted by hand.

Twenty-five survivors of a rapid re-housing project, in the federal year 2026 (October 2025 to
September 2026), each with one answer to the race question (Q12's groups) or none:

- White: seven moved in on 1 March 2026, 10 to 400 days after their support began (one of them
  left in June, after moving in); one left without moving in; one stayer has not moved in; one
  moved in on 1 January 2025, before the year (housed in Q22g, not one of the year's moves);
- Black: five moved in on 1 March 2026, 5 to 100 days after their support began; two left
  without moving in; one moved in on 15 October 2026, after the year (not yet, in the year);
- Hispanic/Latina/e/o: two moved in; Multiracial: one ("More than one") moved in, one
  ("Another") left without moving in; Asian: one left without moving in;
- no race recorded (never asked): one moved in; declined to answer: one left without moving in.

The day their homelessness began is known, ten days before support, for the white people who
moved in in the year, the first three black people who moved in, the two Hispanic people and
the multiracial person who moved in; and for the white person housed before the year (1 May
2024, 245 days before moving in).
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.partners.models import (
    HudProject,
    HudProjectType,
)
from caseflow.reporting import reports
from tests.reporting.hud_people import hud_person, rapid_rehousing
from tests.reporting.test_report_cells import _printed, assert_csv_prints

pytestmark = pytest.mark.django_db

UTC = dt.UTC
YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
MOVED = dt.date(2026, 3, 1)
LEFT = dt.date(2026, 7, 15)

#: (race answer or None for never asked, days from support to moving in on 1 March 2026 or
#: None for not moved in, left, the day homelessness began is known).
PEOPLE: list[tuple[str | None, int | None, bool, bool]] = [
    *(("white", days, n == 0, True) for n, days in enumerate([10, 20, 30, 40, 50, 60, 400])),
    ("white", None, True, False),
    ("white", None, False, False),
    *(("black", days, False, n < 3) for n, days in enumerate([5, 15, 25, 35, 100])),
    ("black", None, True, False),
    ("black", None, True, False),
    ("hispanic", 70, False, True),
    ("hispanic", 75, False, True),
    ("multiple", 90, False, True),
    ("other", None, True, False),
    ("asian", None, True, False),
    (None, 200, False, False),
    ("declined", None, True, False),
]


def _at(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(10), tzinfo=UTC)


def _person(cast, n: int, race: str | None, began: dt.date, answers: dict, closed=None) -> None:
    hud_person(cast, n, _at(began), answers, closed=_at(closed) if closed else None, race=race)


@pytest.fixture
def population(cast):
    rapid_rehousing(cast, coc_number="CA-600")
    for n, (race, days, left, known) in enumerate(PEOPLE):
        began = MOVED - dt.timedelta(days=days if days is not None else 60)
        answers = {}
        if days is not None:
            answers["move_in_on"] = MOVED.isoformat()
        if known:
            answers["homeless_since"] = (began - dt.timedelta(days=10)).isoformat()
        _person(cast, n, race, began, answers, closed=LEFT if left else None)
    n = len(PEOPLE)
    _person(
        cast,
        n,
        "white",
        dt.date(2024, 6, 1),
        {"move_in_on": "2025-01-01", "homeless_since": "2024-05-01"},
    )
    _person(cast, n + 1, "black", dt.date(2026, 2, 1), {"move_in_on": "2026-10-15"})
    return cast.agency.pk


RACES = [
    "American Indian, Alaska Native, or Indigenous",
    "Asian or Asian American",
    "Black, African American, or African",
    "Hispanic/Latina/e/o",
    "Middle Eastern or North African",
    "Native Hawaiian or Pacific Islander",
    "White",
    "Multiracial",
    "Unknown (Doesn't Know, Prefers not to Answer, Data not Collected)",
]
ROWS = [
    "Persons Moved into housing",
    "Persons who were exited without move-in",
    "Average time to Move-In",
    "Median time to Move-In",
]

#: Every cell, as printed ("*" where hidden, with its true value after it), in the columns
#: Total, then RACES. A count from 1 to 4 is always hidden, and so is every average and median
#: whose column's count of people who moved in (Q22f) or were housed (Q22g) is hidden or under
#: 5, whatever the figure's own size. This small year hides much of Q12 and Q5a already (its
#: quarters hold the same few people), and Q22c's 6 who left without moving in with them.
#: Q22c's 16 who moved in (Q22f's first total, the same cell) was chosen as a complement before
#: cells that keep the same counts hidden were, and is shown again, with everyone's average and
#: median; the white column, 7 people who moved in, shows its. The black 5 who moved in hide,
#: and their figures with them: printed beside the 16 and the 7, the 5 would leave 4 to the
#: row's three "*" (Hispanic 2, multiracial 1, unknown 1), each at least 1 (zeros are
#: printed), and with Q22g's and Q12's counts a reader would pin each down. The columns whose
#: figures hide then hold 9 people, so no published average is withheld for them (while they
#: held 4, the black average was).
EXPECTED = {
    # Moved in: white 10, 20, 30, 40, 50, 60 and 400 days (87 on average, 40 in the middle);
    # black 5, 15, 25, 35 and 100 (36 and 25); Hispanic 70 and 75; multiracial 90; no race
    # recorded 200; everyone 1,225 days in all, 77 on average, the middle two 40 and 50.
    "Q22f": [
        (ROWS[0], "16 0 0 *5 *2 0 0 7 *1 *1"),
        (ROWS[1], "*6 0 *1 *2 0 0 0 *1 *1 *1"),
        (ROWS[2], "77 *0 *0 *36 *73 *0 *0 87 *90 *200"),
        (ROWS[3], "45 *0 *0 *25 *73 *0 *0 40 *90 *200"),
    ],
    # Housed, from the day homelessness began: the seven white people who moved in, ten days
    # more than Q22f's, and the one housed before the year (245): 925 days, 116 on average, the
    # middle two 50 and 60; black 15, 25 and 35; Hispanic 80 and 85; multiracial 100. The
    # others: the white leaver and stayer who have not moved in; two black leavers, the two
    # black people whose day homelessness began is not known and the one who moved in after
    # the year; the Asian and the multiracial leavers; the person with no race recorded (day
    # not known) and the one who declined (left without moving in). Everyone housed (Q22e's
    # 14, 1,265 days: 90 on average, the middle two 50 and 60) shows with their figures; the
    # white 8 hide as a complement of the small counts of their row and column, and their
    # figures with them; so does the black 5 of the second row. No zero hides: a zero beside a
    # small count keeps nothing from being worked out.
    "Q22g": [
        (ROWS[0], "14 0 0 *3 *2 0 0 *8 *1 0"),
        (ROWS[1], "11 0 *1 *5 0 0 0 *2 *1 *2"),
        (ROWS[2], "90 *0 *0 *25 *83 *0 *0 *116 *100 *0"),
        (ROWS[3], "55 *0 *0 *25 *83 *0 *0 *55 *100 *0"),
    ],
}


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_days_to_housing_by_race_and_ethnicity(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert {code: shown[code] for code in EXPECTED} == EXPECTED
    sections = {s.code: s for s in report.sections}
    assert (sections["Q22f"].title, sections["Q22f"].columns) == (
        "Q22f: Length of Time between Project Start Date and Housing Move-in Date by Race and "
        "Ethnicity",
        ["Total", *RACES],
    )
    assert (sections["Q22g"].title, sections["Q22g"].columns) == (
        "Q22g: Length of Time Prior to Housing by Race and Ethnicity - based on 3.917 Date "
        "Homelessness Started",
        ["Total", *RACES],
    )
    # In the order of HUD's tables.
    codes = list(shown)
    assert codes.index("Q22c") < codes.index("Q22e") < codes.index("Q22f") < codes.index("Q22g")
    assert codes.index("Q22g") + 1 == codes.index("Q23c")
    assert_csv_prints(report, shown)
    # Q22f's total column is Q22c: the same cells, so suppression reads them as the same people.
    keys, values = report.grid.keys, report.grid.values
    q22c = dict(shown["Q22c"])
    total = [row.cells[0] for row in sections["Q22f"].rows]
    assert total[:3] == [keys["q22c:moved"], keys["q22c:left_without"], keys["q22c:average"]]
    assert [values[c] for c in total[:3]] == [
        int(q22c[label].lstrip("*"))
        for label in (
            "Total (persons moved into housing)",
            "Persons who were exited without move-in",
            "Average length of time to housing",
        )
    ]
    # Q22g's is Q22e's people housed, and the rest of the people served (Q22e's not yet moved
    # in and not collected).
    q22g = sections["Q22g"].rows
    assert q22g[0].cells[0] == keys["q22e:housed"]
    other = keys["q22g:other:total"]
    assert (keys["served"], (keys["q22e:housed"], other)) in report.grid.sums
    assert values[other] == values[keys["q22e:not_yet"]] + values[keys["q22e:dnc"]] == 11
    # Each row's race columns add up to its total.
    summed = [row for code in ("Q22f", "Q22g") for row in sections[code].rows[:2]]
    assert len(summed) == 4
    for row in summed:
        assert (row.cells[0], tuple(row.cells[1:])) in report.grid.sums
    # Each race column is tied to Q12's row: Q22g's people are everyone served, exactly; Q22f's
    # through the people of the row it does not count, never published (white: the stayer who
    # has not moved in and the one housed before the year; black: the one housed after it).
    q12 = {label: row.cells[0] for label, row in zip(RACES, sections["Q12"].rows, strict=False)}
    for column, label in (("white", "White"), ("black", RACES[2]), ("hispanic", RACES[3])):
        moved, other = keys[f"q22g:moved:{column}"], keys[f"q22g:other:{column}"]
        assert (q12[label], (moved, other)) in report.grid.sums
        rest = keys[f"q22f:rest:{column}"]
        assert rest in report.unpublished
        parts = (keys[f"q22f:moved:{column}"], keys[f"q22f:other:{column}"], rest)
        assert (q12[label], parts) in report.grid.sums
    assert [values[keys[f"q22f:rest:{c}"]] for c in ("white", "black", "hispanic")] == [2, 1, 0]
    # The unknown column is Q12's two rows of the unknown together (a cell never published).
    unknown = keys["hud:race_unknown"]
    assert values[unknown] == 2 and unknown in report.unpublished
    dk, dnc = (sections["Q12"].rows[i].cells[0] for i in (8, 9))
    assert (unknown, (dk, dnc)) in report.grid.sums
    # An average is days, not people: not drawn as a bar, nor added up in a roll-up.
    from caseflow.reporting import charts

    chart = charts.bar_chart(report, sections["Q22f"])
    assert chart is not None and [bar.label for bar in chart.bars] == [
        "Persons Moved int…",
        "Persons who were …",
    ]


@time_machine.travel(TODAY, tick=False)
def test_a_project_that_is_not_permanent_housing_has_q22g_but_no_q22f(population, cast):
    HudProject.objects.filter(agency_id=population).update(
        project_type=HudProjectType.TRANSITIONAL, rrh_subtype=""
    )
    report = reports.release("hud", population, YEAR)
    codes = [s.code for s in report.sections]
    assert "Q22f" not in codes and "Q22c" not in codes
    assert codes.index("Q22e") + 1 == codes.index("Q22g")
    # Housed on the day support began: the fourteen whose homelessness began before it (the
    # one housed before the year among them); the eleven others are not collected.
    keys, values = report.grid.keys, report.grid.values
    assert values[keys["q22e:housed"]] == 14
    assert values[keys["q22g:other:total"]] == values[keys["q22e:dnc"]] == 11
    HudProject.objects.filter(agency_id=population).update(
        project_type=HudProjectType.SERVICES_ONLY
    )
    codes = [s.code for s in reports.release("hud", population, YEAR).sections]
    assert "Q22g" not in codes and "Q22e" not in codes


def test_an_average_of_the_parts_is_withheld_when_the_hidden_parts_are_few():
    """The whole's average times its count, less the published parts' averages times theirs,
    is the hidden parts' days: while they hold 1 to 4 people, the published part of the fewest
    people has its average withheld too. Medians are not taken apart so."""
    grid = reports.Grid()
    whole, a, b, c = (grid.cell(k, v) for k, v in (("w", 15), ("a", 8), ("b", 5), ("c", 2)))
    grid.sum(whole, [a, b, c])
    figures = {k: grid.cell(f"average:{k}", 10 * n) for n, k in enumerate("wabc", 1)}
    median = grid.cell("median:b", 50)
    about = {figures["w"]: whole, figures["a"]: a, figures["b"]: b, figures["c"]: c}
    report = reports.FunderReport(
        "hud",
        "HUD",
        YEAR,
        [],
        grid,
        hidden={c},
        about={**about, median: b},
        shares=[(figures["w"], [figures["a"], figures["b"], figures["c"]])],
    )
    shown = {k: report.shown(cell).text for k, cell in figures.items()}
    assert shown == {"w": "10", "a": "20", "b": "*", "c": "*"}
    assert report.withheld() == {figures["b"]}
    assert report.shown(median).text == "50"
    # The small part hides nothing more when it is no one, or when the whole's average is hidden.
    grid.values[c], grid.values[whole] = 0, 13
    assert report.withheld() == set()
    grid.values[c], grid.values[whole] = 2, 15
    report.hidden = {c, whole}
    assert report.withheld() == set()
    assert report.shown(figures["a"]).text == "20"
