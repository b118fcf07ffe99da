"""Q10d, everyone served by gender and by age, Q27a, the youth by age, and Q27c, the youth by
gender, against a population counted by hand.

Thirty-three survivors of one agency, all supported from 1 April 2026 (the federal year 2026)
and still supported, so the year's quarters from April count the same people as the year:

- sixteen women: six aged 18 to 24, five 25 to 34, five 35 to 44;
- five men: two aged 25 to 34, three 35 to 44;
- two non-binary people aged 18 to 24;
- five who declined the gender question, aged 65 or over;
- five never asked their gender, aged 13 to 17.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.reporting import reports
from tests.reporting.hud_people import at, hud_person
from tests.reporting.test_hud_cells import HEADINGS
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)

PEOPLE = (
    [("woman", "18_24")] * 6
    + [("woman", "25_34")] * 5
    + [("woman", "35_44")] * 5
    + [("man", "25_34")] * 2
    + [("man", "35_44")] * 3
    + [("non_binary", "18_24")] * 2
    + [("declined", "65_plus")] * 5
    + [(None, "13_17")] * 5
)


@pytest.fixture
def population(cast):
    for n, (gender, age) in enumerate(PEOPLE):
        hud_person(cast, n, at("2026-04-01"), None, age=age, gender=gender)
    return cast.agency.pk


#: Every cell as printed (Total, Under Age 18, Age 18-24, Age 25-64, Age 65 and over, Client
#: Doesn't Know/Prefers Not to Answer, Data Not Collected), "*" before a hidden one. Why:
#:
#: - the two non-binary people aged 18 to 24 are a count from 1 to 4 (their row's total, Q10a's
#:   cell, and their 18-24);
#: - Q11's 8 aged 18 to 24 less the 6 women of that age would give the two away: the women's 6
#:   hides, and with it their 10 aged 25 to 64 (their 16 less the 6);
#: - Q10a's total less its published rows would give the two away: the men's 5 hides, and with
#:   it their 5 aged 25 to 64, so that the women's and the men's 25-64 (15 together, Q11's 7
#:   and 8) are read together. Hiding the 5 never asked their gender instead, as this table did
#:   before, left the two and the 5 adding up to 7 beside Q11's 5 aged 13 to 17 and 8 aged 18
#:   to 24, both hidden: a reader who knows a "*" is never 0 (zeros are printed) works the
#:   counts out through their bounds;
#: - no zero hides (a zero is never a complement: a reader knows a hidden count is never below
#:   0, so a hidden 0 keeps a count hidden on one side only).
EXPECTED = {
    "Q10d": [
        ("Woman", "16 0 *6 *10 0 0 0"),
        ("Man", "*5 0 0 *5 0 0 0"),
        ("Culturally Specific Identity", "0 0 0 0 0 0 0"),
        ("Transgender", "0 0 0 0 0 0 0"),
        ("Non-Binary", "*2 0 *2 0 0 0 0"),
        ("Questioning", "0 0 0 0 0 0 0"),
        ("Different Identity", "0 0 0 0 0 0 0"),
        ("Client Doesn't Know/Prefers Not to Answer", "5 0 0 0 5 0 0"),
        ("Data Not Collected", "5 5 0 0 0 0 0"),
        ("Total", "33 5 8 15 5 0 0"),
    ],
    "Q10a": [
        ("Woman", "16"),
        ("Man", "*5"),
        ("Culturally Specific Identity", "0"),
        ("Transgender", "0"),
        ("Non-Binary", "*2"),
        ("Questioning", "0"),
        ("Different Identity", "0"),
        ("Client Doesn't Know/Prefers Not to Answer", "5"),
        ("Data Not Collected", "5"),
        ("Total", "33"),
    ],
}


@time_machine.travel(TODAY, tick=False)
def test_every_cell_of_gender_by_age(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert {code: shown[code] for code in EXPECTED} == EXPECTED
    assert_csv_prints(report, shown)
    # Q11's bands are printed as they were but the two that keep the non-binary people hidden.
    assert [count for _label, count in shown["Q11"]] == [
        *("0", "0", "5", "8", "7", "8", "0", "0", "5", "0", "0", "33"),
    ]
    sections = {s.code: s for s in report.sections}
    q10d = sections["Q10d"]
    title, columns = HEADINGS["Q10d"]
    assert (q10d.title, q10d.columns) == (f"Q10d: {title}", columns)
    codes = list(sections)
    assert codes.index("Q10a") + 1 == codes.index("Q10d") == codes.index("Q11") - 1
    # Its total column is Q10a's cells and its total row Q11's (Under 18 and 25-64: its bands
    # added up, the same cells another report banding the same ages prints).
    g, keys = report.grid, report.grid.keys
    assert [row.cells[0] for row in q10d.rows] == [row.cells[0] for row in sections["Q10a"].rows]
    q11 = {row.label: row.cells[0] for row in sections["Q11"].rows}
    assert q10d.rows[-1].cells[2] == q11["18-24"] and q10d.rows[-1].cells[4] == q11["65+"]
    under_18 = keys["demo:age_band:13_17+under_13"]
    assert q10d.rows[-1].cells[1] == under_18
    assert (under_18, (keys["demo:age_band:under_13"], keys["demo:age_band:13_17"])) in g.sums
    # Each pair of answers someone gave is a count of its own, never published unless a cell is
    # that pair alone, tied to both answers' counts: the women's 25-64 is their 25-34 and 35-44.
    pair = {k.removeprefix("q10d:pair:"): c for k, c in keys.items() if k.startswith("q10d:pair:")}
    assert g.values[pair["woman:25_34"]] == 5 and g.values[pair["man:35_44"]] == 3
    assert (keys["q10d:woman:25_64"], (pair["woman:25_34"], pair["woman:35_44"])) in g.sums
    column = tuple(pair[f"{gender}:25_34"] for gender in ("woman", "man", "non_binary"))
    assert (
        keys["demo:age_band:25_34"],
        column + (pair["declined:25_34"], pair["not_asked:25_34"]),
    ) in g.sums
    assert {pair["woman:25_34"], pair["man:25_34"]} <= report.unpublished
    # A pair no one can have given is no count of its own: no one answered "transgender", so
    # its row's cells are zeros in no sum.
    assert not any(k.startswith(("q10d:pair:transgender", "q10d:pair:questioning")) for k in keys)
    # (Q27c's youth by gender add them up too, but take no part in suppression: their sums are
    # the grid's only once it has chosen.)
    youth_genders = {c for k, c in keys.items() if k.startswith("q27c:")}
    in_sums = {
        c for total, members in g.sums if total not in youth_genders for c in (total, *members)
    }
    assert not set(sections["Q10d"].rows[3].cells[1:]) & in_sums
    # No count from 1 to 4, published or not (the men's 2 aged 25 to 34 and 3 aged 35 to 44, the
    # non-binary people's 2), can be worked out from what is published.
    small = {c for c, v in enumerate(g.values) if 0 < v < 5}
    assert {pair["man:25_34"], pair["man:35_44"], pair["non_binary:18_24"]} <= small
    assert report.threshold == 5
    assert not small_counts_told(report)


@time_machine.travel(TODAY, tick=False)
def test_the_youth_by_age(population):
    """Q27a: the youth are the 5 aged 13 to 17 (never asked their gender) and the 8 aged 18 to
    24 (six women, two non-binary people): Q11's bands and Q10d's columns of those ages (the
    same cells, printed: the two non-binary people hide with the women's 6), and their total,
    13, which adds up the two."""
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert shown["Q27a"] == [("12 - 17", "5"), ("18 - 24", "8"), ("Total", "13")]
    sections = {s.code: s for s in report.sections}
    q27a, q10d = sections["Q27a"], sections["Q10d"]
    assert (q27a.title, q27a.columns) == ("Q27a: Age of Youth", ["Total"])
    # HUD's last tables, after every other asked here.
    assert list(sections)[-2:] == ["Q27a", "Q27c"]
    under_18, aged_18_24 = q10d.rows[-1].cells[1:3]
    assert [row.cells for row in q27a.rows[:2]] == [[under_18], [aged_18_24]]
    q11 = {row.label: row.cells[0] for row in sections["Q11"].rows}
    assert aged_18_24 == q11["18-24"]
    youth = q27a.rows[-1].cells[0]
    assert (youth, (under_18, aged_18_24)) in report.grid.sums
    assert_csv_prints(report, shown)


@time_machine.travel(TODAY, tick=False)
def test_the_youth_by_gender(population):
    """Q27c: the 13 youth by gender, under 18 and 18 to 24: Q10d's two columns (the same cells,
    hidden where Q10d hides them) and each row's total, their sum. The totals tell nothing Q10d
    does not, so they take no part in suppression: each is printed where a reader of Q10d works
    it out, hidden otherwise (the women's 6 and the non-binary people's 2, each beside a hidden
    cell of Q10d); the total row is Q27a's. It costs nothing: Q10d, Q10a and Q11 print as
    without it (``test_every_cell_of_gender_by_age``)."""
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert shown["Q27c"] == [
        ("Woman", "*6 0 *6"),
        ("Man", "0 0 0"),
        ("Culturally Specific Identity", "0 0 0"),
        ("Transgender", "0 0 0"),
        ("Non-Binary", "*2 0 *2"),
        ("Questioning", "0 0 0"),
        ("Different Identity", "0 0 0"),
        ("Client Doesn't Know/Prefers Not to Answer", "0 0 0"),
        ("Data Not Collected", "5 5 0"),
        ("Total", "13 5 8"),
    ]
    sections = {s.code: s for s in report.sections}
    q27c, q10d, q27a = sections["Q27c"], sections["Q10d"], sections["Q27a"]
    title, columns = HEADINGS["Q27c"]
    assert (q27c.title, q27c.columns) == (f"Q27c: {title}", columns)
    g = report.grid
    for row, of in zip(q27c.rows[:-1], q10d.rows[:-1], strict=True):
        assert row.cells[1:] == of.cells[1:3]
        # Each total is the sum of its row, a sum the release's checks read.
        assert (row.cells[0], tuple(row.cells[1:])) in g.sums
    assert q27c.rows[-1].cells == [q27a.rows[-1].cells[0], *q10d.rows[-1].cells[1:3]]
    assert not small_counts_told(report)
    assert_csv_prints(report, shown)


@time_machine.travel(TODAY, tick=False)
def test_a_survivor_under_13_is_counted_a_youth_aged_12_to_17(cast):
    """caseflow's youngest band is "under 13": a survivor in it heads her own household, so she
    is a youth, counted with those aged 13 to 17 in HUD's row "12 - 17"."""
    ages = ["under_13"] * 5 + ["13_17"] * 5 + ["18_24"] * 5 + ["25_34"] * 5
    for n, age in enumerate(ages):
        hud_person(cast, n, at("2026-04-01"), None, age=age, gender="woman")
    shown = _printed(reports.release("hud", cast.agency.pk, YEAR))
    assert shown["Q27a"] == [("12 - 17", "10"), ("18 - 24", "5"), ("Total", "15")]
    assert [count for _label, count in shown["Q11"][:4]] == ["0", "5", "5", "5"]
