"""HUD's timeliness of data entry (Q6e), against a population counted by hand.

In the federal year 2026 (October 2025 to September 2026), an agency that asks HUD's questions:

- fifteen survivors whose support began on 1 April 2026, their answers first saved that day
  (five: four that day and one two days before, from the referral, counted in "< 0 days"),
  two days later (five) or nineteen days later (five);
- of them, ten left on 1 June 2026: five had their answers at exit given that day, five eleven
  days later;
- not counted: two whose support began before the year (no start in it), one whose answers were
  saved before caseflow kept the day (no start), and a leaver whose answers at exit were (her
  start, on the day, counts; her exit does not).
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.cases.models import Episode, IntakeField, PartyRole
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud
from caseflow.partners.models import HudAnswers
from caseflow.reporting import reports
from tests import factories as f
from tests.reporting.hud_people import at, close
from tests.reporting.test_report_cells import _printed

pytestmark = pytest.mark.django_db

UTC = dt.UTC
YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=UTC)


def _person(cast, n, began, recorded, closed=None, exit_recorded=None):
    case = f.open_case(cast.team1, assignees=[cast.assigned], opened_at=at(began))
    f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
    episode = Episode.objects.create(case=case, number=1, opened_at=at(began))
    row = HudAnswers(case=case, episode=episode, answers=hud.blank())
    row.save()
    HudAnswers.objects.filter(pk=row.pk).update(
        recorded_at=at(recorded) if recorded else None,
        exit_recorded_at=at(exit_recorded) if exit_recorded else None,
    )
    if closed:
        close(case, episode, at(closed))


@pytest.fixture
def population(cast):
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    recorded = ["2026-03-30"] + ["2026-04-01"] * 4 + ["2026-04-03"] * 5 + ["2026-04-20"] * 5
    for n, day in enumerate(recorded):
        if n < 5:
            _person(cast, n, "2026-04-01", day, "2026-06-01", "2026-06-01")
        elif n < 10:
            _person(cast, n, "2026-04-01", day, "2026-06-01", "2026-06-12")
        else:
            _person(cast, n, "2026-04-01", day)
    _person(cast, 15, "2025-06-01", "2025-06-01")
    _person(cast, 16, "2025-06-01", "2025-06-20")
    _person(cast, 17, "2026-04-01", None)
    _person(cast, 18, "2026-04-01", "2026-04-01", "2026-06-01", None)
    return cast.agency.pk


@time_machine.travel(TODAY, tick=False)
def test_the_days_to_record_a_start_and_an_exit(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    assert shown["Q6e"] == [
        ("< 0 days", "*1 0"),  # hidden: 1, in no sum, so nothing else need be
        ("0 days", "5 5"),  # with the one whose exit was not kept
        ("1-3 days", "5 0"),
        ("4-6 days", "0 0"),
        ("7-10 days", "0 0"),
        ("11+ days", "5 5"),
    ]
    codes = [s.code for s in report.sections]
    assert codes.index("Q6c") + 2 == codes.index("Q6d") + 1 == codes.index("Q6e")


@pytest.mark.parametrize(
    ("days", "band"),
    [(-30, "negative"), (-1, "negative"), (0, "0"), (1, "3"), (3, "3"), (4, "6"), (7, "10")]
    + [(10, "10"), (11, "more")],
)
def test_the_timeliness_bands_hold_their_last_day(days, band):
    assert reports.hud_timeliness_band(days) == band
