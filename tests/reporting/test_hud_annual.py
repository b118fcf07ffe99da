"""The stayers' column of HUD's income, benefit and insurance questions: each stayer's annual
assessment chosen as HUD's reports choose it (within 30 days of the latest anniversary of the
start of support, a year or more of support), against a population seeded here.

In the federal year 2026 (October 2025 to September 2026), of one agency that asks HUD's
questions:

- six stayers began on 1 March 2025 and were assessed on 10 March 2026 (within the window of the
  anniversary): earned income of $1,200, SNAP, Medicaid, a mental health disorder;
- two began then and were assessed on 15 May 2026 only (outside it): without the assessment
  required (their physical disability then is their latest record of conditions);
- one began then, was assessed on 20 February 2026 (within it: no income, no benefits, no
  insurance), and again on 20 September 2026 as a new assessment (outside it): the earlier one
  counts;
- one began on 1 June 2024 and has no answers at all: without the assessment required;
- five began on 10 January 2026: not yet a year, not required;
- five leavers, who were assessed before they left (SSI): in no stayers' cell.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine

from caseflow.cases.models import Episode, EpisodeStatus, IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.lib.suppression import worked_out
from caseflow.partners import hud
from caseflow.partners.models import HudAnswers
from caseflow.reporting import reports
from tests.reporting.hud_people import hud_person

pytestmark = pytest.mark.django_db

UTC = dt.UTC
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
YEAR = reports.federal_year(2026)


def _at(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=10, tzinfo=UTC)


def _assessment(
    on: str, income: str, benefits: str, insurance: str, condition: str = ""
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "annual_conditions_any": "yes" if condition else "no",
        "annual_conditions": [condition] if condition else [],
        "annual_on": on,
        "annual_income_any": income,
        "annual_income_amount": "1200.00" if income == "yes" else "",
        "annual_income_sources": ["earned"] if income == "yes" else [],
        "annual_benefits_any": benefits,
        "annual_benefits_sources": ["snap"] if benefits == "yes" else [],
        "annual_insurance_any": insurance,
        "annual_insurance_sources": ["medicaid"] if insurance == "yes" else [],
    }
    return {**{e.name: hud.blank()[e.name] for e in hud.ANNUAL_ELEMENTS}, **out}


def _person(cast, n: int, began: str, answers: dict[str, Any] | None, left: str = "") -> None:
    hud_person(cast, n, _at(began), answers, closed=_at(left) if left else None)


@pytest.fixture
def population(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    assessed = _assessment("2026-03-10", "yes", "yes", "yes", "mental_health")
    for n in range(6):
        _person(cast, n, "2025-03-01", assessed)
    for n in range(6, 8):
        _person(cast, n, "2025-03-01", _assessment("2026-05-15", "yes", "yes", "yes", "physical"))
    earlier = _assessment("2026-02-20", "no", "no", "no")
    _person(
        cast,
        8,
        "2025-03-01",
        {**_assessment("2026-09-20", "yes", "yes", "yes"), hud.EARLIER: [earlier]},
    )
    _person(cast, 9, "2024-06-01", None)
    for n in range(10, 15):
        _person(cast, n, "2026-01-10", _assessment("2026-09-01", "yes", "yes", "yes"))
    left = {**_assessment("2026-01-05", "yes", "no", "no"), "annual_income_sources": ["ssi"]}
    for n in range(15, 20):
        _person(cast, n, "2025-01-01", left, left="2026-03-01")
    return cast.agency.pk


@time_machine.travel(TODAY, tick=False)
def test_the_stayers_column_counts_the_annual_assessment_that_counts(population):
    report = reports.release("hud", population, YEAR)
    keys, values = report.grid.keys, report.grid.values

    def column(code: str, rows: list[str]) -> dict[str, int]:
        return {r: values[keys[f"{code}:{r}:annual"]] for r in rows if f"{code}:{r}:annual" in keys}

    assert values[keys["q5a:stayers"]] == 15
    assert column("q16", ["none", "1500", "not_required", "missing", "dnc"]) == {
        "none": 1,
        "1500": 6,
        "not_required": 5,
        "missing": 3,
        "dnc": 0,
    }
    assert column("q18", ["earned", "other", "none", "not_required", "missing"]) == {
        "earned": 6,
        "other": 0,
        "none": 1,
        "not_required": 5,
        "missing": 3,
    }
    # The leavers' SSI at their annual assessment is in no stayers' cell.
    assert column("q17", ["earned", "ssi"]) == {"earned": 6, "ssi": 0}
    assert column("q20a", ["snap"]) == {"snap": 6}
    # Q20b: those not assessed (not yet required, or without it) are one row with not collected.
    assert column("q20b", ["none", "some", "dnc"]) == {"none": 1, "some": 6, "dnc": 8}
    assert column("q21", ["medicaid", "none", "one", "not_required", "missing"]) == {
        "medicaid": 6,
        "none": 1,
        "one": 6,
        "not_required": 5,
        "missing": 3,
    }
    # Q13c: the stayers' conditions as last recorded by the year's end, whether or not that
    # record is the annual assessment HUD's income questions count (6 and 7 were assessed
    # outside the window; 10 to 14 before their year was up); 9 has no answers at all.
    assert {r: values[keys[f"q13c1:{r}:total"]] for r in ("mental_health", "physical")} == {
        "mental_health": 6,
        "physical": 2,
    }
    assert {r: values[keys[f"q13c2:{r}"]] for r in ("none", "1", "dnc")} == {
        "none": 6,
        "1": 8,
        "dnc": 1,
    }
    # Each column adds up to Q5a's stayers, and its small counts are hidden.
    sections = {s.code: s for s in report.sections}
    for code, total_row in (("Q16", -1), ("Q18", -3), ("Q20b", -1)):
        assert sections[code].rows[total_row].cells[1] == keys["q5a:stayers"]
    assert sections["Q13c2"].rows[-1].cells == [keys["q5a:stayers"]]
    for key in ("q16:missing:annual", "q16:none:annual", "q18:missing:annual"):
        assert report.shown(keys[key]).text == "*", key
    assert report.shown(keys["q16:1500:annual"]).text == "6"


@pytest.mark.parametrize(
    ("began", "until", "days", "expected"),
    [
        # Less than a year of support: not required.
        ("2025-10-02", "2026-09-30", [], "not_required"),
        # Thirty days either side of the anniversary count; thirty-one do not.
        ("2025-03-01", "2026-09-30", ["2026-01-30"], "assessed"),
        ("2025-03-01", "2026-09-30", ["2026-01-29"], "missing"),
        ("2025-03-01", "2026-09-30", ["2026-03-31"], "assessed"),
        ("2025-03-01", "2026-09-30", ["2026-04-01"], "missing"),
        # The latest anniversary counts, not an earlier one.
        ("2024-03-01", "2026-09-30", ["2025-03-01"], "missing"),
        # Not after the day the report counts to, even within the window.
        ("2025-09-20", "2026-09-30", ["2026-10-05"], "missing"),
        # Support begun on 29 February: its anniversary in 2027 is the 28th.
        ("2024-02-29", "2027-03-31", ["2027-01-29"], "assessed"),
        ("2024-02-29", "2027-03-31", ["2027-01-28"], "missing"),
    ],
)
def test_the_assessment_hud_chooses(began, until, days, expected):
    values = hud.blank()
    if days:
        *earlier, latest = days
        values.update(_assessment(latest, "no", "no", "no"))
        values[hud.EARLIER] = [_assessment(d, "no", "no", "no") for d in earlier]
    kind, chosen = hud.annual_assessment(
        values, dt.date.fromisoformat(began), dt.date.fromisoformat(until)
    )
    assert kind == expected
    assert (chosen is not None) == (expected == "assessed")


def test_the_latest_within_the_window_counts():
    values = {**hud.blank(), **_assessment("2026-03-20", "yes", "no", "no")}
    values[hud.EARLIER] = [_assessment("2026-02-10", "no", "no", "no")]
    kind, chosen = hud.annual_assessment(values, dt.date(2025, 3, 1), dt.date(2026, 9, 30))
    assert kind == "assessed" and chosen is not None
    assert chosen["annual_on"] == "2026-03-20"


def test_the_assessments_a_report_read_already_choose_the_same():
    """A report reads a stayer's assessments once (``recorded``) for both the one that counts
    and her latest conditions: the choice is the one made from her answers alone, for each
    start of support and day counted to."""
    values = {**hud.blank(), **_assessment("2026-03-20", "yes", "no", "no")}
    values[hud.EARLIER] = [
        _assessment("2026-04-02", "no", "no", "yes"),
        _assessment("2025-03-05", "no", "yes", "no"),
        _assessment("2026-02-10", "no", "no", "no"),
    ]
    recorded = hud.assessments(values)
    assert [a["annual_on"] for a in recorded] == [
        "2025-03-05",
        "2026-02-10",
        "2026-03-20",
        "2026-04-02",
    ]
    kinds = []
    for began in ("2024-02-29", "2024-03-01", "2025-03-01", "2025-10-02"):
        for until in ("2026-03-01", "2026-03-25", "2026-09-30", "2027-03-31"):
            start, end = dt.date.fromisoformat(began), dt.date.fromisoformat(until)
            chosen = hud.annual_assessment(values, start, end, recorded=recorded)
            assert chosen == hud.annual_assessment(values, start, end)
            kinds.append(chosen[0])
    assert len(kinds) == 16
    assert set(kinds) == {"assessed", "missing", "not_required"}


@time_machine.travel(TODAY, tick=False)
def test_support_is_counted_from_the_latest_episode_as_hud_counts_its_project_start(
    population, cast
):
    """A survivor who came back: her case opened on 1 February 2024, her first episode of
    support ended on 1 June 2024 and her second began on 1 February 2026. HUD's project start
    is the second's first day: she has been supported 242 days by the year's end, not 973, so
    Q22a1 counts her in "181 to 365 days", as Q18 counts her among the stayers not yet required
    to be assessed."""
    case, first = hud_person(cast, 20, _at("2024-02-01"), None)
    Episode.objects.filter(pk=first.pk).update(
        status=EpisodeStatus.CLOSED, closed_at=_at("2024-06-01")
    )
    second = Episode.objects.create(
        case=case, number=2, status=EpisodeStatus.ACTIVE, opened_at=_at("2026-02-01")
    )
    HudAnswers(case=case, episode=second, answers=hud.blank()).save()
    report = reports.release("hud", population, YEAR)
    keys, values = report.grid.keys, report.grid.values
    assert values[keys["q5a:stayers"]] == 16
    assert values[keys["q18:not_required:annual"]] == 6
    # 0 to 8 began on 1 March 2025 (579 days), 9 on 1 June 2024 (852), 10 to 14 on
    # 10 January 2026 (264), and she on 1 February 2026.
    assert {code: values[keys[f"q22:{code}:stayers"]] for code, _l, _m in reports.HUD_LENGTHS} == {
        "30": 0,
        "60": 0,
        "90": 0,
        "180": 0,
        "365": 6,
        "730": 9,
        "1095": 1,
        "1460": 0,
        "1825": 0,
        "more": 0,
    }


@time_machine.travel(TODAY, tick=False)
def test_the_stayers_not_yet_required_are_not_told_by_the_lengths_of_participation(
    population, cast
):
    """The stayers not yet required to have an annual assessment are the stayers supported 365
    days or less (both from HUD's project start), so a reader who knows HUD's rule reads Q18's
    count as the sum of Q22a1's first five bands. Two more stayers began on 1 May 2026 (153
    days, "91 to 180 days"): 2 beside the 5 of "181 to 365 days", 7 not yet required. Were the 5
    and the 7 both printed, the hidden 2 would be 7 less 5."""
    for n in (20, 21):
        _person(cast, n, "2026-05-01", _assessment("2026-09-01", "yes", "yes", "yes"))
    report = reports.release("hud", population, YEAR)
    keys, values = report.grid.keys, report.grid.values
    first_year = [f"q22:{code}:stayers" for code in ("30", "60", "90", "180", "365")]
    assert [values[keys[k]] for k in first_year] == [0, 0, 0, 2, 5]
    assert values[keys["q18:not_required:annual"]] == 7
    # What the reader knows: the report's sums, and HUD's rule for everyone and for the youth.
    rule = [
        (keys["q18:not_required:annual"], [keys[k] for k in first_year]),
        (
            keys["q27h:not_required:annual"],
            [keys[k.replace("q22", "q27e")] for k in first_year],
        ),
    ]
    told = worked_out(values, [*report.grid.sums, *rule], report.hidden)
    small = {k for k, c in keys.items() if c in told and 0 < values[c] < report.threshold}
    assert keys["q22:180:stayers"] in report.hidden
    assert not small, small
