"""Q27d, Q27e, Q27g to Q27j and Q27l, the youth's living situations before, length of
participation, sources and kinds of income, disabling conditions with income at exit, average
and median days of participation, and days from homelessness to housing, against a population
counted by hand.

Twenty-two women of one agency that asks HUD's questions, all supported from 1 April 2026 (the
federal year 2026):

- six aged 18 to 24 (youth) who came from an emergency shelter with earned income and a
  disabling condition, and left on 1 June with earned income;
- five aged 18 to 24 (youth) who came from staying with family for a while, with no income, and
  stay;
- six aged 25 to 34 who came from an emergency shelter with earned income and no disabling
  condition, and left on 1 June with earned income;
- five aged 35 to 44 who came from a rented home with no income, and stay.

Every count is 5 or more, or 0: nothing is hidden, so every cell below is its count.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine

from caseflow.cases.models import IntakeField
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners.models import Demographics
from caseflow.reporting import reports
from tests.reporting.hud_people import at, hud_person, rapid_rehousing
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)

#: The youth's tables of a project that is not permanent housing, last in HUD's order (written
#: out rather than read from ``HUD_ORDER``, so that the order is checked).
YOUTH_SECTIONS = [
    *("Q27a", "Q27c", "Q27d", "Q27e", "Q27f1", "Q27f2", "Q27g", "Q27h", "Q27i", "Q27j", "Q27l"),
]

EARNED = {"income_any": "yes", "income_amount": "900", "income_sources": ["earned"]}
LEFT_EARNING = {
    "exit_income_any": "yes",
    "exit_income_amount": "900",
    "exit_income_sources": ["earned"],
}
NO_INCOME = {"income_any": "no"}
#: Homeless from 1 March: 31 days before support began.
SHELTER = {"prior_living": "emergency_shelter", "homeless_since": "2026-03-01"}

#: (answers, left on 1 June, age band), one per person.
PEOPLE: list[tuple[dict[str, Any], bool | str, str]] = [
    *[({**SHELTER, **EARNED, "conditions_any": "yes", **LEFT_EARNING}, True, "18_24")] * 6,
    *[({"prior_living": "family_temporary", **NO_INCOME}, False, "18_24")] * 5,
    *[({**SHELTER, **EARNED, "conditions_any": "no", **LEFT_EARNING}, True, "25_34")] * 6,
    *[({"prior_living": "rental_no_subsidy", **NO_INCOME}, False, "35_44")] * 5,
]


def _seed(cast, people=PEOPLE) -> int:
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    for n, (answers, left, age) in enumerate(people):
        # Left on 1 June, or on the day given.
        closed = at(left) if isinstance(left, str) else at("2026-06-01") if left else None
        hud_person(cast, n, at("2026-04-01"), answers, closed=closed, age=age, gender="woman")
    return cast.agency.pk


def _only(shown: list[tuple[str, str]], counts: dict[str, str], zero: str) -> list:
    """``shown``'s labels, each with its count in ``counts`` or ``zero``."""
    return [(label, counts.get(label, zero)) for label, _cells in shown]


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_the_youth_questions(cast):
    agency = _seed(cast)
    report = reports.release("hud", agency, YEAR)
    shown = _printed(report)
    sections = {s.code: s for s in report.sections}
    assert list(sections)[-len(YOUTH_SECTIONS) :] == YOUTH_SECTIONS
    assert shown["Q27a"] == [("12 - 17", "0"), ("18 - 24", "11"), ("Total", "11")]
    labels = reports.HUD_LIVING_LABELS | reports.HUD_PRIOR_LIVING_LABELS
    # Q27d: Q15's rows, the youth's: 6 from a shelter, 5 from family.
    assert ("Total", "22") in shown["Q15"]
    assert (labels["emergency_shelter"], "12") in shown["Q15"]
    assert shown["Q27d"] == _only(
        shown["Q15"],
        {
            labels["emergency_shelter"]: "6",
            "Subtotal - Homeless Situations": "6",
            labels["family_temporary"]: "5",
            "Subtotal - Temporary Situation": "5",
            "Total": "11",
        },
        "0",
    )
    # Q27e: Q22a1's rows and columns; the youth who left after 61 days, those who stay there
    # 183 days by the year's end.
    assert shown["Q27e"] == [
        *(
            (label, {"61 to 90 days": "6 6 0", "181 to 365 days": "5 0 5"}.get(label, "0 0 0"))
            for _code, label, _most in reports.HUD_LENGTHS
        ),
        ("Total", "11 6 5"),
    ]
    assert ("61 to 90 days", "12 12 0") in shown["Q22a1"]
    assert ("181 to 365 days", "10 0 10") in shown["Q22a1"]
    # Q27j: as Q22b, the youth's: they left after 61 days and stay 183 by the year's end; the
    # others' average (never published) tied to Q22b's with theirs.
    assert shown["Q27j"] == [("Average Length", "61 183"), ("Median Length", "61 183")]
    assert shown["Q22b"] == [("Average Length", "61 183"), ("Median Length", "61 183")]
    # Q27l: Q22e's rows (no project described: support houses on its first day), the youth's:
    # the six from a shelter homeless 31 days before, the five from family without a day.
    assert shown["Q27l"] == [
        *((label, "6" if code == "60" else "0") for code, label, _most in reports.HUD_PRIOR_DAYS),
        ("Total (persons moved into housing)", "6"),
        ("Not yet moved into housing", "0"),
        ("Data not collected", "5"),
        ("Total persons", "11"),
    ]
    assert ("31 to 60 days", "12") in shown["Q22e"] and ("Data not collected", "10") in shown[
        "Q22e"
    ]
    # Q27g: Q17's rows; the youth's earned income at start and at exit (Q17's 12 and 12).
    assert ("Earned Income", "12 0 12") in shown["Q17"]
    assert shown["Q27g"] == _only(shown["Q17"], {"Earned Income": "6 0 6"}, "0 0 0")
    # Q27h: Q18's rows, the youth's; the stayers not a year in, not yet assessed.
    assert shown["Q27h"] == [
        ("Youth with Only Earned Income (i.e., Employment Income)", "6 0 6"),
        ("Youth with Only Other Income", "0 0 0"),
        ("Youth with Both Earned and Other Income", "0 0 0"),
        ("Youth with No Income", "5 0 0"),
        ("Youth with Client Doesn't Know/Prefers Not to Answer Income Information", "0 0 0"),
        ("Youth with Missing Income Information", "0 0 0"),
        ("Number of youth stayers not yet required to have an annual assessment", "0 5 0"),
        ("Number of youth stayers without required annual assessment", "0 0 0"),
        ("Total Youth", "11 5 6"),
        ("1 or more source of income", "6 0 6"),
        # Q19a2's people among them: the six who left, with their earned income known at start
        # and at exit; no youth stayer assessed.
        ("Youth with Income Information at Start and Annual Assessment/Exit", "- 0 6"),
    ]
    # Q27i: Q19b's, of the youth who left, each with a disabling condition (Q19b's earned income
    # is 6 with and 6 without).
    table = {label: [c.text for c in cells] for label, cells in report.table(sections["Q27i"])}
    assert table.pop("Earned Income") == ["6", "0", "6", "100.00%"]
    assert table.pop("Unduplicated Total Youth") == ["6", "0", "6", ""]
    assert table.pop("No Sources") == ["0", "0", "0", "0.00%"]
    assert set(table) == set(reports.HUD_INCOME_SOURCES.values()) - {"Earned Income"}
    assert all(texts == ["0", "0", "0", "0.00%"] for texts in table.values())
    q19b = {label: [c.text for c in cells] for label, cells in report.table(sections["Q19b"])}
    assert q19b["Earned Income"] == ["6", "6", "12", "50.00%"]
    assert report.hidden == report.unpublished  # nothing hidden but what is never published
    assert_csv_prints(report, shown)

    # The ties: each count inside the same count of everyone's, the rest never published; the
    # totals Q27a's youth, and those who stay and who left inside Q5a's stayers and leavers.
    keys, values, sums = report.grid.keys, report.grid.values, report.grid.sums
    youth = keys[reports.HUD_YOUTH_KEY]
    assert sections["Q27d"].rows[-1].cells == [youth]
    assert sections["Q27h"].rows[-3].cells == [youth, keys["q27h:stayers"], keys["q27h:leavers"]]
    # "1 or more source of income": the first three rows' subtotal, tied to them.
    for column in ("start", "annual", "exit"):
        rows = [keys[f"q27h:{r}:{column}"] for r in ("earned", "other", "both")]
        assert (keys[f"q27h:any:{column}"], tuple(rows)) in sums
    assert sections["Q27h"].rows[-2].cells == [
        keys[f"q27h:any:{c}"] for c in ("start", "annual", "exit")
    ]
    # The youth whose income is known at start and then: inside Q18's (Q19a's people, all 12
    # leavers) and inside the youth who stay or left, each rest a count never published.
    known = [keys[f"q27h:known:{c}"] for c in ("annual", "exit")]
    assert sections["Q27h"].rows[-1].cells == known
    assert values[keys["q19a2:total"]] == 12
    for cell, whole, group in zip(
        known, ("q19a1:total", "q19a2:total"), ("q27h:stayers", "q27h:leavers"), strict=True
    ):
        assert any(w == keys[whole] and cell in parts for w, parts in sums)
        assert any(w == keys[group] and cell in parts for w, parts in sums)
    assert (youth, (keys["q27h:stayers"], keys["q27h:leavers"])) in sums
    assert sections["Q27i"].rows[-1].cells[2] == keys["q27h:leavers"]
    assert sections["Q27e"].rows[-1].cells[0] == youth
    assert sections["Q27l"].rows[-1].cells == [youth]
    for column in ("leavers", "stayers"):
        assert (keys[f"q27h:{column}"], (keys[f"q27e:*:{column}"],)) in sums
    assert sections["Q27i"].rows[0].cells[2] == keys["q27g:earned:exit"]
    for whole, part, left in (
        ("q15:emergency_shelter", "q27d:emergency_shelter", 6),
        ("q15:temporary", "q27d:temporary", 0),
        ("q17:earned:start", "q27g:earned:start", 6),
        ("q18:none:start", "q27h:none:start", 5),
        ("q5a:stayers", "q27h:stayers", 5),
        ("q5a:leavers", "q27h:leavers", 6),
        ("q22:90:leavers", "q27e:90:leavers", 6),
        ("q22:365:stayers", "q27e:365:stayers", 5),
        ("q22e:60", "q27l:60", 6),
        ("q22e:dnc", "q27l:dnc", 5),
        ("q19b:earned:with", "q27i:earned:with", 0),
        ("q19b:earned:without", "q27i:earned:without", 6),
    ):
        rest = next(m[1] for t, m in sums if t == keys[whole] and m[0] == keys[part])
        assert rest in report.unpublished and values[rest] == left, whole
    for column in ("leavers", "stayers"):
        others = keys[f"q27j:average:rest:{column}"]
        assert report.about[others] == keys[f"q27h:rest:q5a:{column}"]
        whole, youth_average = keys[f"q22b:average:{column}"], keys[f"q27j:average:{column}"]
        assert (whole, [youth_average, others]) in report.shares
        assert others not in report.displayed
    # Built on its own (each person's answers read in the HUD pass, not a release's): the same.
    alone = reports.build("hud", agency, YEAR)
    youth_keys = [
        k
        for k in keys
        if k.startswith(("q27d:", "q27e:", "q27g:", "q27h:", "q27i:", "q27j", "q27l"))
    ]
    assert len(youth_keys) > 100
    for key in youth_keys:
        assert alone.grid.values[alone.grid.keys[key]] == values[keys[key]], key


@time_machine.travel(TODAY, tick=False)
def test_a_youth_whose_answers_were_saved_before_they_were_kept_together(cast):
    """Answers saved one question to a column (before caseflow kept them in one token) are read
    after every HUD answer: the youth among them are counted as the youth all the same."""
    agency = _seed(cast)
    sealed = reports.build("hud", agency, YEAR)
    Demographics.objects.filter(case__agency_id=agency).update(all_answers=None)
    loose = reports.build("hud", agency, YEAR)
    assert loose.grid.values == sealed.grid.values
    assert loose.grid.keys == sealed.grid.keys
    assert loose.grid.values[loose.grid.keys["q27g:earned:start"]] == 6


@time_machine.travel(TODAY, tick=False)
def test_one_youth_aged_17_is_never_told(cast):
    """One more woman, aged 17, who came from a place not meant for habitation, with earned
    income, and stays: a count of one in every youth table. She is hidden in each, with the
    fewest complements, and neither she nor any small count can be worked out from what the
    year publishes; the everyone's counts that do not need hiding print."""
    people = [
        *PEOPLE,
        ({"prior_living": "place_not_meant", **EARNED}, False, "13_17"),
    ]
    agency = _seed(cast, people)
    report = reports.release("hud", agency, YEAR)
    shown = _printed(report)
    keys, values = report.grid.keys, report.grid.values
    for key in ("q27d:place_not_meant", "q27g:earned:annual", "demo:age_band:13_17"):
        assert values[keys[key]] in (0, 1), key
    assert keys["q27d:place_not_meant"] in report.hidden
    assert keys["demo:age_band:13_17"] in report.hidden
    assert not small_counts_told(report)
    # The people served, the leavers and the stayers, and everyone's households print.
    for key in ("served", "q5a:leavers", "q5a:stayers"):
        assert keys[key] not in report.hidden, key
    assert shown["Q5a"][0] == ("Total number of persons served", "23")
    assert_csv_prints(report, shown)


@time_machine.travel(TODAY, tick=False)
def test_the_youths_average_does_not_tell_two_others(cast):
    """The six youth who left and two more leavers aged 35 to 44 who left on 1 July: Q22b's
    average of the eight and Q27j's of the six would tell the two's together. One of them is
    hidden, or a count it needs (the two are a count from 1 to 4)."""
    people = [p for p in PEOPLE if p[2] == "18_24"]
    left = {**SHELTER, **EARNED, "conditions_any": "no", **LEFT_EARNING}
    people += [(left, "2026-07-01", "35_44")] * 2
    agency = _seed(cast, people)
    report = reports.release("hud", agency, YEAR)
    keys, values = report.grid.keys, report.grid.values
    youth, everyone = keys["q27j:average:leavers"], keys["q22b:average:leavers"]
    assert (values[youth], values[everyone]) == (61, 69)  # (6 * 61 + 2 * 91) / 8 = 68.5
    assert report.shown(youth).value is None or report.shown(everyone).value is None


@time_machine.travel(TODAY, tick=False)
def test_the_youths_days_to_move_in(cast):
    """Q27k, a rapid re-housing project: twenty-two women supported from 1 April 2026; six youth
    moved in on 10 May (39 days) and five left on 1 June without moving in; six aged 25 to 34
    moved in on 8 April (7 days) and five aged 35 to 44 left without moving in. Q22c's counts
    everyone's; Q27k's each count lies inside Q22c's, and the youth's average (39) is shown with
    their count, the others being six."""
    rapid_rehousing(cast)
    people = [
        *[({"move_in_on": "2026-05-10"}, False, "18_24")] * 6,
        *[({}, True, "18_24")] * 5,
        *[({"move_in_on": "2026-04-08"}, False, "25_34")] * 6,
        *[({}, True, "35_44")] * 5,
    ]
    agency = _seed(cast, people)
    report = reports.release("hud", agency, YEAR)
    shown = _printed(report)
    by_band = {"7 days or less": "6", "31 to 60 days": "6"}
    assert shown["Q22c"] == [
        *((label, by_band.get(label, "0")) for _code, label, _most in reports.HUD_MOVE_IN_DAYS),
        ("Total (persons moved into housing)", "12"),
        ("Average length of time to housing", "23"),  # (6 * 7 + 6 * 39) / 12
        ("Persons who were exited without move-in", "10"),
        ("Total persons", "22"),
    ]
    assert shown["Q27k"] == [
        *(
            (label, "6" if label == "31 to 60 days" else "0")
            for _code, label, _most in reports.HUD_MOVE_IN_DAYS
        ),
        ("Total (persons moved into housing)", "6"),
        ("Average length of time to housing", "39"),
        ("Persons who were exited without move-in", "5"),
        ("Total persons", "11"),
    ]
    sections = {s.code: s for s in report.sections}
    assert sections["Q27k"].title == (
        "Q27k: Length of Time between Project Start Date and Housing Move-in Date - Youth"
    )
    codes = list(sections)
    assert codes.index("Q27j") + 1 == codes.index("Q27k") == codes.index("Q27l") - 1
    keys, values, sums = report.grid.keys, report.grid.values, report.grid.sums
    for code, left in (("60", 0), ("7", 6), ("moved", 6), ("left_without", 5), ("total", 11)):
        part, whole = keys[f"q27k:{code}"], keys[f"q22c:{code}"]
        rest = next(m[1] for t, m in sums if t == whole and m[0] == part)
        assert rest in report.unpublished and values[rest] == left, code
    # Tied to the youth who left and to the youth as Q22c's are to Q5a's.
    moved_left, waiting = keys["q27k:moved_leavers"], keys["q27k:stayers_waiting"]
    assert (values[moved_left], values[waiting]) == (0, 0)
    assert (keys["q27h:leavers"], (keys["q27k:left_without"], moved_left)) in sums
    assert (keys[reports.HUD_YOUTH_KEY], (keys["q27k:total"], waiting)) in sums
    # The others' average (7, never published) tied with the youth's to Q22c's.
    others = keys["q27k:average:rest"]
    assert values[others] == 7 and others not in report.displayed
    assert (keys["q22c:average"], [keys["q27k:average"], others]) in report.shares
    assert_csv_prints(report, shown)
