"""Q19b, the leavers' disabling condition by their sources of income at exit, against a population
counted by hand.

Twenty-four leavers of one agency that asks HUD's questions, supported from April 2026 and gone
in June (the federal year 2026), by their disabling condition (3.08, asked at entry) and their
income at exit:

- eight with a disabling condition and earned income, two of them child support too;
- five without one and with earned income, one of them child support too;
- one whose disabling condition she did not know, with earned income;
- five with a disabling condition and Social Security Disability Insurance (SSDI);
- three with no income: two without a disabling condition, one whose was never collected;
- one with a disabling condition whose income at exit she did not know;
- one without a disabling condition who said she had income but named no source.

Around them, answers that must not count: six stayers with SSI at exit (answers at exit of
people still supported), and another agency's leaver with SSI.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest
import time_machine

from caseflow.cases.models import Episode, IntakeField, PartyRole
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud
from caseflow.partners.models import HudAnswers
from caseflow.reporting import reports
from tests import factories as f
from tests.reporting.hud_people import close, hud_person
from tests.reporting.test_report_cells import _printed, assert_csv_prints

pytestmark = pytest.mark.django_db

UTC = dt.UTC
YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
DK, PNA, DNC = hud.DONT_KNOW, hud.PREFERS_NOT, hud.NOT_COLLECTED


def _leaver(condition: str, income: str, sources: list[str]) -> dict[str, Any]:
    return {
        "conditions_any": condition,
        "exit_income_any": income,
        "exit_income_sources": sources,
    }


#: The leavers' answers (entry's disabling condition, income at exit), one per leaver.
LEAVERS: list[dict[str, Any]] = [
    *[_leaver("yes", "yes", ["earned", "child_support"])] * 2,
    *[_leaver("yes", "yes", ["earned"])] * 6,
    _leaver("no", "yes", ["earned", "child_support"]),
    *[_leaver("no", "yes", ["earned"])] * 4,
    _leaver(DK, "yes", ["earned"]),
    *[_leaver("yes", "yes", ["ssdi"])] * 5,
    *[_leaver("no", "no", [])] * 2,
    _leaver(DNC, "no", []),
    _leaver("yes", DK, []),
    _leaver("no", "yes", []),  # income said, no source named: in the total only
]
#: What the stayers and another agency's leaver answered: SSI, in no cell of Q19b.
UNCOUNTED = _leaver("yes", "yes", ["ssi"])
STAYERS = 6


@pytest.fixture
def population(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    for n, answers in enumerate(LEAVERS):
        opened = dt.datetime(2026, 4, 1 + n, 10, tzinfo=UTC)
        closed = dt.datetime(2026, 6, 1 + n, 10, tzinfo=UTC)
        hud_person(cast, n, opened, answers, closed=closed)
    for n in range(STAYERS):
        hud_person(cast, 100 + n, dt.datetime(2026, 4, 10 + n, 10, tzinfo=UTC), UNCOUNTED)
    other = f.open_case(cast.other_agency_team, opened_at=dt.datetime(2026, 4, 3, 10, tzinfo=UTC))
    f.add_party(other, PartyRole.SURVIVOR, full_name="Elsewhere")
    episode = Episode.objects.create(case=other, number=1, opened_at=other.opened_at)
    HudAnswers(case=other, episode=episode, answers={**hud.blank(), **UNCOUNTED}).save()
    close(other, episode, dt.datetime(2026, 6, 3, 10, tzinfo=UTC))
    return cast.agency.pk


#: Every row as printed: with a disabling condition, without, the total, and the share with one
#: ("*" where hidden, the true value after it; the share is text). Why each is hidden:
#:
#: - Earned Income: 8 with, 5 without and 1 not known make 14 (Q17's leavers with earned income,
#:   the same cell). The one not known is never published, but with the three others printed it
#:   would be 14 - 8 - 5: the smallest of them, the 5 without, hides; the share, 8 of 14, is
#:   printed, as both its counts are.
#: - Child Support: 2, 1 and 3, all from 1 to 4: hidden, and the share with them.
#: - SSDI: 5 and 0 of 5, all printed: 100%. The stayers' and the other agency's SSI count nowhere.
#: - No Sources: 0 with, 2 without, and 1 not known make 3 (Q18's leavers with no income, the
#:   same cell): the 2 and the 3 hide as small counts, and the share with the 3.
#: - Unduplicated Total Adults: 14 with, 8 without and 2 not known make the 24 leavers (Q5a's,
#:   the same cell): the 2 would be 24 - 14 - 8, so one of the two hides. The 8 without are some
#:   of Q13a2's 8 who said they have no disabling condition (the stayers all said yes), printed,
#:   so hiding the 8 would keep nothing: the 14 hides, some of Q13a2's 20 with a condition not
#:   named (the rest, the 6 stayers, never published). HUD leaves its share blank.
#: - Every other source: no one, 0 of 0, printed as 0% (as Q6's rates of no one).
EXPECTED: list[tuple[str, str, str]] = [
    ("Earned Income", "8 *5 14", "57.14%"),
    ("Unemployment Insurance", "0 0 0", "0.00%"),
    ("Supplemental Security Income (SSI)", "0 0 0", "0.00%"),
    ("Social Security Disability Insurance (SSDI)", "5 0 5", "100.00%"),
    ("VA Service - Connected Disability Compensation", "0 0 0", "0.00%"),
    ("VA Non-Service Connected Disability Pension", "0 0 0", "0.00%"),
    ("Private Disability Insurance", "0 0 0", "0.00%"),
    ("Worker's Compensation", "0 0 0", "0.00%"),
    ("Temporary Assistance for Needy Families (TANF)", "0 0 0", "0.00%"),
    ("General Assistance (GA)", "0 0 0", "0.00%"),
    ("Retirement Income from Social Security", "0 0 0", "0.00%"),
    ("Pension or retirement income from a former job", "0 0 0", "0.00%"),
    ("Child Support", "*2 *1 *3", "*"),
    ("Alimony and other spousal support", "0 0 0", "0.00%"),
    ("Other Source", "0 0 0", "0.00%"),
    ("No Sources", "0 *2 *3", "*"),
    ("Unduplicated Total Adults", "*14 8 24", ""),
]


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_q19b(population):
    report = reports.release("hud", population, YEAR)
    sections = {s.code: s for s in report.sections}
    q19b = sections["Q19b"]
    assert (q19b.title, q19b.columns) == (
        "Q19b: Disabling Conditions and Income for Adults at Exit",
        [
            "Adult with Disabling Condition",
            "Adult without Disabling Condition",
            "Total Adults",
            "% with Disabling Condition by Source",
        ],
    )
    shown = _printed(report)
    shares = [cells[-1].text for _label, cells in report.table(q19b)]
    assert [
        (label, counts, share) for (label, counts), share in zip(shown["Q19b"], shares, strict=True)
    ] == EXPECTED
    # Every row has its four columns, as the CSV prints it.
    assert {len(cells) for _label, cells in report.table(q19b)} == {4}
    assert_csv_prints(report, shown)
    # In HUD's order of its tables: after Q18, Q19a1 and Q19a2, before Q20a.
    codes = [s.code for s in report.sections]
    assert codes.index("Q18") + 3 == codes.index("Q19b") == codes.index("Q20a") - 1
    assert codes[codes.index("Q18") + 1 : codes.index("Q19b")] == ["Q19a1", "Q19a2"]
    # Each total is the cell another question prints, and the sum of the row's counts and the
    # people whose disabling condition is not known (a cell never published).
    keys, values = report.grid.keys, report.grid.values
    totals = [row.cells[2] for row in q19b.rows]
    assert totals == [
        *(keys[f"q17:{code}:exit"] for code in reports.HUD_INCOME_SOURCES),
        keys["q18:none:exit"],
        keys["q5a:leavers"],
    ]
    for (code, _label), row in zip(reports.HUD_DISABLING_ROWS, q19b.rows, strict=True):
        unknown = keys[f"q19b:{code}:unknown"]
        assert unknown in report.unpublished and unknown in report.hidden
        assert (row.cells[2], (*row.cells[:2], unknown)) in report.grid.sums
    not_known = [values[keys[f"q19b:{code}:unknown"]] for code, _l in reports.HUD_DISABLING_ROWS]
    assert Counter(not_known) == Counter({0: 14, 1: 2, 2: 1})
    # The share is of the row's count with a disabling condition, in its total.
    assert [row.of for row in q19b.rows] == [*totals[:-1], None]
    # One agency's shares: not added up in a coalition's roll-up, nor drawn.
    assert q19b.own


def test_every_source_caseflow_records_is_one_row():
    """Each income source an advocate may tick at exit is one of Q19b's rows, Q17's names, in
    the FY2024 APR's order; no income is "No Sources", and everyone is in the total."""
    rows = [code for code, _label in reports.HUD_DISABLING_ROWS]
    assert rows == [*(code for code, _l in hud.INCOME_SOURCES), "none", "total"]
    assert [label for _code, label in reports.HUD_DISABLING_ROWS] == [
        "Earned Income",
        "Unemployment Insurance",
        "Supplemental Security Income (SSI)",
        "Social Security Disability Insurance (SSDI)",
        "VA Service - Connected Disability Compensation",
        "VA Non-Service Connected Disability Pension",
        "Private Disability Insurance",
        "Worker's Compensation",
        "Temporary Assistance for Needy Families (TANF)",
        "General Assistance (GA)",
        "Retirement Income from Social Security",
        "Pension or retirement income from a former job",
        "Child Support",
        "Alimony and other spousal support",
        "Other Source",
        "No Sources",
        "Unduplicated Total Adults",
    ]
    for code, _label in hud.INCOME_SOURCES:
        answers = {"exit_income_any": "yes", "exit_income_sources": [code]}
        assert reports.hud_income_rows(answers, "exit_") == {code, "total"}
    answers = {"exit_income_any": "yes", "exit_income_sources": ["earned", "castle"]}
    assert reports.hud_income_rows(answers, "exit_") == {"earned", "total"}
    for answer, rows_of in (("no", {"none", "total"}), (DK, {"total"}), (DNC, {"total"})):
        answers = {"exit_income_any": answer, "exit_income_sources": []}
        assert reports.hud_income_rows(answers, "exit_") == rows_of
    assert reports.hud_income_rows({"exit_income_any": "yes"}, "exit_") == {"total"}


@pytest.mark.parametrize(
    ("answer", "column"),
    [("yes", "with"), ("no", "without"), (DK, "unknown"), (PNA, "unknown"), (DNC, "unknown")],
)
def test_the_disabling_condition_is_the_one_asked_at_entry(answer, column):
    # The answer at exit is not HUD's 3.08: it decides nothing here.
    other = "no" if answer == "yes" else "yes"
    assert reports.hud_disabling({"conditions_any": answer, "exit_conditions_any": other}) == (
        column
    )


def test_when_no_leavers_condition_is_unknown_the_columns_add_up_to_the_total():
    """With no leaver whose disabling condition is not known, a reader who sees the last row add
    up knows that no row has one: the two columns are then tied to the total on their own, with
    no unpublished cell for suppression to hide behind."""
    b = reports.Builder()
    for code in reports.HUD_INCOME_SOURCES:
        b.grid.cell(f"q17:{code}:exit", 3 if code == "earned" else 0)
    b.grid.cell("q18:none:exit", 1)
    b.grid.cell("q5a:leavers", 4)

    class Tally:
        disabling = Counter(
            {
                ("earned", "with"): 2,
                ("earned", "without"): 1,
                ("none", "with"): 1,
                ("total", "with"): 3,
                ("total", "without"): 1,
            }
        )

    reports._disabling_and_income(b, Tally())  # type: ignore[arg-type]
    keys = b.grid.keys
    assert not [k for k in keys if k.endswith(":unknown")]
    earned = (keys["q17:earned:exit"], (keys["q19b:earned:with"], keys["q19b:earned:without"]))
    assert earned in b.grid.sums
    report = b.finish("hud", "HUD", YEAR)
    # Every count is from 1 to 4, or a zero in a row of zeros: the 1 and the 0 of "No Sources"
    # and its total hide the same way as any small count.
    section = report.sections[-1]
    texts = {label: [c.text for c in cells] for label, cells in report.table(section)}
    assert texts["Earned Income"] == ["*", "*", "*", "*"]
    assert texts["Unemployment Insurance"] == ["0", "0", "0", "0.00%"]
    assert texts["No Sources"] == ["*", "0", "*", "*"]
    assert texts["Unduplicated Total Adults"] == ["*", "*", "*", ""]
