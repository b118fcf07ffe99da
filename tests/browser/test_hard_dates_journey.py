"""Hard dates at 375 px: an advocate notes on the survivor's plan a date that is hard for her,
is told plainly when the day she gave has passed, and sees the check-in proposed in her safe window
before it; she books it, and finds the date on the plan."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.accounts import zones
from caseflow.checkins.models import CheckIn
from caseflow.safety.models import HardDate
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_an_advocate_adds_a_hard_date_and_sees_the_check_in_proposed_before_it(
    new_tab, live_server, cast
):
    case = cast.case
    # Safe to reach her at any time of any day, so the check-in falls on the day before.
    profile = case.safe_contact
    profile.rules = {
        "channels": ["phone"],
        "windows": [{"days": list(range(7)), "start": "00:00", "end": "23:59"}],
        "voicemail_safe": False,
    }
    profile.save()
    today = timezone.localtime(timezone.now(), zones.default_zone()).date()
    hard_day = today + dt.timedelta(days=10)
    day_before = hard_day - dt.timedelta(days=1)

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/safety/")
    hard_dates = page.get_by_role("region", name="Dates that are hard for her")
    expect(hard_dates).to_contain_text("No hard dates noted.")
    hard_dates.get_by_role("link", name="Add a hard date").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Add a date that is hard for her")
    page.get_by_label("What kind of day").select_option("anniversary")
    page.get_by_label("Her words for it (optional)").fill("The day I left")
    page.get_by_label("Days before it she wants a check-in").fill("1")
    # Last year's day, not said to come back every year: a message on the form, nothing saved,
    # and what was typed is still there.
    page.get_by_label("The day").fill((hard_day - dt.timedelta(days=365)).isoformat())
    page.get_by_role("button", name="Add the hard date").click()
    expect(page.locator("main")).to_contain_text("That day has passed.")
    expect(page.get_by_label("Her words for it (optional)")).to_have_value("The day I left")
    assert not HardDate.objects.exists()
    fits_a_phone(tab, "hard-date-form")
    page.get_by_label("Every year").check()
    page.get_by_role("button", name="Add the hard date").click()
    expect(page.get_by_role("status")).to_have_text("Hard date added.")

    expect(page.get_by_role("heading", level=1)).to_have_text("Check-ins proposed")
    label = f"An anniversary: The day I left, on {hard_day:%a} {hard_day.day} {hard_day:%b %Y}"
    proposal = page.get_by_label(label)
    expect(proposal).to_be_checked()
    # The check-in falls the day before, in her safe window.
    when = f"{day_before:%a} {day_before.day} {day_before:%b %Y}, 00:00"
    expect(page.locator("main")).to_contain_text(f"{when}, in the survivor's safe window")
    fits_a_phone(tab, "hard-date-proposals")
    page.get_by_role("button", name="Book the ticked check-ins").click()
    expect(page.get_by_role("status")).to_have_text("1 check-in booked.")
    expect(page.locator("main")).to_contain_text("A check-in is already booked for it")
    checkin = CheckIn.objects.get(case=case)
    assert timezone.localtime(checkin.due_at, zones.default_zone()).date() == day_before

    tab.goto(f"/cases/{case.public_id}/safety/")
    hard_dates = page.get_by_role("region", name="Dates that are hard for her")
    expect(hard_dates).to_contain_text("The day I left")
    expect(hard_dates).to_contain_text("Every year.")
    fits_a_phone(tab, "hard-dates-on-the-plan")
