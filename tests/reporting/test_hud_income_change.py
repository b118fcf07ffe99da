"""HUD Q19a1 and Q19a2, the change in cash income from the start of support to the annual
assessment (stayers) and to exit (leavers), against a population counted by hand.

In the federal year 2026 (October 2025 to September 2026), of one agency that asks HUD's
questions, monthly income at start and at exit ("earned" is income from work only, "other" a
source other than work only (TANF), "both" both, with the earned part given):

- 5 leavers: earned $1,000, then earned $1,200 (more);
- 5 leavers: earned $1,000, then earned $800 (less);
- 5 leavers: no income, then other $500 (gained other income);
- 5 leavers: other $600, then no income (lost it);
- 5 leavers: both, $1,000 of which $700 earned, then the same;
- 5 leavers: earned $900, then other $900 (work lost, the same dollars from elsewhere);
- 5 leavers: no income at either;
- and 5 leavers whose income is not known at one of the two: 3 not asked at exit, 2 with earned
  and other income at start and no earned amount given. Not counted.

Stayers supported since 1 March 2025 and assessed on 5 March 2026:

- 6 earned $1,000, then $1,300; 2 earned $1,000, then $900; 1 earned $800, then no income;
  5 with no income at either;
- 2 assessed then whose income was not asked at the assessment: not counted;
- and 5 supported since January 2026, not yet required to have an annual assessment.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine

from caseflow.cases.models import IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.lib.suppression import Grid, suppress
from caseflow.partners import hud
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


def income(prefix: str, kind: str, total: int = 0, earned: int | None = None) -> dict[str, Any]:
    """Income answers at one stage: "earned", "other" (TANF), "both", "none" or "dnc"."""
    if kind == "dnc":
        return {f"{prefix}income_any": hud.NOT_COLLECTED}
    if kind == "none":
        return {f"{prefix}income_any": "no"}
    sources = {"earned": ["earned"], "other": ["tanf"], "both": ["earned", "tanf"]}[kind]
    return {
        f"{prefix}income_any": "yes",
        f"{prefix}income_sources": sources,
        f"{prefix}income_amount": f"{total}.00",
        f"{prefix}income_earned_amount": "" if earned is None else f"{earned}.00",
    }


LEAVERS = [
    (("earned", 1000), ("earned", 1200)),
    (("earned", 1000), ("earned", 800)),
    (("none",), ("other", 500)),
    (("other", 600), ("none",)),
    (("both", 1000, 700), ("both", 1000, 700)),
    (("earned", 900), ("other", 900)),
    (("none",), ("none",)),
]
STAYERS = [
    (6, ("earned", 1000), ("earned", 1300)),
    (2, ("earned", 1000), ("earned", 900)),
    (1, ("earned", 800), ("none",)),
    (5, ("none",), ("none",)),
]


def told_by_q19a(report: reports.FunderReport) -> set[str]:
    """The small counts a reader works out who also knows HUD's rules for Q18 and Q19a:
    Q19a's people are some of Q18's, by their kinds of income at start and then (those who
    have earned income then are the earned row's less, same, more and gained; those with both
    kinds, the earned and the other rows' less those of any), and the rest of each of Q18's
    cells, those whose income at start or then is not known, a count HUD never prints. Worked
    out here afresh, in a grid of its own beside the report's, and named for a failure."""
    grid = report.grid
    values, sums, keys = list(grid.values), list(grid.sums), grid.keys
    unknown = set(report.hidden)
    names: dict[int, str] = {}

    def new(name: str, value: int) -> int:
        values.append(value)
        names[len(values) - 1] = name
        unknown.add(len(values) - 1)
        return len(values) - 1

    stages = {"then": ("less", "same", "more", "gained"), "start": ("lost", "less", "same", "more")}
    kinds = ("earned", "other", "both", "none")
    inside: dict[tuple[str, str], list[int]] = {}
    for key, column in (("q19a1", "annual"), ("q19a2", "exit")):
        for stage, columns in stages.items():
            having = {}
            for row in ("earned", "other", "total"):
                cells = [keys[f"{key}:{row}:{c}"] for c in columns]
                having[row] = new(f"{key} {row} {stage}", sum(values[c] for c in cells))
                sums.append((having[row], tuple(cells)))
            e, o, a = (values[having[r]] for r in ("earned", "other", "total"))
            everyone = keys[f"{key}:total"]
            x = {
                "earned": new(f"{key} only earned {stage}", a - o),
                "other": new(f"{key} only other {stage}", a - e),
                "both": new(f"{key} both {stage}", e + o - a),
                "none": new(f"{key} none {stage}", values[everyone] - a),
            }
            sums += [
                (having["total"], (x["earned"], having["other"])),
                (having["total"], (x["other"], having["earned"])),
                (having["earned"], (x["earned"], x["both"])),
                (everyone, (having["total"], x["none"])),
            ]
            for kind in kinds:
                inside.setdefault((column if stage == "then" else "start", kind), []).append(
                    x[kind]
                )
    for (column, kind), parts in inside.items():
        whole = keys[f"q18:{kind}:{column}"]
        rest = new(
            f"q18 {kind} {column}, not in Q19a", values[whole] - sum(values[p] for p in parts)
        )
        sums.append((whole, (*parts, rest)))
    names |= {cell: key for key, cell in keys.items()}
    found = told_in(report, values, sums, unknown)
    return {names[c] for c in found if 0 < abs(values[c]) < report.threshold}


@pytest.fixture
def population(cast) -> int:
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    n = 0

    def person(answers: dict[str, Any], opened: str, closed: str | None = None) -> None:
        nonlocal n
        hud_person(cast, n, at(opened), answers, closed=at(closed) if closed else None)
        n += 1

    for start, end in LEAVERS:
        for _i in range(5):
            person({**income("", *start), **income("exit_", *end)}, "2026-01-10", "2026-08-01")
    for _i in range(3):
        person({**income("", "earned", 500), **income("exit_", "dnc")}, "2026-01-10", "2026-08-01")
    for _i in range(2):  # earned and other income, the earned part not given
        start = income("", "both", 1500)
        person({**start, **income("exit_", "both", 1500, 900)}, "2026-01-10", "2026-08-01")
    for count, start, then in STAYERS:
        for _i in range(count):
            answers = {**income("", *start), "annual_on": "2026-03-05", **income("annual_", *then)}
            person(answers, "2025-03-01")
    for _i in range(2):  # assessed, their income then not asked
        answers = {**income("", "earned", 900), "annual_on": "2026-03-05"}
        person({**answers, **income("annual_", "dnc")}, "2025-03-01")
    for _i in range(5):
        person(income("", "earned", 700), "2026-01-20")
    return cast.agency.pk


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_income_change_at_exit(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    # 35 leavers of 40 with their income known at both; each row's six columns add up to them.
    # Earned: the 5 whose work went (earned to other income), 5 less, the 5 with both the same,
    # 5 more, none gained, 15 never. Averages in whole dollars a month, halves up: -4,500 / 35
    # is -128.57. No one gained earned income: their average is of nobody, "*".
    # Other: 5 lost (-600), 5 the same, 10 gained (5 of $500, 5 of $900: 700), 15 never; its
    # average 4,000 / 35. Any income: 5 lost, 5 less, 10 the same (both; work to other), 5
    # more, 5 gained, 5 never; -500 / 35. The performance measure: those who gained the kind
    # of income or had more of it, and their average gain. Of any income, the 5 with less, the
    # 5 with more, the 5 who gained it and the 5 with none at either hide, with their averages
    # (the measure's 10 is printed, their average hidden): printed, any one of them lets a
    # reader who knows that every "*" is at least 1 pin down, through the ties to Q18's kinds
    # of income, the 2 of Q18's 7 with both earned and other income at exit who are not counted
    # here (never published).
    assert shown["Q19a2"] == [
        ("Number of Adults with Earned Income (i.e., Employment Income)", "5 5 5 5 0 15 35 5"),
        ("Average Change in Earned Income", "-900 -200 0 200 *0 0 -129 200"),
        ("Number of Adults with Other Income", "5 0 5 0 10 15 35 10"),
        ("Average Change in Other Income", "-600 *0 0 *0 700 0 114 700"),
        ("Number of Adults with Any Income (i.e., Total Income)", "5 *5 10 *5 *5 *5 35 10"),
        ("Average Change in Overall Income", "-600 *-200 0 *200 *500 *0 -14 *350"),
    ]
    q19a2 = next(s for s in report.sections if s.code == "Q19a2")
    assert q19a2.title == (
        "Q19a2: Client Cash Income Change - Income Source - by Start and Exit Status"
    )
    assert q19a2.columns[0] == "Had Income Category at Start and Did Not Have It at Exit"
    assert q19a2.columns[-2] == (
        "Performance Measure: Adults who Gained or Increased Income from Start to Exit, "
        "Average Gain"
    )
    # The performance measure's share of everyone counted, in hundredths of a percent, on the
    # count rows; the average rows leave it blank.
    assert [cells[-1].text for _l, cells in report.table(q19a2)] == [
        "14.29%",
        "",
        "28.57%",
        "",
        "28.57%",
        "",
    ]
    # Q18's last row: the people Q19a1 and Q19a2 count (the 14 stayers assessed, hidden: see
    # the next test; the 35).
    assert shown["Q18"][-1] == (
        "Adults with Income Information at Start and Annual Assessment/Exit",
        "- *14 35",
    )
    q18 = next(s for s in report.sections if s.code == "Q18")
    assert [c.text for c in report.table(q18)[-1][1]] == ["", "*", "35"]
    assert_csv_prints(report, shown)
    assert not small_counts_told(report)
    assert not told_by_q19a(report)
    # A share of one agency's people beside each count row: not added up in a roll-up.
    assert q19a2.own


@time_machine.travel(TODAY, tick=False)
def test_the_few_who_earned_less_are_not_told_by_the_averages(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    # 14 stayers assessed: earned income lost by 1 and less for 2, hidden (together they are
    # the 3 the row's other cells leave, but neither count alone can be worked out). Their
    # averages are of one and two people: hidden; so are the averages of nobody. The 14 hide
    # (below), and with them the total's average (800 / 14): printed beside the 6 who had more
    # and their average of $300, it would tell the other three's. The 5 with no income at
    # either changed by nothing: their 0 is printed.
    assert shown["Q19a1"] == [
        ("Number of Adults with Earned Income (i.e., Employment Income)", "*1 *2 0 6 0 5 *14 6"),
        ("Average Change in Earned Income", "*-800 *-100 *0 300 *0 0 *57 300"),
        ("Number of Adults with Other Income", "0 0 0 0 0 *14 *14 0"),
        ("Average Change in Other Income", "*0 *0 *0 *0 *0 *0 *0 *0"),
        ("Number of Adults with Any Income (i.e., Total Income)", "*1 *2 0 6 0 5 *14 6"),
        ("Average Change in Overall Income", "*-800 *-100 *0 300 *0 0 *57 300"),
    ]
    grid = report.grid
    keys = grid.keys
    # The people counted are some of the stayers assessed: what is left of Q5a's 21 stayers
    # after those not required to be assessed, those without the assessment required (Q18's
    # rows) and the 14 is the 2 assessed whose income was not asked, a count never published
    # and kept from being worked out. Here the 14 hide with it, in every table that prints
    # them: hiding the 5 not yet required instead would need another count hidden in each of
    # Q16's, Q18's and Q21's columns of stayers, which add up to the 21.
    rest = keys["q19a1:rest"]
    assert grid.values[rest] == 2 and rest in report.unpublished
    assessed = [keys[f"q18:{code}:annual"] for code in ("not_required", "missing")]
    assert (keys["q5a:stayers"], (*assessed, keys["q19a1:total"], rest)) in grid.sums
    assert shown["Q18"][-5] == (reports.HUD_NOT_ASSESSED[0][1], "0 5 0")
    assert shown["Q18"][-1][1] == "- *14 35"
    assert report.shown(keys["q19a1:total"]).text == "*"
    # Printed, the 300 and the total's 57 would tell the three others' -1,000 between them.
    assert grid.values[keys["q19a1:earned:more:average"]] == 300
    assert 14 * 57 - 6 * 300 == -1002
    assert not small_counts_told(report)
    assert_csv_prints(report, shown)


@time_machine.travel(TODAY, tick=False)
def test_income_change_is_counted_from_the_sources_and_amounts():
    # Earned income is the whole when it is the only source; a person with earned and other
    # income needs the earned part; income said with no source or no amount is not known.
    yes = {"income_any": "yes", "income_amount": "1200.00"}
    assert hud.income_amounts({**yes, "income_sources": ["earned"]}, "") == (1200, 0, 1200)
    assert hud.income_amounts({**yes, "income_sources": ["ssi"]}, "") == (0, 1200, 1200)
    both = {**yes, "income_sources": ["earned", "ssi"]}
    assert hud.income_amounts(both, "") is None
    assert hud.income_amounts({**both, "income_earned_amount": "450.00"}, "") == (450, 750, 1200)
    assert hud.income_amounts({**both, "income_earned_amount": "1500.00"}, "") is None
    assert hud.income_amounts({**yes, "income_sources": []}, "") is None
    assert hud.income_amounts({"income_any": "yes", "income_sources": ["ssi"]}, "") is None
    assert hud.income_amounts({"exit_income_any": "no"}, "exit_") == (0, 0, 0)
    assert hud.income_amounts({"exit_income_any": hud.DONT_KNOW}, "exit_") is None


@time_machine.travel(TODAY, tick=False)
def test_the_same_people_in_q16_and_q18_hide_together(population):
    # The people whose income is "prefers not to answer" are in Q16's and Q18's "doesn't
    # know/prefers not to answer" rows, and the stayers not assessed in Q16's, Q18's and Q21's
    # rows of them: the same people, each table its own cells, tied as equal. Whenever one is
    # hidden (here made to hide, as a complement would), its copies hide too: printed, they
    # would tell it.
    report = reports.release("hud", population, YEAR)
    grid, keys = report.grid, report.grid.keys
    pairs = [
        ("q18:dk:start", "q16:dk:start"),
        ("q18:not_required:annual", "q16:not_required:annual"),
        ("q18:not_required:annual", "q21:not_required:annual"),
    ]
    for one, copy in pairs:
        assert (keys[one], (keys[copy],)) in grid.sums
    # Q18's 5 stayers not yet required to be assessed, made to hide (as a complement would
    # be): its copies in Q16 and Q21 hide with it.
    held = keys["q18:not_required:annual"]
    copies = {keys["q16:not_required:annual"], keys["q21:not_required:annual"]}
    assert grid.values[held] == 5
    assert copies <= suppress(grid, 5, fixed_hidden=[held], unpublished=report.unpublished)
    # Without the ties, they would be printed beside Q18's hidden count.
    untied = [(t, m) for t, m in grid.sums if not (t == held and set(m) <= copies)]
    loose = Grid(grid.values, grid.keys, untied, grid.totals)
    hidden = suppress(loose, 5, fixed_hidden=[held], unpublished=report.unpublished)
    assert not copies & hidden
