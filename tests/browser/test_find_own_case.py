"""An advocate sees her clients' names in her list, and finds her own client's case by the
surname alone and despite a one-letter slip, on a desk and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from caseflow.cases.models import PartyRole
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DESK = {"width": 1366, "height": 900}


def _check(tab, viewport: dict, name: str) -> None:
    if viewport == PHONE:
        fits_a_phone(tab, f"{name}-phone")
    else:
        tab.check(f"{name}-desk")


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_advocate_finds_her_own_case_by_surname_and_despite_a_slip(
    new_tab, live_server, cast, viewport
):
    case = f.open_case(cast.team1, [cast.assigned], reference="CASE-M")
    f.add_party(case, PartyRole.SURVIVOR, full_name="Marisol Quintero", known_as="Mari Quintero")
    tab = new_tab(viewport=viewport)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)

    # Her list names each client as she chose to be called.
    tab.goto("/cases/")
    row = page.get_by_role("row").filter(has=page.get_by_role("link", name="CASE-M"))
    expect(row).to_contain_text("Mari Quintero")
    expect(page.get_by_role("columnheader", name="Survivor")).to_be_visible()
    _check(tab, viewport, "case-list-names")

    tab.goto("/cases/find/")
    results = page.get_by_role("region", name="What we found")
    for typed in ("quintero", "Marisol Qiuntero"):
        page.get_by_label("Name", exact=True).fill(typed)
        page.get_by_role("button", name="Find").click()
        expect(results.get_by_role("link", name="CASE-M")).to_be_visible()
        expect(results).to_contain_text("Mari Quintero")
        expect(results).not_to_contain_text("CASE-2")
        # Not the agency-wide exact match: the answer says how to find the full name there.
        expect(results).to_contain_text("only the exact full name is matched")
    _check(tab, viewport, "find-own-case")
