"""Shelter at 375 px: a caseworker finds a free step-free bed on the availability board, books
it for the survivor of her case, and ends the stay when she leaves."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from caseflow.accounts.zones import agency_today
from caseflow.shelter import services
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_stay_is_booked_on_the_board_and_ended(new_tab, live_server, cast):
    site = services.site_save(
        actor=cast.agency_admin, site=None, name="Oak House", address="1 Example Lane"
    )
    garden = services.room_add(
        actor=cast.agency_admin, site=site, name="Garden room", features=["step_free"]
    )
    upstairs = services.room_add(actor=cast.agency_admin, site=site, name="Attic", features=[])
    services.bed_add(actor=cast.agency_admin, room=garden, label="Bed 1", features=[])
    services.bed_add(actor=cast.agency_admin, room=upstairs, label="Bed 9", features=[])

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto("/shelter/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Beds tonight and the next 14 nights")
    page.get_by_label("Step-free access").check()
    page.get_by_role("button", name="Show").click()
    expect(page.locator("main")).not_to_contain_text("Attic")
    fits_a_phone(tab, "bed-board")
    page.get_by_role("link", name="Book Bed 1, Garden room").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Book a stay")
    fits_a_phone(tab, "book-stay")
    page.locator("main").get_by_label("Case").select_option(value=cast.case.public_id)
    yesterday = agency_today(cast.agency) - dt.timedelta(days=1)
    page.get_by_label("First night").fill(yesterday.isoformat())
    page.get_by_label("Children staying with her").fill("2")
    page.get_by_role("button", name="Book the stay").click()
    expect(page.get_by_role("status")).to_have_text("Stay booked.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Shelter stay")
    expect(page.locator("#stay-ends")).to_have_text("Staying, no end fixed")
    expect(page.locator("main")).to_contain_text("1 Example Lane")
    fits_a_phone(tab, "stay")

    tab.goto("/shelter/")
    expect(page.locator("main")).to_contain_text("taken")

    tab.goto(f"/cases/{cast.case.public_id}/")
    section = page.get_by_role("region", name="Shelter", exact=True)
    section.get_by_role("link", name="Oak House").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Shelter stay")
    page.get_by_role("link", name="End the stay").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("End the stay")
    fits_a_phone(tab, "stay-end")
    page.get_by_role("button", name="End the stay").click()
    expect(page.get_by_role("status")).to_have_text("Stay ended.")
    expect(page.locator("#stay-nights")).to_have_text("1")
    expect(page.get_by_role("link", name="End the stay")).to_have_count(0)
