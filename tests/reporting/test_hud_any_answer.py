"""HUD's tables of answers a person may give several of, against those who gave at least one.

Q17 counts the people with each source of income, Q20a with each non-cash benefit, Q21 with
each health insurance, Q13a1 (Q13b1, Q13c1) with each condition; one person may be in several
rows, so none of them has a total. Beside each, another table counts the people who have at
least one: Q18's with other income (only other, or earned and other), Q20b's "1 + Source(s)",
Q21's one source and more than one, Q13a2's (Q13b2's, Q13c2's) one condition, two and three or
more. So each row is some of those, and a reader who knows the rules subtracts: the rest, those
with another answer and not this one, is a count of people HUD never prints.

In the federal year 2026 (October 2025 to September 2026), 30 survivors supported since 1 June
2026 (stayers not yet due an annual assessment). 20 are aged 18 to 24 (HUD's youth, whom Q27g
and Q27h count again), at start:

- income: 10 with SSI, 3 with TANF, 7 with none;
- benefits: 10 with SNAP, 2 with WIC, 8 with none;
- insurance: 10 with Medicaid, 2 with private insurance, 8 with none;
- conditions: 12 with a mental health disorder, 3 with a chronic health condition, 5 with none.

Each time, those with any less the big row is a count from 1 to 4 (3, 2, 2, 3). The other 10
are aged 25 to 34, with SSI at start and nothing else: everyone's 20 with SSI and 23 with other
income tell the same 3 as the youth's 10 and 13, in other cells.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

import pytest
import time_machine

from caseflow.cases.models import IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.reporting import reports
from tests.reporting.hud_people import at, hud_person
from tests.reporting.test_report_cells import (
    _printed,
    assert_csv_prints,
    small_counts_told,
    told_in,
)

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)
N = 30
YOUTH = 20

#: The tables of answers a person may give several of, each row's cells by their key, and the
#: cells of the people with at least one in the same column, as HUD's rules define them.
COLUMNS = ("start", "annual", "exit")


def _any_answer() -> list[tuple[list[str], list[str]]]:
    """(each row's key, the keys of those with any) for every column of every such table."""
    found = []
    other_income = [c for c in reports.HUD_INCOME_SOURCES if c != "earned"]
    for column in COLUMNS:
        # Everyone's sources and kinds of income, the chronically homeless's, the youth's.
        found += [
            (
                [f"{sources}:{c}:{column}" for c in other_income],
                [f"{kinds}:{k}:{column}" for k in ("other", "both")],
            )
            for sources, kinds in (("q17", "q18"), ("q26g", "q26f"), ("q27g", "q27h"))
        ]
        found += [
            ([f"q20a:{c}:{column}" for c in reports.HUD_BENEFITS], [f"q20b:some:{column}"]),
            (
                [f"q21:{c}:{column}" for c in reports.HUD_INSURANCE],
                [f"q21:{k}:{column}" for k in ("one", "more")],
            ),
        ]
    for each, count in (("q13a1", "q13a2"), ("q13b1", "q13b2"), ("q13c1", "q13c2")):
        found.append(
            (
                [f"{each}:{c}:total" for c, _label in reports.HUD_CONDITIONS],
                [f"{count}:{n}" for n in ("1", "2", "3")],
            )
        )
    return found


def told_by_any_answer(report: reports.FunderReport) -> set[str]:
    """The small counts a reader works out who also knows that each row of Q17 (other than
    earned income), Q20a, Q21 and Q13a1/b1/c1 counts some of the people with at least one such
    answer in its column: each rest (those with another answer, not this one) is a count HUD
    never prints."""
    return _told(report, _any_answer())


#: Q26b's chronic homelessness needs a disabling condition, whose answer files everyone in
#: Q13a2: those who said they have none are not chronically homeless, and an answer not known
#: is not known in Q26b either. Q25a's chronically homeless veterans are chronically homeless.
DISABLING = [
    (["q13a2:none"], ["q26b:no"]),
    (["q13a2:dk"], ["q26b:dk"]),
    (["q13a2:dnc"], ["q26b:dnc"]),
    (["q25a:chronic_veteran"], ["q26b:yes"]),
    # Q19b files the leavers by the same answer.
    (["q19b:total:with"], ["q13a2:1", "q13a2:2", "q13a2:3", "q13a2:unknown"]),
    (["q19b:total:without"], ["q13a2:none"]),
    (["q19b:total:unknown"], ["q13a2:dk", "q13a2:dnc"]),
]


def told_by_disabling(report: reports.FunderReport) -> set[str]:
    """The small counts a reader works out who also knows the rules of :data:`DISABLING`."""
    return _told(report, DISABLING)


def _told(report: reports.FunderReport, relations: list[tuple[list[str], list[str]]]) -> set[str]:
    """The small counts a reader works out who knows that each of a relation's rows counts
    some of the people its wholes count (cells that count no one twice): the rest of each is
    a count HUD never prints. Worked out here afresh, in a grid of its own beside the
    report's, and named for a failure."""
    grid = report.grid
    values, sums, keys = list(grid.values), list(grid.sums), grid.keys
    unknown = set(report.hidden)
    names = {cell: key for key, cell in keys.items()}

    def new(name: str, value: int) -> int:
        values.append(value)
        names[len(values) - 1] = name
        unknown.add(len(values) - 1)
        return len(values) - 1

    for rows, wholes in relations:
        having = [keys[w] for w in wholes]
        anyone = new(f"any of {' '.join(wholes)}", sum(values[c] for c in having))
        sums.append((anyone, tuple(having)))
        for row in rows:
            if row not in keys:  # Q19b's column of the unknown, when no one is in it
                continue
            part = keys[row]
            rest = new(f"{row}, not it", values[anyone] - values[part])
            assert values[rest] >= 0, (row, wholes)
            sums.append((anyone, (part, rest)))
    found = told_in(report, values, sums, unknown)
    return {names[c] for c in found if 0 < abs(values[c]) < report.threshold}


def _counted(report: reports.FunderReport, keys: Iterable[str]) -> dict[str, int]:
    """The values of ``keys``' cells in ``report``, printed or not."""
    return {key: report.grid.values[report.grid.keys[key]] for key in keys}


def _one_hides(report: reports.FunderReport, *keys: str) -> bool:
    """Whether at least one of ``keys``' cells is hidden."""
    return any(report.shown(report.grid.keys[key]).value is None for key in keys)


def _assert_nothing_small_told(
    report: reports.FunderReport, reader: Callable[[reports.FunderReport], set[str]]
) -> None:
    """Neither ``reader`` nor one who knows only the report's own sums works out a small
    count, and the CSV prints what the preview shows."""
    assert reader(report) == set()
    assert not small_counts_told(report)
    assert_csv_prints(report, _printed(report))


@pytest.fixture(autouse=True)
def on_the_tests_day():
    """Every fixture is set up on the tests' day too, whatever the suite's clock."""
    with time_machine.travel(TODAY, tick=False):
        yield


def _some(n: int, *groups: tuple[int, str]) -> str | None:
    """Person ``n``'s one answer: the first ``groups`` (how many, which) hold those before her."""
    for upto, answer in groups:
        if n < upto:
            return answer
    return None


@pytest.fixture
def population(cast) -> int:
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    for n in range(N):
        youth = n < YOUTH
        source = _some(n, (10, "ssi"), (13, "tanf")) if youth else "ssi"
        benefit = _some(n, (10, "snap"), (12, "wic")) if youth else None
        insurance = _some(n, (10, "medicaid"), (12, "private")) if youth else None
        condition = _some(n, (12, "mental_health"), (15, "chronic_health")) if youth else None
        answers: dict[str, Any] = {
            "income_any": "yes" if source else "no",
            "income_sources": [source] if source else [],
            "income_amount": "600.00" if source else "",
            "benefits_any": "yes" if benefit else "no",
            "benefits_sources": [benefit] if benefit else [],
            "insurance_any": "yes" if insurance else "no",
            "insurance_sources": [insurance] if insurance else [],
            "conditions_any": "yes" if condition else "no",
            "conditions": [condition] if condition else [],
        }
        hud_person(cast, n, at("2026-06-01"), answers, age="18_24" if youth else "25_34")
    return cast.agency.pk


def test_no_one_with_another_answer_is_told_by_subtracting_a_row_from_those_with_any(
    population,
):
    report = reports.release("hud", population, YEAR)
    keys, values = report.grid.keys, report.grid.values
    counted = _counted(
        report,
        (
            "q17:ssi:start",
            "q18:other:start",
            "q20a:snap:start",
            "q20b:some:start",
            "q21:medicaid:start",
            "q21:one:start",
            "q13a1:mental_health:total",
            "q13a2:1",
        ),
    )
    # The youth's (Q27g's, Q27h's).
    assert values[keys["q27g:ssi:start"]] == 10
    assert values[keys["q27h:other:start"]] == 13
    assert counted == {
        "q17:ssi:start": 20,
        "q18:other:start": 23,
        "q20a:snap:start": 10,
        "q20b:some:start": 12,
        "q21:medicaid:start": 10,
        "q21:one:start": 12,
        "q13a1:mental_health:total": 12,
        "q13a2:1": 15,
    }
    # Printed side by side, each pair would tell its small rest (3, 2, 2, 3): in each, one of
    # the two hides, with what would give it away.
    for row, anyone in (
        ("q17:ssi:start", ["q18:other:start", "q18:both:start"]),
        ("q27g:ssi:start", ["q27h:other:start", "q27h:both:start"]),
        ("q20a:snap:start", ["q20b:some:start"]),
        ("q21:medicaid:start", ["q21:one:start", "q21:more:start"]),
        ("q13a1:mental_health:total", ["q13a2:1", "q13a2:2", "q13a2:3"]),
    ):
        assert _one_hides(report, row, *anyone), row
    # The rows themselves: each is some of those with any, the rest a count never published.
    for column in COLUMNS:
        whole = keys[f"q20b:some:{column}"]
        for code in reports.HUD_BENEFITS:
            part, rest = keys[f"q20a:{code}:{column}"], keys[f"q20a:{code}:{column}:not_it"]
            assert (whole, (part, rest)) in report.grid.sums
            assert rest in report.unpublished
    _assert_nothing_small_told(report, told_by_any_answer)


#: Chronically homeless: a mental health disorder, in an emergency shelter since 1 January 2025.
CHRONIC = {
    "conditions_any": "yes",
    "conditions": ["mental_health"],
    "prior_living": "emergency_shelter",
    "homeless_since": "2025-01-01",
}
#: Housed for a year or more before: not chronically homeless, whatever the condition.
HOUSED = {"prior_living": "rental_no_subsidy", "prior_length": "year_or_more"}


@pytest.fixture
def disabled(cast) -> int:
    """20 survivors supported since 1 June 2026: 10 who said they have no disabling condition,
    4 with one who were housed before (not chronically homeless: 14 in Q26b's "No", 4 of them
    with a disabling condition), 6 chronically homeless, 5 of them veterans (1 not)."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    people: list[dict[str, Any]] = [
        *[{**HOUSED, "conditions_any": "no", "veteran": "no"}] * 10,
        *[{**HOUSED, "conditions_any": "yes", "conditions": ["chronic_health"], "veteran": "no"}]
        * 4,
        *[{**CHRONIC, "veteran": "yes"}] * 5,
        {**CHRONIC, "veteran": "no"},
    ]
    for n, answers in enumerate(people):
        hud_person(cast, n, at("2026-06-01"), answers)
    return cast.agency.pk


def test_no_one_with_a_disabling_condition_or_not_a_veteran_is_told_by_chronic_homelessness(
    disabled,
):
    report = reports.release("hud", disabled, YEAR)
    keys = ("q13a2:none", "q26b:no", "q26b:yes", "q25a:chronic_veteran", "q25a:no")
    assert _counted(report, keys) == {
        "q13a2:none": 10,
        "q26b:no": 14,
        "q26b:yes": 6,
        "q25a:chronic_veteran": 5,
        "q25a:no": 15,
    }
    # Printed side by side, each pair would tell its small rest: the 4 with a disabling
    # condition not chronically homeless, the 1 chronically homeless who is not a veteran.
    for part, whole in (("q13a2:none", "q26b:no"), ("q25a:chronic_veteran", "q26b:yes")):
        assert _one_hides(report, part, whole), part
    _assert_nothing_small_told(report, told_by_disabling)


def test_no_stayer_without_a_disabling_condition_is_told_by_the_leavers_without_one(cast):
    """20 survivors supported since 1 June 2026, none chronically homeless: 10 who said they
    have no disabling condition, 8 of whom left on 1 August with no income (Q19b's 8 without
    one), and 10 with a mental health disorder, housed before, who stay. Q13a2's 10 with no
    condition less Q19b's 8 would tell the 2 who stay."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    for n in range(20):
        if n < 10:
            answers = {**HOUSED, "conditions_any": "no", "exit_income_any": "no"}
        else:
            answers = {**HOUSED, "conditions_any": "yes", "conditions": ["mental_health"]}
        closed = at("2026-08-01") if n < 8 else None
        hud_person(cast, n, at("2026-06-01"), answers, closed=closed)
    report = reports.release("hud", cast.agency.pk, YEAR)
    keys = ("q19b:total:without", "q13a2:none", "q26b:no")
    assert _counted(report, keys) == {"q19b:total:without": 8, "q13a2:none": 10, "q26b:no": 20}
    assert _one_hides(report, "q19b:total:without", "q13a2:none")
    _assert_nothing_small_told(report, told_by_disabling)
