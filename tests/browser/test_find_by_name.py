"""A duty worker takes a crisis call from a survivor whose case is not theirs: they find it by
the survivor's name on a phone, and open it with emergency access and a reason."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.browser.conftest import sign_in
from tests.conftest import canary

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways at 375 px ({width} px wide)"


def test_duty_worker_finds_a_survivor_by_name_and_opens_the_case(new_tab, live_server, cast):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("link", name="Find by name").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Find a case by name")
    tab.check("find-by-name")
    _fits(page)

    # Their own team's case: listed, with a link to it.
    page.get_by_label("Name", exact=True).fill(f"survivor {canary(cast.case).lower()}")
    page.get_by_role("button", name="Find").click()
    results = page.get_by_role("region", name="What we found")
    expect(results.get_by_role("link", name="CASE-1")).to_be_visible()
    tab.check("find-by-name-found")
    _fits(page)

    # Another team's case: only that one may exist, and the way in.
    page.get_by_label("Name", exact=True).fill(f"{canary(cast.team2_case)}, Survivor")
    page.get_by_role("button", name="Find").click()
    expect(results).to_contain_text("may exist elsewhere in the agency")
    expect(results).not_to_contain_text("CASE-2")
    tab.check("find-by-name-elsewhere")
    _fits(page)
    page.get_by_label("Reason").fill("Crisis call on the duty line; her advocate is away.")
    page.get_by_role("button", name="Open the case with emergency access").click()
    expect(page.get_by_role("status").first).to_contain_text("Emergency access granted")
    expect(page.get_by_role("heading", level=1)).to_contain_text("CASE-2")
    _fits(page)
