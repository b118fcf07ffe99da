"""HUD Q6f, the inactive records of a night-by-night emergency shelter, against a population
counted by hand.

The federal year 2026 ends on 30 September 2026; 90 days before it is 2 July. Twenty-six
survivors of a night-by-night shelter:

- six supported from 1 April and still supported: five slept in the shelter in September, one
  last on 2 July (90 days before the end: not inactive);
- six supported from 1 April and still supported: five last slept there on 10 May, one on 1 July
  (91 days before the end);
- two supported from 1 April and still supported, who never slept there (the day support
  began is the last sign of them: inactive);
- five supported from 1 August (under 90 days before the end: not records);
- seven supported from 1 April who left on 1 August (not records either).
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from caseflow.cases.models import Episode
from caseflow.partners.models import HudProject, HudProjectType
from caseflow.reporting import reports
from caseflow.shelter import services as shelter
from caseflow.shelter.models import Bed, Room, Site
from tests.reporting.hud_people import at, close, hud_person
from tests.reporting.test_report_cells import _printed, assert_csv_prints, small_counts_told

pytestmark = pytest.mark.django_db

YEAR = reports.federal_year(2026)
TODAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)
DAY = dt.date.fromisoformat


def _stay(cast, case, bed, first: str, last: str) -> None:
    """Book ``bed`` for the case's survivor from the night of ``first`` to that of ``last``."""
    with time_machine.travel(at(first), tick=False):
        shelter.stay_book(
            actor=cast.assigned,
            case=case,
            bed=bed,
            starts_on=DAY(first),
            ends_on=DAY(last) + dt.timedelta(days=1),
        )


@pytest.fixture(autouse=True)
def on_the_tests_day():
    """Every fixture too is set up on the tests' day, whatever the suite's clock: the cast's
    own cases are opened "now", and whether they are supported on it depends on when that is."""
    with time_machine.travel(TODAY, tick=False):
        yield


@pytest.fixture
def population(cast):
    HudProject.objects.create(
        agency=cast.agency,
        organization_name="Harbor Light Services",
        project_name="Harbor Light Night Shelter",
        project_type=HudProjectType.ES_NIGHTLY,
    )
    site = Site.objects.create(agency=cast.agency, name="Oak House", address="1 Fictional Rd")
    room = Room.objects.create(agency=cast.agency, site=site, name="Room 1")
    beds = [Bed.objects.create(agency=cast.agency, room=room, label=f"Bed {n}") for n in range(12)]
    n = iter(range(100))
    # Each bed holds one stay a night: every stay is in a bed of its own.
    for i, last in enumerate(["2026-09-20"] * 5 + ["2026-07-02"]):
        case, _episode = hud_person(cast, next(n), at("2026-04-01"), None)
        _stay(cast, case, beds[i], "2026-04-02" if i == 5 else "2026-09-01", last)
    for i, last in enumerate(["2026-05-10"] * 5 + ["2026-07-01"]):
        case, _episode = hud_person(cast, next(n), at("2026-04-01"), None)
        _stay(cast, case, beds[6 + i], "2026-05-01" if i < 5 else "2026-06-20", last)
    for _i in range(2):
        hud_person(cast, next(n), at("2026-04-01"), None)
    for _i in range(5):
        hud_person(cast, next(n), at("2026-08-01"), None)
    for _i in range(7):
        hud_person(cast, next(n), at("2026-04-01"), None, closed=at("2026-08-01"))
    return cast.agency.pk


@time_machine.travel(TODAY, tick=False)
def test_the_inactive_records_of_a_night_by_night_shelter(population):
    report = reports.release("hud", population, YEAR)
    shown = _printed(report)
    # 6 + 6 + 2 records; inactive the 5 of May, the one of 1 July and the 2 who never slept
    # there: 8 of 14.
    assert shown["Q6f"] == [("Bed Night (All clients in ES - NBN)", "14 8")]
    q6f = next(s for s in report.sections if s.code == "Q6f")
    assert q6f.columns == reports.HUD_INACTIVE_COLUMNS and not q6f.note
    assert [c.text for c in report.table(q6f)[0][1]] == ["14", "8", "57.14%"]
    # The records are some of the stayers (19, Q5a's), the inactive some of the records: the
    # rest of each a count never published, tied.
    g = report.grid
    stayers, records = g.keys["q5a:stayers"], g.keys["q6f:records"]
    assert g.values[stayers] == 19
    assert (stayers, (records, g.keys["q6f:rest:stayers"])) in g.sums
    assert (records, (g.keys["q6f:inactive"], g.keys["q6f:rest:records"])) in g.sums
    assert q6f.own  # one agency's records: not added up in a coalition's roll-up
    assert_csv_prints(report, shown)
    assert not small_counts_told(report)


@time_machine.travel(TODAY, tick=False)
def test_a_few_records_hide_and_their_share_with_them(population, cast):
    # Four of the active six leave on 1 September: 10 records, 2 of them active (the rest of
    # the records, never published, a count from 1 to 4), 8 inactive.
    for episode in Episode.objects.filter(case__agency=cast.agency).order_by("pk")[:4]:
        close(episode.case, episode, at("2026-09-25"))
    report = reports.release("hud", population, YEAR)
    # The 10 less the 8 would tell the 2: the 8 hides, and the share with it.
    assert _printed(report)["Q6f"] == [("Bed Night (All clients in ES - NBN)", "10 *8")]
    q6f = next(s for s in report.sections if s.code == "Q6f")
    assert [c.text for c in report.table(q6f)[0][1]] == ["10", "*", "*"]
    assert not small_counts_told(report)


@time_machine.travel(TODAY, tick=False)
def test_another_kind_of_project_has_no_bed_night_records(population):
    HudProject.objects.update(project_type=HudProjectType.ES_ENTRY_EXIT)
    report = reports.release("hud", population, YEAR)
    assert _printed(report)["Q6f"] == [("Bed Night (All clients in ES - NBN)", "0 0")]
    q6f = next(s for s in report.sections if s.code == "Q6f")
    assert "night-by-night" in q6f.note


@time_machine.travel(TODAY, tick=False)
def test_a_year_not_yet_over_is_seen_as_of_its_last_night_so_far(population, cast):
    # The federal year 2027 (October 2026 to September 2027), seen on 15 November 2026: as of
    # the night of the 14th, 90 days after 16 August. The seven who left in August are not
    # served in it; the five supported from 1 August are records now. One of them is booked
    # from 20 November with no end: the bed is held for her, but she has spent no night in it.
    # Active: the five who slept there until 20 September (55 days before). Inactive: the one
    # of 2 July, the six of May and July, the two who never slept there and the five of August.
    case = (
        Episode.objects.filter(case__agency=cast.agency, opened_at=at("2026-08-01"))
        .order_by("pk")
        .first()
        .case
    )
    bed = Bed.objects.create(agency=cast.agency, room=Room.objects.get(), label="Bed 13")
    shelter.stay_book(actor=cast.assigned, case=case, bed=bed, starts_on=DAY("2026-11-20"))
    report = reports.release("hud", population, reports.federal_year(2027))
    keys, values = report.grid.keys, report.grid.values
    assert (values[keys["q6f:records"]], values[keys["q6f:inactive"]]) == (19, 14)
    # The 22 served, all stayers (the cast's own three cases among them, opened on this
    # day), are printed: with them the 19 records would tell the 3 stayers who are not
    # records, so the 19 hide.
    assert values[keys["q5a:stayers"]] == 22
    assert _printed(report)["Q6f"] == [("Bed Night (All clients in ES - NBN)", "*19 14")]
    assert report.shown(keys["served"]).text == "22"
    assert not small_counts_told(report)
