"""Scheduling a check-in on a phone, by the survivor's rules: her only safe channel is already
chosen, her safe times are shown above the date, "Use the next safe slot" fills the date and time
in without saving, and a check-in already booked at that time is pointed out before a second one
is booked."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases import contact
from caseflow.cases.models import SafeContactProfile
from caseflow.checkins.models import CheckIn
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in
from tests.checkins.helpers import make_checkin

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ZONE = "Europe/London"


def test_a_check_in_is_scheduled_by_her_rules(new_tab, live_server, cast):
    # A daily safe window from two to four hours from now, her time.
    now = timezone.now().astimezone(ZoneInfo(ZONE))
    start, end = now + dt.timedelta(hours=2), now + dt.timedelta(hours=4)
    SafeContactProfile.objects.filter(case=cast.case).delete()
    profile = f.add_profile(
        cast.case,
        timezone=ZONE,
        rules={
            "channels": ["text"],
            "windows": [{"days": list(range(7)), "start": f"{start:%H:%M}", "end": f"{end:%H:%M}"}],
            "voicemail_safe": False,
        },
        safe_phone="07700 900123",
    )
    slot = contact.next_safe_slot(profile, timezone.now())
    assert slot is not None
    local = slot.astimezone(ZoneInfo(ZONE))
    make_checkin(cast.case, cast.assigned, slot, "text")

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("checkins:new", args=[cast.case.public_id]))
    expect(page.locator("#id_channel")).to_have_value("text")
    expect(page.locator(".safe-times")).to_contain_text(f"Every day, {start:%H:%M} to {end:%H:%M}")
    fits_a_phone(tab, "checkin-rules-new")

    page.get_by_role("button", name="Use the next safe slot").click()
    expect(page.get_by_role("status").first).to_contain_text("Nothing is saved")
    expect(page.locator("#id_date")).to_have_value(f"{local:%Y-%m-%d}")
    expect(page.locator("#id_time")).to_have_value(f"{local:%H:%M}")
    assert CheckIn.objects.count() == 1

    page.get_by_role("button", name="Schedule check-in").click()
    expect(page.get_by_text("A check-in by text message is already booked")).to_be_visible()
    fits_a_phone(tab, "checkin-rules-duplicate")
    assert CheckIn.objects.count() == 1

    page.get_by_role("button", name="Schedule it anyway").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(cast.case.reference)
    expect(page.locator("#checkins-h")).to_be_visible()
    expect(page.get_by_role("cell", name="Text message").first).to_be_visible()
    assert CheckIn.objects.filter(channel="text").count() == 2
