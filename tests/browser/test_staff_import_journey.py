"""Bringing the staff in, at 375 px: the agency admin uploads a staff file with a mistake, reads
the row-by-row report (nothing written), uploads the corrected file, sees the team it creates,
imports it, and finds the new staff listed with their teams."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from caseflow.accounts.models import User
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

LABEL = "Staff file (.csv or .xlsx)"
GOOD = (
    "name,email,role,teams,active\n"
    "Robin Example,robin.example@example.org,advocate,Team 1,yes\n"
    "Sam Sample,sam.sample@example.org,supervisor,Night team,yes\n"
)


def test_admin_imports_staff_after_correcting_the_file(new_tab, live_server, cast, tmp_path):
    faulty = tmp_path / "staff.csv"
    faulty.write_text(GOOD.replace("supervisor", "wizard"), encoding="utf-8")
    fixed = tmp_path / "staff-corrected.csv"
    fixed.write_text(GOOD, encoding="utf-8")
    users_before = User.objects.count()

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    tab.goto("/accounts/staff/")
    page.get_by_role("link", name="Import staff").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import staff")
    fits_a_phone(tab, "staff-import-upload")

    page.get_by_label(LABEL).set_input_files(str(faulty))
    page.get_by_role("button", name="Upload and check every row").click()
    expect(page.get_by_role("heading", name="Rows to correct")).to_be_visible()
    problems = page.locator("#import-problems tbody tr")
    expect(problems).to_have_count(1)
    expect(problems.first).to_contain_text("not a role caseflow knows")
    expect(page.get_by_role("button", name="Import these staff")).to_have_count(0)
    fits_a_phone(tab, "staff-import-report")
    assert User.objects.count() == users_before

    page.get_by_role("link", name="Upload the corrected file").click()
    page.get_by_label(LABEL).set_input_files(str(fixed))
    page.get_by_role("button", name="Upload and check every row").click()
    expect(page.get_by_text("Every row passed.")).to_be_visible()
    expect(page.locator("#new-teams")).to_contain_text("Night team")
    fits_a_phone(tab, "staff-import-ready")
    page.get_by_role("button", name="Import these staff").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Staff and teams")
    expect(page.get_by_role("status")).to_contain_text("Staff imported")
    expect(page.get_by_role("link", name="robin.example", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Night team")).to_be_visible()
    fits_a_phone(tab, "staff-import-done")
    assert User.objects.count() == users_before + 2
