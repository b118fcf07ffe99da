"""Usability that fits the work: phone width, the privacy screen, the idle warning, empty states,
confirmation before destructive actions and a message after each action."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.browser.conftest import SCREENSHOTS, sign_in, take_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def test_main_pages_fit_a_phone_without_horizontal_scrolling(new_tab, live_server, cast):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    case_id = cast.case.public_id
    tab.goto("/accounts/login/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    # The privacy button stays in reach without opening the menu.
    expect(page.get_by_role("button", name="Hide screen")).to_be_visible()
    for name, path in (
        ("dashboard", "/"),
        ("cases", "/cases/"),
        ("case", f"/cases/{case_id}/"),
        ("new-referral", "/cases/new/"),
        ("safe-contact", f"/cases/{case_id}/safe-contact/"),
        ("emergency-access", "/cases/break-glass/"),
        ("edit-case", f"/cases/{case_id}/edit/"),
    ):
        tab.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        SCREENSHOTS.mkdir(exist_ok=True)
        take_screenshot(page, SCREENSHOTS / f"phone-{name}.png")
        assert width <= PHONE["width"], f"{path} scrolls sideways at 375 px ({width} px wide)"
    # The menu opens and its search box is usable at this width.
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_role("searchbox", name="Find a case by reference")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _assert_hidden_then_back(page, title: str, back) -> None:
    screen = page.locator("#privacy-screen")
    expect(screen).to_be_visible()
    expect(screen).to_contain_text("Screen hidden")
    expect(page.locator("main")).to_be_hidden()
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    expect(page).to_have_title("caseflow")
    back_button = page.get_by_role("button", name="Show the page again")
    expect(back_button).to_be_focused()
    back(back_button)
    expect(screen).to_be_hidden()
    expect(page.locator("main")).to_be_visible()
    expect(page).to_have_title(title)


def test_escape_twice_hides_the_page_until_the_user_returns(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    title = page.title()
    assert "CASE-1" in title
    page.keyboard.press("Escape")
    expect(page.locator("#privacy-screen")).to_be_hidden()
    expect(page.locator("main")).to_be_visible()
    # Twice in quick succession (this pair alone suffices, whatever the first press did).
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    _assert_hidden_then_back(page, title, lambda button: page.keyboard.press("Enter"))


def test_hide_screen_button_hides_the_page_until_the_user_returns(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    title = page.title()
    page.get_by_role("button", name="Hide screen").click()
    _assert_hidden_then_back(page, title, lambda button: button.click())
    # Keyboard users are put back where they were.
    page.get_by_role("button", name="Hide screen").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#privacy-screen")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Hide screen")).to_be_focused()


def test_idle_logout_warning_appears_before_the_session_ends(tab, live_server, cast, settings):
    settings.SESSION_IDLE_SECONDS = 300
    page = tab.page
    page.clock.install()
    sign_in(page, live_server, "assigned", f.PASSWORD)
    expect(page.locator("body")).to_have_attribute("data-idle-seconds", "300")
    warning = page.get_by_role("alert").filter(has_text="You will be signed out in")
    page.clock.run_for(170_000)
    expect(warning).to_have_count(0)
    page.clock.run_for(15_000)  # two minutes before the end
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(re.compile(r"signed out in 11\d seconds"))
    expect(warning.get_by_role("button", name="Stay signed in")).to_be_visible()


def test_closing_a_case_asks_first_and_says_what_happened(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    status = page.locator("dl.case-facts")
    expect(status).to_contain_text("Referral")

    # Closing is never one click: a page asks why, and what changed for the survivor.
    page.get_by_role("link", name="Close the case…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Closing the case")
    # Leaving the page closes nothing.
    tab.goto(f"/cases/{cast.case.public_id}/")
    expect(status).to_contain_text("Referral")

    page.get_by_role("link", name="Close the case…").click()
    page.get_by_label("Why is the case closing?").select_option(label="Goals met")
    page.get_by_label("Safety plan at closure").select_option(label="Reviewed with the survivor")
    page.get_by_label("What the survivor can do if things change").fill("Call the duty line.")
    page.get_by_label("Since the start of support, the abuse has").select_option(label="Reduced")
    page.get_by_label("Does the survivor feel safer?").select_option(label="Yes")
    page.get_by_label("Quality of life now").select_option(label="Good")
    page.get_by_role("button", name="Close the case", exact=True).click()
    expect(page.get_by_role("status").first).to_have_text("Case closed. Its outcomes are recorded.")
    expect(status).to_contain_text("Closed since")


def test_empty_states_say_what_to_do_and_actions_confirm_with_a_message(tab, live_server, cast):
    fresh = f.open_case(cast.team1, [cast.same_team], reference="CASE-NEW")
    page = tab.page
    sign_in(page, live_server, "same_team", f.PASSWORD)
    expect(page.get_by_role("heading", name="Your open cases (1)")).to_be_visible()
    page.get_by_role("link", name="CASE-NEW").click()
    expect(page.get_by_text("No people recorded.")).to_be_visible()
    expect(page.get_by_text("No safe-contact profile yet.")).to_contain_text(
        "Nobody should contact the survivor until one is recorded."
    )
    tab.check("case-empty")
    page.get_by_role("link", name="Add a person").click()
    expect(page.get_by_label("Role")).to_be_visible()
    tab.check("add-person")
    page.get_by_label("Role").select_option(label="Survivor (client)")
    page.get_by_label("Full name").fill("Sam Placeholder")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.get_by_role("cell", name="Sam Placeholder")).to_be_visible()
    expect(page.get_by_text("No people recorded.")).to_have_count(0)
    tab.goto("/cases/?q=NOTHING-LIKE-THIS")
    expect(page.get_by_text("No cases match.")).to_be_visible()

    fresh.assignments.all().delete()
    tab.goto("/")
    expect(page.get_by_text("You have no open cases.")).to_contain_text(
        "New referrals appear here once assigned to you."
    )
    tab.check("dashboard-empty")


def test_supervisor_empty_review_queue_is_clear(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "other_supervisor", f.PASSWORD)
    queue = page.get_by_role("region", name="Emergency access awaiting review")
    expect(queue).to_contain_text("No emergency access to review.")
    expect(page.get_by_role("region", name="Unassigned referrals")).to_contain_text(
        "No unassigned referrals."
    )
