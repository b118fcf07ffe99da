"""Keyboard use, labels and announced errors. axe itself runs on every page the journeys visit
(``Tab.check``); these tests cover what axe cannot see."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

FOCUSED = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return {
    name: (el.innerText || el.value || el.getAttribute("aria-label") || "").trim(),
    tag: el.tagName,
    outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 3
      && style.outlineColor === "rgb(255, 221, 0)",
    yellow: style.backgroundColor === "rgb(255, 221, 0)",
    dark_edge: style.boxShadow.includes("rgb(11, 12, 12)"),
  };
}"""
#: GOV.UK's focus state: a 3 px yellow outline (or, on a link, a yellow background) and a dark
#: edge, so it shows on white, on the dark bar and on the yellow privacy button alike.

UNLABELLED = """() => Array.from(
    document.querySelectorAll("main input, main select, main textarea"))
  .filter(el => el.type !== "hidden" && el.type !== "submit")
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute("aria-label")
                && !el.getAttribute("aria-labelledby"))
  .map(el => el.name || el.id)"""


def test_tabbing_reaches_the_main_actions_with_a_visible_focus_ring(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("CASE-1")

    seen = []
    for _ in range(150):  # past every control of the case page (the loop ends at the body)
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "BODY":  # past the last control
            break
        assert focused["outline"] or focused["yellow"], f"no yellow focus on {focused}"
        assert focused["dark_edge"], f"no dark edge to the focus on {focused}"
        seen.append(focused["name"])
    for action in (
        "Skip to content",
        "Hide screen",
        "Cases",
        "New referral",
        "Emergency access",
        "Edit",
        "Make active",
        "Close the case…",
        "Add a person",
        "Edit safe contact",
    ):
        assert action in seen, f"{action!r} not reached by Tab; reached {seen}"

    # The skip link takes keyboard users straight to the page's content.
    tab.goto(f"/cases/{cast.case.public_id}/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('main') !== null")


def test_every_form_field_has_a_label(tab, live_server, cast):
    page = tab.page
    tab.goto("/accounts/login/")
    assert page.evaluate(UNLABELLED) == []
    sign_in(page, live_server, "assigned", f.PASSWORD)
    case_id = cast.case.public_id
    for path in (
        "/cases/new/",
        "/cases/break-glass/",
        "/cases/",
        f"/cases/{case_id}/edit/",
        f"/cases/{case_id}/safe-contact/",
        f"/cases/{case_id}/people/new/",
    ):
        tab.goto(path)
        assert page.evaluate(UNLABELLED) == [], path
    # Assigning is the supervisor's.
    page.get_by_role("button", name="Sign out assigned").click()
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    tab.goto(f"/cases/{case_id}/assign/")
    assert page.evaluate(UNLABELLED) == []
    tab.check("assign-case")


def test_form_errors_are_announced_and_tied_to_their_field(tab, live_server, cast):
    page = tab.page
    tab.goto("/accounts/login/")
    page.get_by_label("Username").fill("assigned")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("Those details are not right.")
    tab.check("login-error")

    sign_in(page, live_server, "same_team", f.PASSWORD)
    page.get_by_role("link", name="Emergency access").click()
    page.get_by_label("Case reference").fill("NO-SUCH-CASE")
    page.get_by_label("Reason").fill("Client called in crisis; her advocate is in court today.")
    page.get_by_role("button", name="Open the case").click()
    summary = page.get_by_role("alert").filter(has_text="There is a problem with one answer")
    expect(summary).to_contain_text("Case reference: There is no case with this reference")
    expect(summary).to_be_focused()
    field = page.get_by_label("Case reference")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile("There is no case with this reference"))
    # The summary's link takes the user to the field.
    summary.get_by_role("link").click()
    expect(field).to_be_focused()
    tab.check("emergency-access-error")


def test_a_link_inside_a_warning_passes_contrast(tab, live_server, cast):
    """The check-in form's warning ("no safe-contact profile yet … Record one") holds a link:
    it takes the alert's own dark colour, so axe finds no contrast failure, at 375 px too."""
    from caseflow.cases.models import SafeContactProfile

    SafeContactProfile.objects.filter(case=cast.case).delete()
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    for width in (1366, 375):
        page.set_viewport_size({"width": width, "height": 900})
        tab.goto(f"/checkins/case/{cast.case.public_id}/new/")
        link = page.locator(".alert-warning").get_by_role("link", name="Record one")
        expect(link).to_be_visible()
        tab.check(f"checkin-warning-link-{width}")
