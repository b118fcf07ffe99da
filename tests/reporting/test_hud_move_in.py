"""A permanent housing project's days to move in (Q22c), and its days from homelessness to
housing counted to the day people moved in (Q22e), against a population counted by hand.

Twenty-seven survivors of a rapid re-housing project, in the federal year 2026 (October 2025
to September 2026):

- fifteen moved in on 1 March 2026, 0 to 730 days after their support began, five in each of
  three bands (7 days or less; 31 to 60 days; 366 to 730 days), their homelessness begun ten
  days before support for ten of them and not known for five;
- five left in March 2026 without moving in;
- five stayers who have not moved in yet;
- one who moved in on 15 October 2026, after the year: not yet moved in, in the year;
- one who moved in on 1 January 2025, before the year: housed (Q22e), but not one of the year's
  moves into housing (Q22c), as HUD counts them.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.partners.models import HudProject, HudProjectType
from caseflow.reporting import reports
from tests.reporting.hud_people import hud_person, rapid_rehousing
from tests.reporting.test_report_cells import _printed, assert_csv_prints

pytestmark = pytest.mark.django_db

UTC = dt.UTC
YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)
MOVED = dt.date(2026, 3, 1)
#: Days from the start of support to moving in, five in each band.
DAYS = [0, 3, 5, 7, 7, 31, 40, 45, 50, 60, 366, 400, 500, 600, 730]


def _at(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(10), tzinfo=UTC)


def _person(cast, n: int, began: dt.date, answers: dict, closed: dt.date | None = None) -> None:
    hud_person(cast, n, _at(began), answers, closed=_at(closed) if closed else None)


@pytest.fixture
def project(cast):
    row = rapid_rehousing(cast, coc_number="CA-600", geocode="069037")
    for n, days in enumerate(DAYS):
        began = MOVED - dt.timedelta(days=days)
        answers = {"move_in_on": MOVED.isoformat()}
        if n % 3:  # ten of the fifteen know the day their homelessness began
            answers["homeless_since"] = (began - dt.timedelta(days=10)).isoformat()
        _person(cast, n, began, answers)
    for n in range(5):
        _person(cast, 15 + n, dt.date(2025, 11, 1), {}, closed=dt.date(2026, 3, 1))
    for n in range(5):
        _person(cast, 20 + n, dt.date(2026, 1, 5), {"homeless_since": "2025-12-01"})
    _person(cast, 25, dt.date(2026, 9, 1), {"move_in_on": "2026-10-15"})
    _person(
        cast, 26, dt.date(2024, 6, 1), {"move_in_on": "2025-01-01", "homeless_since": "2024-05-01"}
    )
    return row


@time_machine.travel(TODAY, tick=False)
def test_the_days_to_move_in_and_to_housing_of_a_permanent_housing_project(project, cast):
    report = reports.release("hud", cast.agency.pk, YEAR)
    shown = _printed(report)
    assert shown["Q22c"] == [
        ("7 days or less", "5"),
        ("8 to 14 days", "0"),
        ("15 to 21 days", "0"),
        ("22 to 30 days", "0"),
        ("31 to 60 days", "5"),
        ("61 to 90 days", "0"),
        ("91 to 180 days", "0"),
        ("181 to 365 days", "0"),
        ("366 to 730 days (1-2 Yrs)", "5"),
        ("731 days or more", "0"),
        ("Total (persons moved into housing)", "15"),
        # (22 + 226 + 2,596) / 15 = 189.6 days, a figure about the fifteen.
        ("Average length of time to housing", "190"),
        # The leavers who left without moving in are all five leavers, whom Q5a hides in this
        # small year (its leavers tied to these through the leavers who moved in, none here, a
        # count never published): hidden with them, and so is the total (the 15 moved in and
        # the 5): printed, the two would tell Q5a's leavers, and with them counts a reader
        # pins down through their bounds (a "*" is never 0, zeros being printed).
        ("Persons who were exited without move-in", "*5"),
        ("Total persons", "*20"),
    ]
    # Q22e: from the day homelessness began (ten days before support for ten of the fifteen)
    # to the day they moved in: 13 days; 15 and 17; 41, 55 and 60; 376, 410 and 610; 740; and
    # 245 for the one housed before the year. The five who do not know it are not collected;
    # the eleven who have not moved in by the year's end (five leavers, five stayers, one after
    # the year) are "not yet moved into housing".
    values = {label: int(text.lstrip("*")) for label, text in shown["Q22e"]}
    assert values == {
        "7 days or less": 0,
        "8 to 14 days": 1,
        "15 to 21 days": 2,
        "22 to 30 days": 0,
        "31 to 60 days": 3,
        "61 to 90 days": 0,
        "91 to 180 days": 0,
        "181 to 365 days": 1,
        "366 to 730 days (1-2 Yrs)": 3,
        "731 days or more": 1,
        "Total (persons moved into housing)": 11,
        "Not yet moved into housing": 11,
        "Data not collected": 5,
        "Total persons": 27,
    }
    # Every count from 1 to 4 is hidden.
    hidden = {label for label, text in shown["Q22e"] if text.startswith("*")}
    assert {label for label, v in values.items() if 1 <= v <= 4} <= hidden
    assert_csv_prints(report, shown)
    sections = {s.code: s for s in report.sections}
    codes = list(sections)
    assert codes.index("Q22c") == codes.index("Q22b") + 1 == codes.index("Q22d") - 1
    assert codes.index("Q22d") + 1 == codes.index("Q22e")
    keys = report.grid.keys
    assert (keys["q22c:total"], (keys["q22c:moved"], keys["q22c:left_without"])) in report.grid.sums
    # Tied to Q5a through cells no row shows: the leavers who moved in (none here) and the rest
    # no row counts (seven: five who have not moved in, one who moved in after the year, one
    # before it).
    moved_left, waiting = keys["q22c:moved_leavers"], keys["q22c:stayers_waiting"]
    assert (report.grid.values[moved_left], report.grid.values[waiting]) == (0, 7)
    assert (keys["q5a:leavers"], (keys["q22c:left_without"], moved_left)) in report.grid.sums
    assert (keys["served"], (keys["q22c:total"], waiting)) in report.grid.sums
    assert {moved_left, waiting} <= report.unpublished


@time_machine.travel(TODAY, tick=False)
def test_a_project_that_is_not_permanent_housing_has_no_days_to_move_in(project, cast):
    HudProject.objects.filter(pk=project.pk).update(
        project_type=HudProjectType.ES_ENTRY_EXIT, rrh_subtype=""
    )
    # Her homelessness began after her support did: a mistake, not collected (HUD's rule).
    _person(cast, 27, dt.date(2026, 2, 1), {"homeless_since": "2026-02-10"})
    report = reports.release("hud", cast.agency.pk, YEAR)
    assert "Q22c" not in _printed(report)
    # Its day of housing is the first day of support: no one is waiting to move in.
    assert report.grid.values[report.grid.keys["q22e:not_yet"]] == 0
    # Not collected: the five of the fifteen who do not know the day, the five leavers and the
    # one who came in September (no day given), and the one whose day is after her start.
    assert report.grid.values[report.grid.keys["q22e:dnc"]] == 12
    assert "no one is waiting to move in" in {s.code: s for s in report.sections}["Q22e"].note


@pytest.mark.parametrize(
    "kind", [HudProjectType.SERVICES_ONLY, HudProjectType.OUTREACH, HudProjectType.PREVENTION]
)
@time_machine.travel(TODAY, tick=False)
def test_a_project_that_houses_no_one_has_no_days_to_housing(project, cast, kind):
    HudProject.objects.filter(pk=project.pk).update(project_type=kind, rrh_subtype="")
    report = reports.release("hud", cast.agency.pk, YEAR)
    codes = [s.code for s in report.sections]
    assert "Q22e" not in codes and "Q22c" not in codes
    assert "q22e:not_yet" not in report.grid.keys
    # The rest of its questions are there.
    assert {"Q5a", "Q22a1", "Q22b", "Q23c"} <= set(codes)
