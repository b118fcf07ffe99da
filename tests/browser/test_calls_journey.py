"""The duty line at 375 px: a duty worker logs an anonymous call (a name typed by mistake is
refused on the form, the rest kept), and logs a named call that becomes a case, whose timeline
then shows the call."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from caseflow.calls.models import Call
from caseflow.cases.models import Case
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_duty_worker_logs_an_anonymous_call(new_tab, live_server, cast):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto("/calls/")
    fits_a_phone(tab, "calls-list-empty")
    page.get_by_role("link", name="Log a call").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log a call")
    fits_a_phone(tab, "call-new")
    page.get_by_label("Anonymous", exact=True).check()
    page.get_by_label("How long (minutes)").fill("12")
    page.get_by_label("Safety now").check()
    page.get_by_label("Information about the service").check()
    page.get_by_label("Information given").check()
    page.get_by_label("Caller's name").fill("Rowan")
    page.get_by_role("button", name="Save the call").click()
    # Refused on the form; what was ticked is still ticked.
    expect(
        page.get_by_text("An anonymous call keeps nothing that could identify the caller").first
    ).to_be_visible()
    expect(page.get_by_label("Safety now")).to_be_checked()
    fits_a_phone(tab, "call-new-refused")
    assert not Call.objects.exists()
    page.get_by_label("Caller's name").fill("")
    page.get_by_role("button", name="Save the call").click()
    expect(page.get_by_role("status").first).to_contain_text("Anonymous call saved")
    expect(page.get_by_role("heading", level=1)).to_have_text("Call on the duty line")
    expect(page.get_by_role("link", name="Open a case from this call")).to_have_count(0)
    fits_a_phone(tab, "call-anonymous")
    call = Call.objects.get()
    assert call.caller_kind == "anonymous" and call.needs == ["safety", "information"]
    tab.goto("/calls/")
    expect(page.locator(".call-list tbody tr")).to_have_count(1)
    expect(page.locator(".call-days tbody tr").first).to_contain_text("1")
    fits_a_phone(tab, "calls-list")


def test_a_duty_worker_logs_a_call_that_becomes_a_case(new_tab, live_server, cast):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto("/calls/new/")
    page.get_by_label("The survivor", exact=True).check()
    page.get_by_label("Housing", exact=True).check()
    page.get_by_label("Threats to harm or kill").check()
    page.get_by_label("Safety planning").check()
    page.get_by_label("Caller's name").fill("Rowan Ashby")
    page.get_by_label("Notes").fill("Left last night; staying with her sister.")
    page.get_by_label("The caller wants a follow-up").check()
    page.get_by_label("How and when it is safe to follow up").fill("Mornings, this number")
    page.get_by_role("button", name="Save the call").click()
    expect(page.get_by_role("status").first).to_contain_text("Call saved.")
    fits_a_phone(tab, "call-named")
    page.get_by_role("link", name="Open a case from this call").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Open a case from a call")
    expect(page.get_by_label("Survivor's full name")).to_have_value("Rowan Ashby")
    fits_a_phone(tab, "call-open-case")
    page.get_by_role("button", name="Open case").click()
    expect(page.get_by_role("status").filter(has_text="opened from the call")).to_be_visible()
    # As at any intake: no date of birth was given, so the check compared names only, and says so.
    expect(page.get_by_role("status").filter(has_text="compared names only")).to_be_visible()
    call = Call.objects.get()
    case = Case.objects.get(pk=call.case_id)
    assert case.primary_advocate == cast.assigned
    tab.goto(f"/cases/{case.public_id}/timeline/")
    expect(page.get_by_text("Call on the duty line").first).to_be_visible()
    fits_a_phone(tab, "call-on-timeline")
