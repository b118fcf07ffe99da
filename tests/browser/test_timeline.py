"""The case timeline in a real Chromium: an advocate opens it from the case page, filters it by
kind, pages to older entries and prints the chronology. Every page goes through ``Tab.check``
(axe, and no sideways scrolling at 375 px)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.browser.conftest import SCREENSHOTS, sign_in, take_screenshot
from tests.cases.timeline_helpers import fill

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def test_advocate_reads_filters_pages_and_prints_the_timeline(tab, live_server, cast):
    counts = fill(cast.case, cast.assigned, 300)
    assert counts["checkin"] > 50
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    page.get_by_role("link", name="Timeline", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Timeline: CASE-1")
    entries = page.get_by_role("list", name="Entries, newest first").get_by_role("listitem")
    expect(entries).to_have_count(50)
    tab.check("timeline")

    page.get_by_label("Check-ins").check()
    page.get_by_role("button", name="Show").click()
    expect(entries).to_have_count(50)
    expect(entries.filter(has_not_text="Check-in")).to_have_count(0)
    first_page = entries.first.inner_text()

    page.get_by_role("link", name="Older entries").click()
    timeline_url = page.url
    expect(page.get_by_label("Check-ins")).to_be_checked()
    expect(entries).to_have_count(counts["checkin"] - 50)
    expect(entries.filter(has_not_text="Check-in")).to_have_count(0)
    expect(entries.first).not_to_have_text(first_page)
    expect(page.get_by_role("link", name="Older entries")).to_have_count(0)
    tab.check("timeline-older")

    page.get_by_role("link", name="Print the chronology").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Case chronology")
    expect(page.locator("main")).to_contain_text("For the agency's internal file")
    expect(page.locator("footer")).to_contain_text(
        re.compile(r"SHA-256 of the content: [0-9a-f]{64}")
    )
    rows = page.get_by_role("table").get_by_role("row")
    expect(rows).to_have_count(counts["checkin"] + 1)
    tab.check("timeline-chronology")

    # The same pages on a phone: nothing scrolls sideways at 375 px.
    page.set_viewport_size(PHONE)
    chronology_url = page.url
    for name, url in (("timeline", timeline_url), ("chronology", chronology_url)):
        page.goto(url)
        take_screenshot(page, SCREENSHOTS / f"phone-{name}.png")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the {name} scrolls sideways at 375 px ({width} px)"
    tab.check("timeline-chronology-phone")
