"""The one time rule: staff enter and read times in their agency's zone, set by its admin;
check-ins are shown in the survivor's time with the advocate's beside it; nobody reads "UTC"."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
import time_machine
from django.urls import reverse

from caseflow.accounts import zones
from caseflow.audit.models import AuditEvent
from caseflow.cases import today
from caseflow.cases.models import SafeContactProfile
from caseflow.inbox.models import FollowUp
from tests.checkins.helpers import make_checkin

pytestmark = pytest.mark.django_db

UTC = dt.UTC
CHICAGO = zoneinfo.ZoneInfo("America/Chicago")
LONDON = zoneinfo.ZoneInfo("Europe/London")
# Thursday 26 March 2026, 12:00 UTC: London still on GMT; the clocks go forward on Sunday 29th.
BEFORE_SPRING = dt.datetime(2026, 3, 26, 12, 0, tzinfo=UTC)


def _zone(agency, name: str) -> None:
    agency.time_zone = name
    agency.save(update_fields=["time_zone"])


def _new_followup(client, case, due: str):
    return client.post(
        reverse("checkins:followup_new", args=[case.public_id]),
        {"kind": "task", "due_at": due, "details": "", "assignee": case.primary_advocate_id},
    )


def _no_utc(body: str) -> None:
    assert not re.search(r"\bUTC\b", body), "a person reads UTC on this page"


@time_machine.travel(dt.datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False)
def test_two_agencies_in_different_zones_each_enter_and_read_nine_oclock(cast, login):
    _zone(cast.agency, "Europe/London")
    _zone(cast.foreign_case.agency, "America/Chicago")
    for user, case, stored in (
        (cast.assigned, cast.case, dt.datetime(2026, 12, 8, 9, 0, tzinfo=UTC)),
        # 09:00 in Chicago in December (CST, six hours behind) is 15:00 UTC.
        (cast.other_agency, cast.foreign_case, dt.datetime(2026, 12, 8, 15, 0, tzinfo=UTC)),
    ):
        client = login(user)
        response = _new_followup(client, case, "2026-12-08T09:00")
        assert response.status_code == 302, response.content.decode()[:2000]
        followup = FollowUp.objects.get(case=case)
        assert followup.due_at == stored
        page = client.get(reverse("cases:detail", args=[case.public_id])).content.decode()
        assert "Tue 8 Dec 2026 09:00" in page
        _no_utc(page)
        form = client.get(
            reverse("checkins:followup_edit", args=[case.public_id, followup.pk])
        ).content.decode()
        assert 'value="2026-12-08T09:00"' in form


@pytest.mark.parametrize(
    ("due", "stored"),
    [
        # Before the clocks go forward, London is on UTC+0 ...
        ("2026-03-27T09:00", dt.datetime(2026, 3, 27, 9, 0, tzinfo=UTC)),
        # ... after, on UTC+1: the same 09:00 is an hour earlier in UTC.
        ("2026-03-30T09:00", dt.datetime(2026, 3, 30, 8, 0, tzinfo=UTC)),
    ],
)
@time_machine.travel(BEFORE_SPRING, tick=False)
def test_a_follow_up_across_the_dst_change_keeps_its_wall_time(cast, login, due, stored):
    _zone(cast.agency, "Europe/London")
    client = login(cast.assigned)
    assert _new_followup(client, cast.case, due).status_code == 302
    followup = FollowUp.objects.get(case=cast.case)
    assert followup.due_at == stored
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "09:00" in page.split("Open follow-ups", 1)[1]


@time_machine.travel(BEFORE_SPRING, tick=False)
def test_a_time_the_clocks_skip_is_a_form_error_not_a_guess(cast, login):
    _zone(cast.agency, "Europe/London")
    response = _new_followup(login(cast.assigned), cast.case, "2026-03-29T01:30")
    assert response.status_code == 200
    assert response.context["form"].errors["due_at"]
    assert not FollowUp.objects.exists()


def test_the_staff_day_follows_the_agency_zone_across_the_dst_change():
    token = zones.activate(LONDON)
    try:
        start, end = today.day_bounds(dt.datetime(2026, 3, 29, 12, 0, tzinfo=UTC))
    finally:
        zones.deactivate(token)
    # The day the clocks go forward is 23 hours long.
    assert (start, end - start) == (
        dt.datetime(2026, 3, 29, 0, 0, tzinfo=UTC),
        dt.timedelta(hours=23),
    )
    token = zones.activate(CHICAGO)
    try:
        start, _end = today.day_bounds(dt.datetime(2026, 12, 1, 3, 0, tzinfo=UTC))
    finally:
        zones.deactivate(token)
    # 03:00 UTC on 1 December is still 30 November in Chicago.
    assert start == dt.datetime(2026, 11, 30, 6, 0, tzinfo=UTC)


@time_machine.travel(dt.datetime(2026, 12, 7, 8, 0, tzinfo=UTC), tick=False)
def test_check_ins_show_the_survivors_time_and_the_advocates_beside_it(cast, login):
    _zone(cast.agency, "America/Chicago")
    SafeContactProfile.objects.filter(case=cast.case).update(timezone="Europe/London")
    checkin = make_checkin(cast.case, cast.assigned, dt.datetime(2026, 12, 7, 10, 30, tzinfo=UTC))
    client = login(cast.assigned)
    for url in (reverse("cases:detail", args=[cast.case.public_id]), reverse("checkins:home")):
        page = client.get(url).content.decode()
        assert checkin.due_at.astimezone(LONDON).strftime("%a %-d %b") in page
        assert "10:30" in page  # in London, the survivor's zone
        assert "04:30 your time" in page  # in Chicago, the advocate's
        _no_utc(page)


def test_a_new_safe_contact_profile_starts_in_the_agency_zone(cast, login):
    _zone(cast.agency, "America/Chicago")
    SafeContactProfile.objects.filter(case=cast.case).delete()
    response = login(cast.assigned).get(
        reverse("checkins:safe_contact", args=[cast.case.public_id])
    )
    assert response.context["form"]["timezone"].value() == "America/Chicago"


def test_the_agency_admin_sets_the_zone_and_it_is_audited(cast, login):
    client = login(cast.agency_admin)
    url = reverse("agency:time_zone")
    assert client.post(url, {"time_zone": "Not/AZone"}).context["form"].errors["time_zone"]
    response = client.post(url, {"time_zone": "America/Chicago"})
    assert response.status_code == 302
    cast.agency.refresh_from_db()
    assert cast.agency.time_zone == "America/Chicago"
    event = AuditEvent.objects.get(action="agency.time_zone")
    assert event.actor_id == cast.agency_admin.pk
    assert event.detail == {"before": "", "after": "America/Chicago"}
    # Another agency keeps its own (the default) zone.
    assert zones.agency_zone(cast.foreign_case.agency).key == "Europe/London"
    assert zones.user_zone(cast.assigned).key == "America/Chicago"


@time_machine.travel(dt.datetime(2026, 12, 7, 8, 0, tzinfo=UTC), tick=False)
def test_note_and_incident_times_are_read_in_the_agency_zone(cast, login):
    _zone(cast.agency, "America/Chicago")
    client = login(cast.assigned)
    url = reverse("casework:incident_new", args=[cast.case.public_id])
    data = {
        "kinds": ["physical"],
        "occurred_on": "2026-12-06",
        "occurred_time": "21:15",
        "person": "other_party",
        "what_happened": "Pushed against the door.",
        "police": "unknown",
    }
    # Yesterday in Chicago (already the 7th in UTC) is read back in Chicago's time first.
    asked = client.post(url, data).content.decode()
    assert "This incident will be dated Sunday 6 December 2026 at 21:15. Save it?" in asked
    assert 'value="2026-12-06T21:15"' in asked
    response = client.post(url, {**data, "date_confirmed": "2026-12-06T21:15"})
    assert response.status_code == 302, response.content.decode()[:3000]
    from caseflow.casework.models import Incident

    incident = Incident.objects.get(case=cast.case)
    # 21:15 on 6 December in Chicago is 03:15 UTC on the 7th.
    assert incident.occurred_at == dt.datetime(2026, 12, 7, 3, 15, tzinfo=UTC)
    page = client.get(response["Location"]).content.decode()
    assert "6 Dec 2026 21:15" in page
    _no_utc(page)
