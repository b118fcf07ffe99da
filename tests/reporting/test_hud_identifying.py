"""HUD Q6a, the quality of the identifying answers caseflow keeps (race and ethnicity, gender),
against populations counted by hand.

Everyone is supported from 1 April 2026 and still supported, in the federal year 2026. The first
population, forty-nine survivors:

- twenty white women and six Black women (both answers known);
- seven women who declined the race question, five men never asked it (race alone unknown);
- six white people who declined the gender question (gender alone unknown);
- five who declined the race question and were never asked their gender (both unknown).

The second is the first with five white people never asked their gender, and two who declined
both questions (instead of the five).
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.lib.suppression import worked_out
from caseflow.partners.models import DECLINED
from caseflow.reporting import reports
from tests.reporting.hud_people import at, hud_person
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)


def people(
    both: int, gender_only: int, *, never_asked: int = 0, both_gender: str | None = None
) -> list[tuple[str | None, str | None]]:
    """(race, gender) of each survivor; ``None`` is a question never asked."""
    return (
        [("white", "woman")] * 20
        + [("black", "woman")] * 6
        + [(DECLINED, "woman")] * 7
        + [(None, "man")] * 5
        + [("white", DECLINED)] * gender_only
        + [("white", None)] * never_asked
        + [(DECLINED, both_gender)] * both
    )


def seed(cast, given: list[tuple[str | None, str | None]]) -> int:
    for n, (race, gender) in enumerate(given):
        # Everyone answered the age question, so the demographic answers exist for everyone.
        hud_person(cast, n, at("2026-04-01"), None, race=race, gender=gender, age="25_34")
    return cast.agency.pk


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_identifying_answers_quality(cast):
    report = reports.release("hud", seed(cast, people(both=5, gender_only=6)), YEAR)
    shown = _printed(report)
    # Race: 7 + 5 declined and 5 never asked; gender: 6 declined and 5 never asked. Everyone
    # with either unknown once: the 17 whose race is, and the 6 whose gender alone is. No count
    # from 1 to 4 anywhere: everything is printed.
    assert shown["Q6a"] == [
        ("Race and Ethnicity (3.04)", "12 5 - 17"),
        ("Gender (3.06)", "6 5 - 11"),
        ("Overall Score", "- - - 23"),
    ]
    q6a = next(s for s in report.sections if s.code == "Q6a")
    # Rates of the 49 served, in hundredths of a percent, halves up (17/49 = 34.693...).
    assert [[c.text for c in cells] for _l, cells in report.table(q6a)] == [
        ["12", "5", "", "17", "34.69%"],
        ["6", "5", "", "11", "22.45%"],
        ["", "", "", "23", "46.94%"],
    ]
    assert [c for c in report.csv_rows() if c and c[0] == "Overall Score"] == [
        ["Overall Score", "", "", "", "23", "46.94%"]
    ]
    assert_csv_prints(report, shown)
    # Its cells are Q12's and Q10a's: the same counts, never two of them.
    sections = {s.code: s for s in report.sections}
    q12 = {row.label: row.cells[0] for row in sections["Q12"].rows}
    q10a = {row.label: row.cells[0] for row in sections["Q10a"].rows}
    unknown = ("Client Doesn't Know/Prefers Not to Answer", "Data Not Collected")
    assert q6a.rows[0].cells[:2] == [q12[label] for label in unknown]
    assert q6a.rows[1].cells[:2] == [q10a[label] for label in unknown]
    # A quality of one agency's records: not added up in a coalition's roll-up.
    assert q6a.own
    assert not small_counts_told(report)


@time_machine.travel(TODAY, tick=False)
def test_a_few_with_both_unknown_are_not_told_by_the_overall_score(cast):
    # Two more declined both their race and their gender, and five white people were never
    # asked their gender: 51 served, every cell of both rows from 5 up, printed.
    given = people(both=2, gender_only=6, never_asked=5, both_gender=DECLINED)
    report = reports.release("hud", seed(cast, given), YEAR)
    grid = report.grid
    shown = _printed(report)
    assert shown["Q6a"][:2] == [
        ("Race and Ethnicity (3.04)", "9 5 - 14"),
        ("Gender (3.06)", "8 5 - 13"),
    ]
    # The score is 14 + the 11 whose gender alone is unknown: printed, it would tell those 11,
    # and so the 2 with both unknown (the gender's 13 less the 11). It hides, and nothing else
    # does: Q10a and Q12 print every cell.
    assert shown["Q6a"][2] == ("Overall Score", "- - - *25")
    overall, both = grid.keys["q6a:overall"], grid.keys["q6a:both"]
    assert grid.values[both] == 2
    assert both in worked_out(grid.values, grid.sums, report.hidden - {overall})
    assert not small_counts_told(report)
    assert "*" not in " ".join(count for code in ("Q10a", "Q12") for _l, count in shown[code])
    q6a = next(s for s in report.sections if s.code == "Q6a")
    assert [c.text for c in report.table(q6a)[2][1]] == ["", "", "", "*", "*"]
