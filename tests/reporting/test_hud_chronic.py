"""Q26a, the households by whether their head was chronically homeless and by household type,
and Q26e, Q26g and Q26h, the chronically homeless persons' conditions, sources of income and
non-cash benefits, against a population counted by hand.

Fifteen survivors of one agency that asks HUD's questions, all supported from 1 April 2026 (the
federal year 2026):

- seven chronically homeless (in an emergency shelter before, homeless since January 2025, with
  a mental health disorder), adults without children, each with earned income and SNAP at
  start; five of them, women aged 25 to 34, leave on 1 June, with the disorder and earned
  income at exit and no benefits; two, men aged 45 to 54, stay;
- a woman aged 25 to 34 who came from a rented home where she lived a year or more (not
  chronically homeless), with children, with the same answers at start, and stays;
- six more from rented homes (four women, two men), aged 35 to 44, with children, each with a
  chronic health condition, no income and no benefits, who stay;
- a man aged 35 to 44 with no HUD answers (not collected, of an unknown household type), who
  stays.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.cases.models import IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud
from caseflow.reporting import reports
from tests.reporting.hud_people import at, hud_person
from tests.reporting.test_hud_any_answer import told_by_any_answer, told_by_disabling
from tests.reporting.test_hud_cells import SUBSIDIES
from tests.reporting.test_hud_income_change import told_by_q19a
from tests.reporting.test_hud_youth import YOUTH_SECTIONS
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)

AT_START = {
    "conditions_any": "yes",
    "conditions": ["mental_health"],
    "income_any": "yes",
    "income_amount": "900",
    "income_sources": ["earned"],
    "benefits_any": "yes",
    "benefits_sources": ["snap"],
}
CHRONIC = {
    **AT_START,
    "prior_living": "emergency_shelter",
    "homeless_since": "2025-01-01",
    "household_type": "without_children",
}
AT_EXIT = {
    "exit_conditions_any": "yes",
    "exit_conditions": ["mental_health"],
    "exit_income_any": "yes",
    "exit_income_amount": "900",
    "exit_income_sources": ["earned"],
    "exit_benefits_any": "no",
}
HOUSED = {
    "prior_living": "rental_no_subsidy",
    "prior_length": "year_or_more",
    "household_type": "children_and_adults",
}
OTHERS = {
    **HOUSED,
    "conditions_any": "yes",
    "conditions": ["chronic_health"],
    "income_any": "no",
    "benefits_any": "no",
}


@pytest.fixture
def population(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    began = at("2026-04-01")
    people = (
        [({**CHRONIC, **AT_EXIT}, at("2026-06-01"), "25_34", "woman")] * 5
        + [(CHRONIC, None, "45_54", "man")] * 2
        + [({**AT_START, **HOUSED}, None, "25_34", "woman")]
        + [(OTHERS, None, "35_44", "woman")] * 4
        + [(OTHERS, None, "35_44", "man")] * 2
        + [(None, None, "35_44", "man")]
    )
    for n, (answers, closed, age, gender) in enumerate(people):
        hud_person(cast, n, began, answers, closed=closed, age=age, gender=gender)
    return cast.agency.pk


#: Every cell as printed (at start, the stayers', at exit), "*" before a hidden one. Why:
#:
#: - at start, 7 of the 8 with a mental health disorder, earned income and SNAP are chronically
#:   homeless: the 1 other is a count never published, which the 7 and the 8 would give away,
#:   so the smaller hides (Q13a1's, Q17's and Q20a's 8 stay published);
#: - the stayers' 2 is a count from 1 to 4 (Q13c1's 3 is hidden for the same reason);
#: - at exit, the 5 leavers are all chronically homeless: the rest is 0, and both 5s print.
#:
#: No one assessed a year after support began: the annual columns are 0. The chronic health
#: conditions are the six others': 0 here, 6 in Q13a1 and Q13c1.
EXPECTED = {
    # Q26a (Total, Without Children, With Children and Adults, With Only Children, Unknown
    # Household Type): its total column is Q26b's and its total row Q8a's, the same cells. The
    # one never asked is a 1 in each: Q26b's and Q8a's hide with the first 7 of their totals
    # (the chronically homeless; those without children), and Q26a's 7 chronically homeless
    # households without children with them (it is both 7s). Q26a's 0 of chronically homeless
    # households of an unknown type was chosen as a complement before the 7s were, when no one
    # cell kept the 1 hidden; once they are, it keeps nothing hidden, and is shown again.
    "Q26a": [
        ("Chronically Homeless", "*7 *7 0 0 0"),
        ("Not Chronically Homeless", "7 0 7 0 0"),
        ("Client Doesn't Know/Prefers Not to Answer", "0 0 0 0 0"),
        ("Data Not Collected", "*1 0 0 0 *1"),
        ("Total", "15 *7 7 0 *1"),
    ],
    # Q26c: the chronically homeless by gender, adding up to Q26b's (hidden) 7. The 2 men are
    # a count from 1 to 4. The 5 women lie inside Q10a's 10 women: the 5 others may be told,
    # and the 5 prints.
    "Q26c": [
        ("Woman", "5"),
        ("Man", "*2"),
        ("Culturally Specific Identity", "0"),
        ("Transgender", "0"),
        ("Non-Binary", "0"),
        ("Questioning", "0"),
        ("Different Identity", "0"),
        ("Client Doesn't Know/Prefers Not to Answer", "0"),
        ("Data Not Collected", "0"),
        ("Total", "*7"),
    ],
    # Q26d: the chronically homeless by age, adding up to Q26b's (hidden) 7. The 2 aged 45 to
    # 54 is a count from 1 to 4. The 5 aged 25 to 34 lies inside Q11's 6 of that band, with 1
    # other (a count never published); Q11's 6 is hidden (the complement of its 2 aged 45 to
    # 54), so the 5 prints and the 1 is not told.
    "Q26d": [
        ("0 - 17", "0"),
        ("18 - 24", "0"),
        ("25 - 34", "5"),
        ("35 - 44", "0"),
        ("45 - 54", "*2"),
        ("55 - 64", "0"),
        ("65+", "0"),
        ("Client Doesn't Know/Prefers Not to Answer", "0"),
        ("Data Not Collected", "0"),
        ("Total", "*7"),
    ],
    "Q26e": [
        ("Mental Health Disorder", "*7 *2 5"),
        ("Alcohol Use Disorder", "0 0 0"),
        ("Drug Use Disorder", "0 0 0"),
        ("Both Alcohol and Drug Use Disorders", "0 0 0"),
        ("Chronic Health Condition", "0 0 0"),
        ("HIV/AIDS", "0 0 0"),
        ("Developmental Disability", "0 0 0"),
        ("Physical Disability", "0 0 0"),
    ],
    # Q26f (at start, the stayers at their annual assessment, the leavers at exit): at start
    # the 7 with earned income lie inside Q18's 8, and the 1 other would be told: the 7 hides
    # (as does its total, Q26b's 7). The two who stay began in April, not yet a year: a count
    # from 1 to 4, as is their total. The 5 who left are all of Q18's leavers with earned
    # income, and all of Q5a's leavers: nothing small to tell, so they print.
    "Q26f": [
        (
            "Chronically Homeless Persons with Only Earned Income (i.e., Employment Income)",
            "*7 0 5",
        ),
        ("Chronically Homeless Persons with Only Other Income", "0 0 0"),
        ("Chronically Homeless Persons with Both Earned and Other Income", "0 0 0"),
        ("Chronically Homeless Persons with No Income", "0 0 0"),
        (
            "Chronically Homeless Persons with Client Doesn't Know/Prefers Not to Answer Income "
            "Information",
            "0 0 0",
        ),
        ("Chronically Homeless Persons with Missing Income Information", "0 0 0"),
        (
            "Number of Chronically Homeless Persons not yet required to have an annual assessment",
            "0 *2 0",
        ),
        (
            "Number of Chronically Homeless Persons without required annual assessment",
            "0 0 0",
        ),
        ("Total Chronically Homeless Persons", "*7 *2 5"),
        ("1 or more source of income", "*7 0 5"),
        # Q19a2's people among them: the five who left, their income known at start and at
        # exit (the same $900 of work); the stayers not yet assessed.
        (
            "Chronically Homeless Persons with Income Information at Start and Annual "
            "Assessment/Exit",
            "- 0 5",
        ),
    ],
    "Q26g": [
        (label, "*7 0 5" if code == "earned" else "0 0 0")
        for code, label in reports.HUD_INCOME_SOURCES.items()
    ],
    "Q26h": [
        (label, "*7 0 0" if code == "snap" else "0 0 0")
        for code, label in reports.HUD_BENEFITS.items()
    ],
}


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_chronically_homeless_persons_questions(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert {code: shown[code] for code in EXPECTED} == EXPECTED
    assert_csv_prints(report, shown)
    assert shown["Q26b"][0] == ("Chronically Homeless", "*7")
    # The wholes they are parts of, printed beside them.
    assert ("Mental Health Disorder", "8") in shown["Q13a1"]
    assert ("25-34", "*6") in shown["Q11"] and ("45-54", "*2") in shown["Q11"]
    assert ("Chronic Health Condition", "6") in shown["Q13a1"]
    assert ("Mental Health Disorder", "*3") in shown["Q13c1"]
    assert ("Mental Health Disorder", "5") in shown["Q13b1"]
    # Q17's 8 with earned income at start hide: beside Q19a2's 5 leavers who had it at start
    # and still have it (every other column 0), they would tell the 3 stayers who had it.
    assert ("Earned Income", "*8 0 5") in shown["Q17"]
    assert not told_by_q19a(report)
    assert not told_by_any_answer(report)
    assert not told_by_disabling(report)
    assert shown["Q20a"][0][1] == "8 0 0"
    # In HUD's order, the last questions.
    sections = {s.code: s for s in report.sections}
    assert list(sections)[-19:] == [
        *("Q26a", "Q26b", "Q26c", "Q26d", "Q26e", "Q26f", "Q26g", "Q26h"),
        *YOUTH_SECTIONS,
    ]
    assert sections["Q26f"].columns == [
        "Number of Chronically Homeless Persons at Start",
        "Number of Chronically Homeless Persons at Annual Assessment (Stayers)",
        "Number of Chronically Homeless Persons at Exit (Leavers)",
    ]
    # Q10a: everyone served by gender, after the households (Q8b), before gender by age (Q10d)
    # and the ages (Q11).
    codes = list(sections)
    assert codes.index("Q8b") + 1 == codes.index("Q10a") == codes.index("Q10d") - 1
    assert codes.index("Q10d") + 1 == codes.index("Q11")
    assert (sections["Q10a"].title, sections["Q10a"].columns) == ("Q10a: Gender", ["Total"])
    assert shown["Q10a"] == [
        ("Woman", "10"),
        ("Man", "5"),
        *(
            (label, "0")
            for label in (
                "Culturally Specific Identity",
                "Transgender",
                "Non-Binary",
                "Questioning",
                "Different Identity",
            )
        ),
        ("Client Doesn't Know/Prefers Not to Answer", "0"),
        ("Data Not Collected", "0"),
        ("Total", "15"),
    ]
    # Q26d's total is Q26b's chronically homeless (the same cell), and its rows add up to it.
    keys = report.grid.keys
    q26d = sections["Q26d"]
    assert (q26d.title, q26d.columns) == ("Q26d: Age of Chronically Homeless Persons", ["Total"])
    assert q26d.rows[-1].cells == [keys["q26b:yes"]]
    assert (keys["q26b:yes"], tuple(r.cells[0] for r in q26d.rows[:-1])) in report.grid.sums
    assert sections["Q26a"].columns == [
        "Total",
        "Without Children",
        "With Children and Adults",
        "With Only Children",
        "Unknown Household Type",
    ]
    # Q26a's rows add up to Q26b's counts and its columns to Q8a's: the same cells.
    rows = sections["Q26a"].rows
    assert [row.cells[0] for row in rows] == [
        *(keys[f"q26b:{code}"] for code, _l in reports.HUD_CHRONIC),
        keys["served"],
    ]
    assert rows[-1].cells == sections["Q8a"].rows[0].cells
    assert len(rows) == 5 and len(rows[-1].cells) == 5
    for row in rows[:-1]:
        assert (row.cells[0], tuple(row.cells[1:])) in report.grid.sums
    for j, outer in enumerate(rows[-1].cells[1:], start=1):
        assert (outer, tuple(row.cells[j] for row in rows[:-1])) in report.grid.sums
    # Each count lies inside its whole through a count never published.
    keys, values, sums = report.grid.keys, report.grid.values, report.grid.sums
    wholes = {
        "q26e": {"start": "q13a1:{}:total", "stayers": "q13c1:{}:total", "exit": "q13b1:{}:total"},
        "q26g": {c: f"q17:{{}}:{c}" for c in ("start", "annual", "exit")},
        "q26h": {c: f"q20a:{{}}:{c}" for c in ("start", "annual", "exit")},
    }
    rows = {
        "q26e": [code for code, _l in reports.HUD_CONDITIONS],
        "q26g": list(reports.HUD_INCOME_SOURCES),
        "q26h": list(reports.HUD_BENEFITS),
    }
    tied = 0
    for question, columns in wholes.items():
        for column, whole in columns.items():
            for row in rows[question]:
                part, outer = keys[f"{question}:{row}:{column}"], keys[whole.format(row)]
                rest = next(m[1] for t, m in sums if t == outer and m[0] == part and len(m) == 2)
                assert rest in report.unpublished
                assert values[rest] == values[outer] - values[part]
                tied += 1
    assert tied == 3 * (8 + 15 + 6)
    # Q26f's counts inside Q18's; its totals the chronically homeless, those who stay (inside
    # Q5a's stayers) and those who left (inside Q5a's leavers).
    tied = 0
    for column in ("start", "annual", "exit"):
        for row, _label in [*reports.HUD_INCOME_CATEGORIES, *reports.HUD_NOT_ASSESSED]:
            part, outer = keys[f"q26f:{row}:{column}"], keys[f"q18:{row}:{column}"]
            rest = next(m[1] for t, m in sums if t == outer and m[0] == part and len(m) == 2)
            assert rest in report.unpublished
            assert values[rest] == values[outer] - values[part]
            tied += 1
    assert tied == 3 * 8
    assert sections["Q26f"].rows[-3].cells == [
        keys["q26b:yes"],
        keys["q26f:stayers"],
        keys["q26f:leavers"],
    ]
    # "1 or more source of income": the first three rows' subtotal, tied to them.
    anyone = [keys[f"q26f:any:{column}"] for column in ("start", "annual", "exit")]
    assert sections["Q26f"].rows[-2].cells == anyone
    # Those whose income is known at start and then: inside Q18's last row (Q19a's people) and
    # inside the chronically homeless who stay or left.
    known = [keys[f"q26f:known:{column}"] for column in ("annual", "exit")]
    assert sections["Q26f"].rows[-1].cells == known
    for cell, whole in zip(known, ("q19a1:total", "q19a2:total"), strict=True):
        assert any(w == keys[whole] and cell in m for w, m in sums)
    for cell, column in zip(anyone, ("start", "annual", "exit"), strict=True):
        rows = tuple(keys[f"q26f:{r}:{column}"] for r in ("earned", "other", "both"))
        assert (cell, rows) in sums
    assert (keys["q26b:yes"], (keys["q26f:stayers"], keys["q26f:leavers"])) in sums
    # Each of Q26c's and Q26d's counts lies inside the people served with the answers of its
    # row (Q11's 0 - 17 is its three bands of children).
    tied = 0
    for question, code, rows in (
        ("gender_identity", "q26c", reports.HUD_GROUP_GENDERS),
        ("age_band", "q26d", reports.HUD_GROUP_AGES),
    ):
        for row, _label, given in rows:
            tied += 1
            part = keys[f"{code}:{row}"]
            rest = next(m[1] for t, m in sums if len(m) == 2 and m[0] == part)
            whole = next(t for t, m in sums if len(m) == 2 and m[0] == part)
            assert rest in report.unpublished
            assert values[whole] == values[part] + values[rest]
            assert values[whole] == sum(values[keys[f"demo:{question}:{a}"]] for a in given)
    assert tied == 9 + 9
    # No small count, published or not, can be worked out from what the year publishes.
    assert not small_counts_told(report)


@time_machine.travel(TODAY, tick=False)
def test_without_a_chronically_homeless_person_every_count_is_zero(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    for n in range(6):
        hud_person(cast, n, at("2026-04-01"), {**AT_START, **HOUSED})
    shown = _printed(reports.release("hud", cast.agency.pk, YEAR))
    assert ("Chronically Homeless", "0") in shown["Q26b"]
    for code in ("Q26e", "Q26g", "Q26h"):
        assert shown[code] and {cells for _label, cells in shown[code]} == {"0 0 0"}
    assert ("Mental Health Disorder", "6") in shown["Q13a1"]


@time_machine.travel(TODAY, tick=False)
def test_the_veterans_by_gender_age_and_destination(cast):
    """Q25c, Q25d and Q25i: seventeen people served, six of them veterans (five men aged 35 to
    44, a woman aged 25 to 34), eleven women aged 25 to 34 who are not. Q25c's and Q25d's columns
    add up to Q5a's veterans (the same cell); the one woman veteran is a count from 1 to 4,
    and the five men hide with her, so that she is not told by subtracting them from the six.

    The five men leave on 1 June, four to rent without a subsidy and one to stay with family
    for a while; five of the other women leave to rent too. Q25i's counts lie inside Q23c's
    (9 renting, 1 with family, 10 leavers), the rest never published; its total, the veterans
    who left, lies inside Q5a's 6 veterans, and the one veteran who stays (a count never
    published) would be told by the 5 and the 6: the 5 hides."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    people = [("yes", "man", "35_44", "rental_no_subsidy")] * 4
    people += [("yes", "man", "35_44", "family_temporary"), ("yes", "woman", "25_34", None)]
    people += [("no", "woman", "25_34", "rental_no_subsidy")] * 5
    people += [("no", "woman", "25_34", None)] * 6
    for n, (veteran, gender, age, went) in enumerate(people):
        answers = {"veteran": veteran, "destination": went or hud.NOT_COLLECTED}
        closed = at("2026-06-01") if went else None
        hud_person(cast, n, at("2026-04-01"), answers, age=age, gender=gender, closed=closed)
    report = reports.release("hud", cast.agency.pk, YEAR)
    shown = _printed(report)
    sections = {s.code: s for s in report.sections}
    assert (sections["Q25c"].title, sections["Q25d"].title) == (
        "Q25c: Gender - Veterans",
        "Q25d: Age - Veterans",
    )
    codes = list(sections)
    assert codes.index("Q25a") + 1 == codes.index("Q25c") == codes.index("Q25d") - 1
    assert shown["Q25c"] == [
        ("Woman", "*1"),
        ("Man", "*5"),
        *((label, "0") for _c, label, _g in reports.HUD_GROUP_GENDERS[2:]),
        ("Total", "6"),
    ]
    assert shown["Q25d"] == [
        ("0 - 17", "0"),
        ("18 - 24", "0"),
        ("25 - 34", "*1"),
        ("35 - 44", "*5"),
        *((label, "0") for _c, label, _g in reports.HUD_GROUP_AGES[4:]),
        ("Total", "6"),
    ]
    # The total is Q5a's veterans, the two rows of veterans of Q25a.
    keys = report.grid.keys
    assert sections["Q25c"].rows[-1].cells == [keys["q5a:veterans"]]
    assert ("Number of veterans", "6") in shown["Q5a"]
    assert ("Woman", "12") in shown["Q10a"] and ("Man", "5") in shown["Q10a"]
    # Q25i: Q23c's rows, in its order.
    expected = {label: "0" for label, _cells in shown["Q23c"]}
    expected |= {
        reports.HUD_LIVING_LABELS["rental_no_subsidy"]: "*4",
        reports.HUD_LIVING_LABELS["family_temporary"]: "*1",
        "Subtotal - Permanent Situations": "*4",
        "Subtotal - Temporary Situations": "*1",
        "TOTAL": "*5",
    }
    assert shown["Q25i"] == list(expected.items())
    assert sections["Q25i"].title == "Q25i: Exit Destination - Veterans"
    assert codes.index("Q25d") + 1 == codes.index("Q25i")
    assert ("TOTAL", "10") in shown["Q23c"]
    # Q23c's 1 who went to family hides with the 9 renting (a zero is never a complement).
    assert (reports.HUD_LIVING_LABELS["rental_no_subsidy"], "*9") in shown["Q23c"]
    values, sums = report.grid.values, report.grid.sums
    total, veterans = keys["q25i:total"], keys["q5a:veterans"]
    assert (values[total], values[veterans]) == (5, 6)
    rest = next(m[1] for t, m in sums if t == veterans and m[0] == total)
    assert rest in report.unpublished and values[rest] == 1
    assert not small_counts_told(report)


@time_machine.travel(TODAY, tick=False)
def test_the_veterans_who_left_to_rent_with_a_subsidy(cast):
    """Q25j: twenty people served, eight of them veterans; on 1 June five veterans leave to rent
    with VA supportive housing (VASH), two with a housing choice voucher (HCV) and one with no
    subsidy; six other people leave to rent with a voucher and one with a subsidy not recorded;
    five stay.

    Q25j's rows are Q23d's, each count inside Q23d's of its row (the rest, who are not veterans,
    never published), its total Q25i's row of those who rent with a subsidy (the same cell). Its
    2 is a count from 1 to 4 and hides with the total of 7, so that it is not told by
    subtracting the 5 from the 7 (the 7 then hides beside Q25i's 1, who rent without a
    subsidy, in the 8 who left to their own place); Q23d's 1 (its subsidy not recorded) hides
    with Q23d's total of 14, which would give it away from the 5 and the 8. No zero is a
    complement. The two 5s with VASH hide too, as a reader knows that a "*" is never 0 (zeros
    are printed): Q25j's, printed, would leave the 2 and Q25i's 1 no more room than that (the 7
    less 5 is the 2, the 8 less the 7 the 1); Q23d's, printed, would make its total 13 and
    the one not recorded, and Q23c's 15 less those 13 would leave 2 for that one and Q23c's 1
    who rent without a subsidy, each at least 1."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    people = [("yes", "rental_subsidy", "vash")] * 5
    people += [("yes", "rental_subsidy", "hcv")] * 2
    people += [("yes", "rental_no_subsidy", None)]
    people += [("no", "rental_subsidy", "hcv")] * 6
    people += [("no", "rental_subsidy", hud.NOT_COLLECTED)]
    people += [("no", None, None)] * 5
    for n, (veteran, went, subsidy) in enumerate(people):
        answers = {"veteran": veteran, "destination": went or hud.NOT_COLLECTED}
        if subsidy:
            answers["destination_subsidy"] = subsidy
        closed = at("2026-06-01") if went else None
        hud_person(cast, n, at("2026-04-01"), answers, closed=closed)
    report = reports.release("hud", cast.agency.pk, YEAR)
    shown = _printed(report)
    sections = {s.code: s for s in report.sections}
    codes = list(sections)
    assert codes.index("Q25i") + 1 == codes.index("Q25j") == codes.index("Q26a") - 1
    assert sections["Q25j"].title == f"Q25j: {SUBSIDIES} - Veterans"
    subsidies = [*reports.HUD_SUBSIDY_LABELS.values(), reports.HUD_DK[1], reports.HUD_DNC[1]]
    by_subsidy = reports.HUD_SUBSIDY_LABELS
    assert shown["Q25j"] == [
        *(
            (label, {by_subsidy["vash"]: "*5", by_subsidy["hcv"]: "*2"}.get(label, "0"))
            for label in subsidies
        ),
        ("Total", "*7"),
    ]
    assert shown["Q23d"] == [
        *(
            (label, {by_subsidy["vash"]: "*5", by_subsidy["hcv"]: "8"}.get(label, "0"))
            for label in subsidies[:-1]
        ),
        ("Data Not Collected", "*1"),
        ("Total", "*14"),
    ]
    assert (reports.HUD_LIVING_LABELS["rental_subsidy"], "*7") in shown["Q25i"]
    assert ("Subtotal - Permanent Situations", "8") in shown["Q25i"]
    assert (reports.HUD_LIVING_LABELS["rental_subsidy"], "*14") in shown["Q23c"]
    assert ("Number of veterans", "8") in shown["Q5a"]
    # The total is Q25i's row; each row lies inside Q23d's, the rest never published.
    keys, values, sums = report.grid.keys, report.grid.values, report.grid.sums
    assert sections["Q25j"].rows[-1].cells == [keys["q25i:rental_subsidy"]]
    for code, rest in (("vash", 0), ("hcv", 6), ("dnc", 1)):
        tie = (keys[f"q23d:{code}"], (keys[f"q25j:{code}"], keys[f"q25j:rest:{code}"]))
        assert tie in sums
        assert keys[f"q25j:rest:{code}"] in report.unpublished
        assert values[keys[f"q25j:rest:{code}"]] == rest
    assert not small_counts_told(report)
    assert_csv_prints(report, shown)


@time_machine.travel(TODAY, tick=False)
def test_the_youth_who_left_by_destination_and_subsidy(cast):
    """Q27f1 and Q27f2: twenty-four women served, thirteen of them aged 18 to 24 (the youth).
    On 1 June five of the youth leave to rent with a rapid re-housing subsidy, two with a
    housing choice voucher and one to stay with family for a while; six of the others leave to
    rent with a voucher; ten stay.

    Q27f1's rows are Q23c's, each count inside Q23c's of its row, its total (the 8 youth who
    left) inside both Q5a's 14 leavers and Q27a's 13 youth, each rest a count never published.
    The 8 youth who left are Q27h's and Q27e's youth leavers too (the same people, tied), printed
    there. The one with family is a count from 1 to 4 and hides with her subtotal, and the 7
    renting with a subsidy with her (their row, their subtotal and Q27f2's total, the same
    people), so that the 8 less the 7 does not tell her. Q23c's one with family hides with the
    13 renting with a subsidy and their subtotal. Q27f2's rows are Q23d's, each inside Q23d's:
    its 2 with a voucher is a count from 1 to 4 and hides with the 5 with a rapid re-housing
    subsidy. Q23d's total is Q23c's 13 renting with a subsidy, hidden in Q23c: Q23d's 5 with a
    rapid re-housing subsidy hides so that its rows do not add up to it, and its 8 with a
    voucher too: for a reader who knows that no one but the youth left to family or with a
    rapid re-housing subsidy, Q23c's 14 less the 8 would leave 6 for those two, and the 8 youth
    who left less the 6 would tell the 2 with a voucher."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    people = [("18_24", "rental_subsidy", "rrh")] * 5
    people += [("18_24", "rental_subsidy", "hcv")] * 2
    people += [("18_24", "family_temporary", None)]
    people += [("18_24", None, None)] * 5
    people += [("25_34", "rental_subsidy", "hcv")] * 6
    people += [("25_34", None, None)] * 5
    for n, (age, went, subsidy) in enumerate(people):
        answers = {"destination": went or hud.NOT_COLLECTED}
        if subsidy:
            answers["destination_subsidy"] = subsidy
        closed = at("2026-06-01") if went else None
        hud_person(cast, n, at("2026-04-01"), answers, age=age, gender="woman", closed=closed)
    report = reports.release("hud", cast.agency.pk, YEAR)
    shown = _printed(report)
    sections = {s.code: s for s in report.sections}
    assert list(sections)[-len(YOUTH_SECTIONS) :] == YOUTH_SECTIONS
    assert sections["Q27f1"].title == "Q27f1: Exit Destination - Youth"
    assert sections["Q27f2"].title == f"Q27f2: {SUBSIDIES} - Youth"
    labels = reports.HUD_LIVING_LABELS
    assert shown["Q27f1"] == [
        (
            label,
            {
                labels["family_temporary"]: "*1",
                "Subtotal - Temporary Situations": "*1",
                labels["rental_subsidy"]: "*7",
                "Subtotal - Permanent Situations": "*7",
                "TOTAL": "8",
            }.get(label, "0"),
        )
        for label, _cells in shown["Q23c"]
    ]
    assert (labels["rental_subsidy"], "*13") in shown["Q23c"]
    assert ("TOTAL", "14") in shown["Q23c"]
    by_subsidy = reports.HUD_SUBSIDY_LABELS
    subsidies = [*by_subsidy.values(), reports.HUD_DK[1], reports.HUD_DNC[1]]
    assert shown["Q27f2"] == [
        *(
            (label, {by_subsidy["rrh"]: "*5", by_subsidy["hcv"]: "*2"}.get(label, "0"))
            for label in subsidies
        ),
        ("Total", "*7"),
    ]
    assert (by_subsidy["rrh"], "*5") in shown["Q23d"] and (by_subsidy["hcv"], "*8") in shown["Q23d"]
    assert ("Total", "*13") in shown["Q23d"]
    assert shown["Q27a"] == [("12 - 17", "0"), ("18 - 24", "13"), ("Total", "13")]
    # The 8 youth leavers printed in Q27h (at exit) and Q27e (leavers), as in Q27f1.
    assert shown["Q27h"][-3] == ("Total Youth", "13 5 8")
    assert shown["Q27e"][-1] == ("Total", "13 8 5")
    # The ties: each row inside Q23c's or Q23d's, the total inside the leavers and the youth.
    keys, values, sums = report.grid.keys, report.grid.values, report.grid.sums
    assert sections["Q27f2"].rows[-1].cells == [keys["q27f1:rental_subsidy"]]
    for whole, part, rest, left in (
        ("q5a:leavers", "q27f1:total", "q27f1:rest:total", 6),
        (reports.HUD_YOUTH_KEY, "q27f1:total", "q27f1:rest:stayers", 5),
        ("q23c:rental_subsidy", "q27f1:rental_subsidy", "q27f1:rest:rental_subsidy", 6),
        ("q23d:hcv", "q27f2:hcv", "q27f2:rest:hcv", 6),
    ):
        assert (keys[whole], (keys[part], keys[rest])) in sums
        assert keys[rest] in report.unpublished and values[keys[rest]] == left
    assert (keys["q27f1:total"], (keys["q27h:leavers"],)) in sums
    assert not small_counts_told(report)
    assert_csv_prints(report, shown)
    # Built on its own (each person's answers read in the HUD pass, not a release's): the same.
    alone = reports.build("hud", cast.agency.pk, YEAR)
    for key in ("q27f1:total", "q27f1:rental_subsidy", "q27f1:family_temporary", "q27f2:rrh"):
        assert alone.grid.values[alone.grid.keys[key]] == values[keys[key]]
