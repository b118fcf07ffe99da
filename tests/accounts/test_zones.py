"""The agency's "today": the date now in the agency's zone, which near midnight is not UTC's, and
not the zone a request happens to run in."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine

from caseflow.accounts import zones
from caseflow.accounts.models import Agency

UTC = dt.UTC


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


@pytest.mark.parametrize(
    ("moment", "zone", "today"),
    [
        # 03:30 UTC on 8 March is 22:30 on 7 March in New York, just before the spring change.
        (dt.datetime(2026, 3, 8, 3, 30, tzinfo=UTC), "America/New_York", d("2026-03-07")),
        # 04:30 UTC on 8 March: 23:30 on 7 March (still EST).
        (dt.datetime(2026, 3, 8, 4, 30, tzinfo=UTC), "America/New_York", d("2026-03-07")),
        # 23:30 UTC on 28 March is 23:30 in London (GMT), and 00:30 on 29 March is 01:30 BST...
        (dt.datetime(2026, 3, 28, 23, 30, tzinfo=UTC), "Europe/London", d("2026-03-28")),
        (dt.datetime(2026, 3, 29, 23, 30, tzinfo=UTC), "Europe/London", d("2026-03-30")),
        (dt.datetime(2026, 1, 31, 23, 30, tzinfo=UTC), "Europe/Madrid", d("2026-02-01")),
        # 12:30 UTC on 2 December is 01:30 on 3 December in Auckland (NZDT, thirteen hours ahead).
        (dt.datetime(2026, 12, 2, 12, 30, tzinfo=UTC), "Pacific/Auckland", d("2026-12-03")),
        # 09:00 UTC on 3 December is still 23:00 on 2 December in Honolulu.
        (dt.datetime(2026, 12, 3, 9, 0, tzinfo=UTC), "Pacific/Honolulu", d("2026-12-02")),
    ],
)
def test_today_is_the_date_in_the_agency_s_zone(moment, zone, today):
    with time_machine.travel(moment, tick=False):
        assert zones.agency_today(Agency(time_zone=zone)) == today


def test_an_agency_without_a_zone_has_the_default_zone_s_today(settings):
    settings.STAFF_TIME_ZONE = "America/Chicago"
    # 02:00 UTC on 3 December is 20:00 on 2 December in Chicago.
    with time_machine.travel(dt.datetime(2026, 12, 3, 2, 0, tzinfo=UTC), tick=False):
        assert zones.agency_today(Agency(time_zone="")) == d("2026-12-02")
        assert zones.agency_today(Agency(time_zone="Not/A_Zone")) == d("2026-12-02")


def test_the_zone_a_request_runs_in_does_not_move_the_agency_s_today():
    # 23:30 UTC on 2 December: already 3 December in Madrid, still 2 December in Chicago.
    with (
        time_machine.travel(dt.datetime(2026, 12, 2, 23, 30, tzinfo=UTC), tick=False),
        zones.using(ZoneInfo("America/Chicago")),
    ):
        assert zones.agency_today(Agency(time_zone="Europe/Madrid")) == d("2026-12-03")
