"""A report counts its agency's days, whoever builds it and wherever it is built.

Four survivors of an agency in New York whose cases were opened on the evening of 31 December
2026 there, which is the small hours of 1 January 2027 in UTC and in London: their advocate
dated them in the federal year's first quarter (October to December), and every report must
count them there, whether it is built in a page for someone in another zone or by a worker that
runs in UTC. Two more, opened that morning, were closed on the evening of 30 January 2027 in
New York: 30 days of support by the agency's calendar, 31 by UTC's.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import zoneinfo

import pytest
import time_machine

from caseflow.accounts import zones
from caseflow.accounts.models import Role
from caseflow.cases.models import (
    CaseStatus,
    Episode,
    EpisodeStart,
    FieldSetting,
    IntakeField,
    PartyRole,
)
from caseflow.partners import hud
from caseflow.partners.models import Demographics, HudAnswers
from caseflow.reporting import reports
from tests import factories as f
from tests.reporting.test_report_cells import _printed

pytestmark = pytest.mark.django_db

NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
LONDON = zoneinfo.ZoneInfo("Europe/London")
OPENED = dt.datetime(2026, 12, 31, 21, tzinfo=NEW_YORK)
MORNING = dt.datetime(2026, 12, 31, 10, tzinfo=NEW_YORK)
CLOSED = dt.datetime(2027, 1, 30, 22, tzinfo=NEW_YORK)
FIRST_QUARTER = reports.federal_quarter(dt.date(2026, 10, 1))
SECOND_QUARTER = reports.federal_quarter(dt.date(2027, 1, 1))
YEAR = reports.federal_year(2027)


@pytest.fixture
def evening(db):
    agency = f.AgencyFactory(name="Agency NY", time_zone="America/New_York")
    team = f.TeamFactory(agency=agency, name="Team NY")
    advocate = f.staff(agency, Role.ADVOCATE, [team], username="advocate_ny")
    for n in range(6):
        opened = MORNING if n < 2 else OPENED
        case = f.open_case(team, assignees=[advocate], reference=f"E-{n}", opened_at=opened)
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
        Demographics(case=case, party=party, age_band="25_34", race_ethnicity="white").save()
        Episode.objects.create(case=case, number=1, start=EpisodeStart.REFERRAL, opened_at=opened)
        if n < 2:
            case.status = CaseStatus.CLOSED
            case.closed_at = CLOSED
            case.save(update_fields=["status", "closed_at"])
    return agency.pk


def _where(place: str):
    """A worker (no zone: UTC), a page of someone in London, a page in the agency's zone."""
    if place == "worker":
        return contextlib.nullcontext()
    return zones.using(LONDON if place == "london" else NEW_YORK)


def _value(text: str) -> int:
    return int(text.lstrip("*"))


def _row(report: reports.FunderReport, section: str, label: str) -> list[int]:
    return [_value(t) for t in dict(_printed(report)[section])[label].split(" ")]


@pytest.mark.parametrize("place", ["worker", "london", "new_york"])
@time_machine.travel(dt.datetime(2027, 11, 15, 12, tzinfo=dt.UTC), tick=False)
def test_a_case_opened_on_the_quarters_last_evening_is_new_in_that_quarter(evening, place):
    with _where(place):
        first = reports.release("voca", evening, FIRST_QUARTER)
        second = reports.release("voca", evening, SECOND_QUARTER)
    section = "New, returning and continuing"
    assert _row(first, section, "New in this period") == [6]
    assert _row(first, section, "People served") == [6]
    assert _row(second, section, "New in this period") == [0]
    assert _row(second, section, "Continuing from before") == [6]


@pytest.mark.parametrize("place", ["worker", "london", "new_york"])
@time_machine.travel(dt.datetime(2027, 11, 15, 12, tzinfo=dt.UTC), tick=False)
def test_the_length_of_participation_counts_the_agencys_days(evening, place):
    with _where(place):
        hud = reports.release("hud", evening, YEAR)
    # Total, leavers, stayers (Q22a1's columns): the two leavers were supported 30 of New
    # York's days.
    assert _row(hud, "Q22a1", "30 days or less") == [2, 2, 0]
    assert _row(hud, "Q22a1", "31 to 60 days") == [0, 0, 0]
    # Q22a2's last band of the first month, not the next (31 of UTC's days).
    assert _row(hud, "Q22a2", "22 to 30 days") == [2, 2, 0]
    assert _row(hud, "Q22a2", "31 to 60 days") == [0, 0, 0]
    # The ESG CAPER names its first band from day 0; Q22a1's first month is one band.
    assert _row(hud, "Q22a2", "0 to 7 days") == [0, 0, 0]
    q22a2 = next(s for s in hud.sections if s.code == "Q22a2")
    assert [r.label for r in q22a2.rows[:4]] == [
        "0 to 7 days",
        "8 to 14 days",
        "15 to 21 days",
        "22 to 30 days",
    ]


def test_a_periods_bounds_are_the_zone_in_forces_midnights():
    with zones.using(NEW_YORK):
        assert FIRST_QUARTER.since == dt.datetime(2026, 10, 1, tzinfo=NEW_YORK)
        assert FIRST_QUARTER.until == dt.datetime(2027, 1, 1, tzinfo=NEW_YORK)
    assert FIRST_QUARTER.until == dt.datetime(2027, 1, 1, tzinfo=dt.UTC)


@pytest.mark.parametrize("place", ["worker", "london", "new_york"])
@time_machine.travel(dt.datetime(2027, 11, 15, 12, tzinfo=dt.UTC), tick=False)
def test_the_timeliness_of_answers_counts_the_agencys_days(evening, place):
    # The two supported from the morning had their answers saved that evening (the next day in
    # UTC), and their answers at exit the morning after they left in the evening (the same
    # day in UTC): no day late at the start and one at exit by New York's calendar.
    FieldSetting.objects.create(agency_id=evening, field=IntakeField.HUD_ANSWERS, hidden=False)
    for episode in Episode.objects.filter(case__agency_id=evening, opened_at=MORNING):
        row = HudAnswers(case=episode.case, episode=episode, answers=hud.blank())
        row.save()
        HudAnswers.objects.filter(pk=row.pk).update(
            recorded_at=dt.datetime(2026, 12, 31, 21, tzinfo=NEW_YORK),
            exit_recorded_at=dt.datetime(2027, 1, 31, 9, tzinfo=NEW_YORK),
        )
    with _where(place):
        report = reports.release("hud", evening, YEAR)
    # Start records, exit records (Q6e's columns).
    assert _row(report, "Q6e", "0 days") == [2, 0]
    assert _row(report, "Q6e", "1-3 days") == [0, 2]
