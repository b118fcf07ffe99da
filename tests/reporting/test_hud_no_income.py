"""HUD Q16's "No Income" and Q18's, against a population counted by hand.

Q16 files a person by her monthly income's amount, Q18 by the sources she named. Someone who
said she has no income is "No Income" in both; someone who said she has income, of $0 a month,
is "No Income" in Q16 only (Q18 files her by her sources). So Q18's "No Income" is some of
Q16's, and the rest, those who said they had income of $0, is a count of people HUD never
prints: a reader who knows the two rules subtracts one from the other.

In the federal year 2026 (October 2025 to September 2026), 20 leavers supported from 10 January
2026 to 1 August 2026: at start, 10 with no income, 3 who named earned income of $0 a month
(between jobs), 7 who earned $900; at exit, 12 with no income, 8 who earned $1,000.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.cases.models import IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.reporting import reports
from tests.reporting.hud_people import at, hud_person
from tests.reporting.test_hud_income_change import income
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def on_the_tests_day():
    """Every fixture is set up on the tests' day too, whatever the suite's clock."""
    with time_machine.travel(TODAY, tick=False):
        yield


@pytest.fixture
def population(cast) -> int:
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    starts = [("none",)] * 10 + [("earned", 0)] * 3 + [("earned", 900)] * 7
    exits = [("none",)] * 12 + [("earned", 1000)] * 8
    for n, (start, end) in enumerate(zip(starts, exits, strict=True)):
        answers = {**income("", *start), **income("exit_", *end)}
        hud_person(cast, n, at("2026-01-10"), answers, closed=at("2026-08-01"))
    return cast.agency.pk


def test_those_who_said_they_had_income_of_nothing_are_not_told_by_the_two_no_incomes(
    population,
):
    report = reports.release("hud", population, YEAR)
    keys, values = report.grid.keys, report.grid.values
    assert (values[keys["q16:none:start"]], values[keys["q18:none:start"]]) == (13, 10)
    assert (values[keys["q16:none:exit"]], values[keys["q18:none:exit"]]) == (12, 12)
    # A reader who knows the two rules subtracts each printed pair: the 3 who said they had
    # income of $0 at start must not be told. At exit the two are the same 12 people, printed.
    shown = _printed(report)
    # Q16's 13 print; Q18's 10 with no income hide, and with them the 10 who named only earned
    # income (the 7 and the 3 of $0) and its subtotal, which with the 20 would tell them.
    assert ("No Income", "13 0 12") in shown["Q16"]
    assert ("$501 - $1,000", "7 0 8") in shown["Q16"]
    assert ("Adults with No Income", "*10 0 12") in shown["Q18"]
    assert ("Adults with Only Earned Income (i.e., Employment Income)", "*10 0 8") in shown["Q18"]
    assert ("1 or more source of income", "*10 0 8") in shown["Q18"]
    assert report.shown(keys["q16:none:exit"]).text == "12"
    assert report.shown(keys["q18:none:exit"]).text == "12"
    # Q18's "No Income" is some of Q16's in each column, the rest a count never published.
    for column in ("start", "annual", "exit"):
        whole, part = keys[f"q16:none:{column}"], keys[f"q18:none:{column}"]
        assert (whole, (part, keys[f"q16:none:rest:{column}"])) in report.grid.sums
    assert_csv_prints(report, shown)
    assert not small_counts_told(report)
