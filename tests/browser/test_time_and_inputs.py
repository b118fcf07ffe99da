"""The one time rule and humane inputs, on a phone: an advocate of a US agency enters a
follow-up at 09:00 and reads 09:00 (no UTC anywhere); safe times are set with time pickers; a
check-in's repeat is chosen from presets and shown in words."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import SafeContactProfile
from caseflow.checkins.models import CheckInSchedule
from caseflow.inbox.models import FollowUp
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}
CHICAGO = zoneinfo.ZoneInfo("America/Chicago")
LONDON = zoneinfo.ZoneInfo("Europe/London")


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways at 375 px ({width} px wide)"


def _no_utc(page) -> None:
    text = page.locator("body").inner_text()
    assert not re.search(r"\bUTC\b", text), f"{page.url} shows UTC to a person"


def test_an_advocate_in_a_us_agency_enters_nine_oclock_and_reads_nine_oclock(
    new_tab, live_server, cast
):
    cast.agency.time_zone = "America/Chicago"
    cast.agency.save(update_fields=["time_zone"])
    tomorrow = timezone.now().astimezone(CHICAGO).date() + dt.timedelta(days=1)
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    page.get_by_role("link", name="Add a follow-up").click()
    due = page.get_by_label("Due")
    expect(page.get_by_text("Your time (America/Chicago).")).to_be_visible()
    due.fill(f"{tomorrow:%Y-%m-%d}T09:00")
    tab.check("time-rule-follow-up-form")
    _fits(page)
    page.get_by_role("button", name="Save follow-up").click()
    expect(page.get_by_text("Follow-up saved.")).to_be_visible()
    followup = FollowUp.objects.get(case=cast.case)
    assert followup.due_at == dt.datetime.combine(tomorrow, dt.time(9, 0), tzinfo=CHICAGO)
    followups = page.get_by_role("table", name="Open follow-ups")
    expect(followups).to_contain_text(f"{tomorrow:%-d %b %Y} 09:00")
    tab.check("time-rule-case-page")
    _fits(page)
    _no_utc(page)


def _next_weekday(after: dt.date) -> dt.date:
    day = after + dt.timedelta(days=2)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def test_safe_times_with_time_pickers_and_a_repeat_in_words(new_tab, live_server, cast):
    SafeContactProfile.objects.filter(case=cast.case).delete()
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/safe-contact/")
    # A new profile starts in the agency's zone (the default here: London).
    expect(page.get_by_label("Timezone")).to_have_value("Europe/London")
    page.get_by_label("Phone call").check()
    page.get_by_label("Safe phone").fill("07700 900123")
    first = page.locator(".safe-window-row").first
    first.get_by_label("Days").select_option(label="Monday to Friday")
    start, end = first.get_by_label("From"), first.get_by_label("Until")
    assert start.get_attribute("type") == end.get_attribute("type") == "time"
    start.fill("10:00")
    end.fill("12:00")
    tab.check("safe-times-pickers")
    _fits(page)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Safe-contact profile saved.")).to_be_visible()
    profile = SafeContactProfile.objects.get(case=cast.case)
    assert profile.windows == [{"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"}]

    day = _next_weekday(timezone.now().astimezone(LONDON).date())
    page.get_by_role("link", name="Schedule a check-in").click()
    page.get_by_label("Date").fill(f"{day:%Y-%m-%d}")
    page.locator("#id_time").fill("10:30")
    advocate = page.get_by_label("Advocate")
    expect(advocate.locator("option:checked")).to_have_text(cast.assigned.get_full_name())
    page.get_by_label("Repeat").select_option(label="Every week, on the same day")
    words = page.locator("#repeat-words")
    expect(words).to_have_text(f"Repeats every week on {day:%A}.")
    page.get_by_label("Repeat").select_option(label="Every week, on the days I choose")
    page.get_by_label("Thursday").check()
    page.get_by_label("Monday").check()
    expect(words).to_have_text("Repeats every week on Monday, Thursday.")
    page.get_by_label("Repeat").select_option(label="Every two weeks, on the same day")
    expect(words).to_have_text(f"Repeats every two weeks on {day:%A}.")
    assert "RRULE" not in page.locator("main").inner_text()
    tab.check("check-in-repeat-in-words")
    _fits(page)
    page.get_by_role("button", name="Schedule check-in").click()
    expect(page.get_by_text("Check-in scheduled.")).to_be_visible()
    code = ("MO", "TU", "WE", "TH", "FR")[day.weekday()]
    assert CheckInSchedule.objects.get(case=cast.case).rule.startswith(
        f"FREQ=WEEKLY;INTERVAL=2;BYDAY={code}"
    )
