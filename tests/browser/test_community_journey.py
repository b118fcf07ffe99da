"""Community work at 375 px: an advocate records a school talk (a year typed wrong is refused on
the form, the rest kept), then counts two outcome surveys from a pile, the second quicker
because the day and the service are kept, and takes back the one entered wrong."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from caseflow.community.models import EducationSession, OutcomeSurvey
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_an_advocate_records_a_session_and_counts_surveys(new_tab, live_server, cast):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto("/community/education/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Prevention and community education")
    fits_a_phone(tab, "community-education-empty")
    page.get_by_label("Day of the session").fill("2099-03-04")
    page.get_by_label("Talk or presentation").check()
    page.get_by_label("Children and young people").check()
    page.get_by_label("How many people came").fill("28")
    page.get_by_role("button", name="Record the session").click()
    expect(page.get_by_text("This day has not happened yet.").first).to_be_visible()
    expect(page.get_by_label("Talk or presentation")).to_be_checked()
    expect(page.get_by_label("How many people came")).to_have_value("28")
    fits_a_phone(tab, "community-education-refused")
    assert not EducationSession.objects.exists()
    held = dt.date.today() - dt.timedelta(days=7)
    page.get_by_label("Day of the session").fill(held.isoformat())
    page.get_by_role("button", name="Record the session").click()
    expect(page.get_by_role("status").first).to_contain_text("Session recorded")
    expect(page.locator(".community-sessions tbody tr")).to_have_count(1)
    expect(page.locator(".community-sessions tbody tr")).to_contain_text("28")
    fits_a_phone(tab, "community-education")
    assert EducationSession.objects.get().participants == 28

    page.get_by_role("link", name="Count returned outcome surveys").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Outcome surveys handed back")
    page.get_by_label("Shelter or refuge").check()
    safety = page.get_by_role("group", name="I have more ways to plan for my safety")
    resources = page.get_by_role("group", name="I know more about community resources")
    safety.get_by_label("Yes").check()
    resources.get_by_label("Left blank").check()
    page.get_by_role("button", name="Count this survey").click()
    expect(page.get_by_role("status").first).to_contain_text("Survey counted")
    # The next survey of the pile: the service is still chosen.
    expect(page.get_by_label("Shelter or refuge")).to_be_checked()
    safety.get_by_label("No").check()
    resources.get_by_label("Yes").check()
    page.get_by_role("button", name="Count this survey").click()
    expect(page.get_by_role("status").first).to_contain_text("Survey counted")
    expect(page.locator(".community-surveys tbody tr").last).to_contain_text("2")
    fits_a_phone(tab, "community-surveys")
    # The second was entered wrong: taken back, then counted again as it was answered.
    page.get_by_role("button", name="Take back the last survey I counted").click()
    expect(page.get_by_role("status").first).to_contain_text("was taken back")
    expect(page.locator(".community-surveys tbody tr").last).to_contain_text("1")
    safety.get_by_label("No").check()
    resources.get_by_label("No").check()
    page.get_by_role("button", name="Count this survey").click()
    expect(page.get_by_role("status").first).to_contain_text("Survey counted")
    assert sorted(OutcomeSurvey.objects.values_list("safety", "resources")) == [
        ("no", "no"),
        ("yes", "not_answered"),
    ]
