"""A federal year as it is given out: its FVPSA and HUD reports and its four VOCA quarters read
together. Services counted by the day they were given (so the year's count is its quarters'
sum, even for a service given after its case was closed), and each person's answers opened once
for the whole release."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.cases.models import CaseStatus, Channel, PartyRole
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.partners.models import Demographics
from caseflow.reporting import reports
from tests import factories as f

pytestmark = pytest.mark.django_db

TODAY = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.UTC)
#: The latest federal year that has ended by TODAY: October 2025 to September 2026.
YEAR = reports.federal_year(2026)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(TODAY, tick=False) as traveller:
        yield traveller


def _people(cast, count: int) -> list:
    cases = []
    for n in range(count):
        case = f.open_case(
            cast.team1,
            assignees=[cast.assigned],
            reference=f"Y-{n}",
            opened_at=dt.datetime(2025, 6, 2, 10, tzinfo=dt.UTC),
        )
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
        Demographics(case=case, party=party, age_band="25_34", race_ethnicity="white").save()
        cases.append(case)
    return cases


def _done(case, user, when: dt.datetime) -> None:
    CheckIn.objects.create(
        case=case,
        agency_id=case.agency_id,
        assignee=user,
        due_at=when,
        channel=Channel.PHONE,
        status=CheckInStatus.DONE,
        outcome=CheckInOutcome.REACHED,
    )


def test_a_service_given_after_its_case_closed_counts_in_the_year_and_in_its_quarter(cast):
    """A check-in done in the year's last quarter on a case closed in its second: the case is
    not served in that quarter, but the check-in was given then. Counted by the case, the year
    (1) would not be the sum of its quarters (0), and the year could not be given out."""
    cases = _people(cast, 6)
    closed = cases[0]
    closed.status = CaseStatus.CLOSED
    closed.closed_at = dt.datetime(2026, 1, 15, 12, tzinfo=dt.UTC)
    closed.save(update_fields=["status", "closed_at"])
    _done(closed, cast.assigned, dt.datetime(2026, 8, 10, 9, tzinfo=dt.UTC))
    for case in cases[1:]:
        _done(case, cast.assigned, dt.datetime(2026, 2, 3, 9, tzinfo=dt.UTC))
    fvpsa = reports.release("fvpsa", cast.agency.pk, YEAR)
    values, keys = fvpsa.grid.values, fvpsa.grid.keys
    assert values[keys["services:checkins"]] == 6
    quarters = [values[keys[f"q{n}|services:checkins"]] for n in range(4)]
    assert quarters == [0, 5, 0, 1]
    # The quarter reads the same on its own.
    q4 = reports.release("voca", cast.agency.pk, reports.federal_quarter(dt.date(2026, 7, 1)))
    assert q4.grid.values[q4.grid.keys["services:checkins"]] == 1


def test_each_persons_answers_are_opened_once_for_the_whole_release(cast, monkeypatch):
    _people(cast, 7)
    read = []
    real = reports.read_answers

    def counted(case_ids, questions):
        for row in real(case_ids, questions):
            read.append(row[0])
            yield row

    monkeypatch.setattr(reports, "read_answers", counted)
    together = reports.release("hud", cast.agency.pk, YEAR)
    assert sorted(read) == sorted(set(read)) and len(read) == 7
    # The same counts as each report and quarter read on its own.
    monkeypatch.setattr(reports, "read_answers", real)
    fvpsa = reports.release("fvpsa", cast.agency.pk, YEAR)
    assert together.grid.values == fvpsa.grid.values
    alone = reports.build("hud", cast.agency.pk, YEAR)
    for key in ("hud_age:25_34", "race:white"):
        if key in alone.grid.keys:
            assert (
                alone.grid.values[alone.grid.keys[key]]
                == (together.grid.values[together.grid.keys[key]])
            )
