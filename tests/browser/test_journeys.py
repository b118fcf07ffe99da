"""End-to-end journeys through a real Chromium. Each step asserts what the user sees, and every
main page is checked (axe, same-origin assets, CSP) and photographed under screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from caseflow.cases import services
from caseflow.cases.models import PartyRole
from tests import factories as f
from tests.browser.conftest import sign_in, take_screenshot
from tests.conftest import canary

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_advocate_takes_in_a_referral_records_safe_contact_and_finds_the_case(
    tab, live_server, cast
):
    # A survivor on another team's case is named as the other party in the new referral.
    f.add_party(
        cast.team2_case, PartyRole.SURVIVOR, full_name="Jordan Example", date_of_birth="1985-04-12"
    )
    page = tab.page

    sign_in(page, live_server, "assigned", f.PASSWORD)
    expect(page.get_by_role("heading", name="Your open cases (2)")).to_be_visible()
    tab.check("dashboard-advocate")

    page.get_by_role("link", name="New referral").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New referral")
    tab.check("new-referral")
    form = page.locator("main")
    form.get_by_label("Reference", exact=True).fill("REF-JOURNEY-1")
    page.get_by_label("Referral summary").fill("Referred by the police after a call-out.")
    page.get_by_label("Survivor's full name").fill("Alex Sample")
    page.get_by_label("Survivor's date of birth").fill("1992-02-03")
    page.get_by_label("Other party's full name").fill("Jordan Example")
    page.get_by_label("Other party's date of birth").fill("1985-04-12")
    page.get_by_role("button", name="Open case").click()

    warning = page.get_by_role("alert").filter(has_text="Possible conflict")
    expect(warning).to_contain_text("Possible conflict — consult your supervisor.")
    # Nothing about the other case is shown.
    expect(page.locator("main")).not_to_contain_text("CASE-2")
    expect(page.locator("main")).not_to_contain_text(canary(cast.team2_case))
    expect(page.get_by_label("Other party's full name")).to_have_value("Jordan Example")
    tab.check("new-referral-conflict")

    # Sending the same form again only checks again; going on is its own, explained button.
    page.get_by_role("button", name="Open case").click()
    expect(warning).to_be_visible()
    page.get_by_role("button", name="Open anyway, flagged for my supervisor").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("REF-JOURNEY-1")
    expect(page.get_by_role("status").filter(has_text="Case REF-JOURNEY-1 opened.")).to_be_visible()
    expect(page.get_by_text("Possible conflict flagged at intake")).to_be_visible()
    expect(page.get_by_role("cell", name="Alex Sample")).to_be_visible()
    expect(page.get_by_text("No safe-contact profile yet.")).to_be_visible()
    tab.check("case-detail")

    page.get_by_role("link", name="Record safe contact").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Safe-contact profile")
    tab.check("safe-contact-form")
    page.get_by_label("Timezone").select_option("Europe/London")
    page.get_by_label("Text message").check()
    page.get_by_label("Safe phone").fill("07700 900123")
    page.get_by_label("Other safe times").fill("Mon-Fri 25:00-12:00")
    page.get_by_label("Code word").fill("Is your sister coming round?")
    page.get_by_role("button", name="Save").click()

    summary = page.locator("#error-summary")
    expect(summary).to_have_attribute("role", "alert")
    expect(summary).to_contain_text("Other safe times: line 1: bad time '25:00'")
    expect(summary).to_be_focused()
    windows = page.get_by_label("Other safe times")
    expect(windows).to_have_attribute("aria-invalid", "true")
    expect(windows).to_have_accessible_description(re.compile("bad time '25:00'"))
    tab.check("safe-contact-error")

    windows.fill("Mon-Fri 10:00-12:00\nSat 09:00-10:30")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Safe-contact profile saved.")
    safe = page.get_by_role("region", name="Safe contact")
    expect(safe).to_contain_text("Text message")
    expect(safe).to_contain_text(re.compile(r"Safe to contact now|Not a safe time to contact now"))
    expect(safe).to_contain_text("Do not leave a voicemail")
    expect(safe).to_contain_text("10:00")
    expect(safe).to_contain_text("07700 900123")
    expect(safe).to_contain_text("Is your sister coming round?")

    # The nav search box finds the case by part of its reference, within the advocate's scope.
    search = page.get_by_role("searchbox", name="Find a case by reference")
    search.fill("JOURNEY")
    search.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cases")
    results = page.get_by_role("table")
    expect(results.get_by_role("link", name="REF-JOURNEY-1")).to_be_visible()
    expect(results.get_by_role("row")).to_have_count(2)  # header + one case
    tab.check("case-search")
    page.get_by_role("searchbox", name="Find a case by reference").fill("CASE-2")
    page.get_by_role("searchbox", name="Find a case by reference").press("Enter")
    expect(page.get_by_text("No cases match.")).to_be_visible()
    expect(page.get_by_role("table").get_by_role("link")).to_have_count(0)


def test_second_advocate_opens_a_case_through_emergency_access(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "same_team", f.PASSWORD)
    expect(page.get_by_text("You have no open cases.")).to_be_visible()

    page.get_by_role("link", name="Emergency access").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Emergency access to a case")
    tab.check("emergency-access")
    page.get_by_label("Case reference").fill("CASE-1")
    page.get_by_label("Reason").fill("Client called in crisis; her advocate is in court today.")
    page.get_by_role("button", name="Open the case").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("CASE-1")
    expect(page.get_by_role("status")).to_contain_text("Emergency access granted")
    banner = page.get_by_role("alert").filter(has_text="emergency access")
    expect(banner).to_contain_text(
        re.compile(
            r"You can read the case and record notes until \d{1,2}:\d{2}\. Everything is "
            r"recorded and your supervisor will review it\."
        )
    )
    expect(page.get_by_role("link", name="Edit", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Close")).to_have_count(0)
    tab.check("case-emergency-access")


def test_supervisor_sees_emergency_access_awaiting_review(tab, live_server, cast):
    services.break_glass_open(
        actor=cast.same_team,
        reference="CASE-1",
        reason="Client called in crisis; her advocate is in court today.",
    )
    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    queue = page.get_by_role("region", name="Emergency access awaiting review")
    entry = queue.get_by_role("listitem").filter(has_text="CASE-1")
    expect(entry).to_contain_text(cast.same_team.get_full_name())
    expect(entry).to_contain_text("active")
    tab.check("dashboard-supervisor")

    entry.get_by_role("link", name="CASE-1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("CASE-1")
    expect(page.get_by_role("alert").filter(has_text="emergency access")).to_have_count(0)
    tab.check("case-detail-supervisor")


@pytest.mark.parametrize("outsider", ["other_team", "other_agency"])
def test_outsiders_get_nothing_for_the_advocates_case_urls(tab, live_server, cast, outsider):
    survivor = cast.case.parties.get(role=PartyRole.SURVIVOR)
    case_id = cast.case.public_id
    urls = [
        f"/cases/{case_id}/",
        f"/cases/{case_id}/edit/",
        f"/cases/{case_id}/safe-contact/",
        f"/cases/{case_id}/people/new/",
        f"/cases/{case_id}/people/{survivor.public_id}/",
    ]
    page = tab.page
    sign_in(page, live_server, outsider, f.PASSWORD)
    for url in urls:
        tab.goto(url, status=404)
        body = page.locator("body")
        expect(body).not_to_contain_text(canary(cast.case))
        expect(body).not_to_contain_text("CASE-1")
        expect(body).not_to_contain_text("Survivor")
    take_screenshot(page, _screenshot(f"not-found-{outsider}"))
    # Their own search does not find it either.
    tab.goto("/cases/?q=CASE-1")
    expect(page.get_by_text("No cases match.")).to_be_visible()
    tab.check(f"case-search-{outsider}")


def _screenshot(name: str):
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
