"""Staff change, at 375 px. A supervisor hands a leaving advocate's open cases to a colleague:
from the team table on their home page, to the advocate's cases (all ticked), to the new primary
advocate; the agency admin's attempt to switch the advocate off before that is refused in words.
And a supervisor sets cover for someone away, and the colleague covering opens the case."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from caseflow.cases.models import Case, RiskLevel
from caseflow.checkins.models import CheckInFollowUpKind
from caseflow.inbox.models import FollowUp
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_leaving_advocates_cases_are_handed_over_from_the_team_table(new_tab, live_server, cast):
    high = f.open_case(cast.team1, [cast.assigned], reference="CASE-3", risk_level=RiskLevel.HIGH)
    f.add_profile(high)
    leaving = cast.assigned.get_full_name()
    colleague = cast.same_team.get_full_name()

    tab = new_tab(viewport=PHONE)
    page = tab.page
    # The agency admin cannot switch the advocate off while she holds open cases.
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    tab.goto(f"/accounts/staff/{cast.assigned.pk}/")
    page.get_by_label("Active").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("main")).to_contain_text("primary advocate of 3 open cases")
    fits_a_phone(tab, "staff-edit-refused")
    page.context.clear_cookies()

    sign_in(page, live_server, "supervisor", f.PASSWORD)
    page.get_by_role("link", name=leaving).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Reassign cases")
    for reference in ("CASE-1", "CASE-3"):
        expect(page.get_by_label(reference, exact=False)).to_be_checked()
    expect(page.locator("main")).not_to_contain_text("CASE-2")
    fits_a_phone(tab, "reassign-chosen")
    page.get_by_label("New primary advocate").select_option(label=colleague)
    page.get_by_role("button", name="Hand over the cases chosen").click()
    expect(page.get_by_role("status").first).to_contain_text("2 cases handed over")
    expect(page.locator("main")).to_contain_text("No open case of your teams matches")
    fits_a_phone(tab, "reassign-done")

    assert set(
        Case.objects.filter(primary_advocate=cast.same_team).values_list("reference", flat=True)
    ) == {"CASE-1", "CASE-3"}
    assert FollowUp.objects.filter(
        case=high, kind=CheckInFollowUpKind.FIRST_CHECKIN, assignee=cast.same_team
    ).exists()


def test_a_supervisor_sets_cover_and_the_colleague_works_the_case(new_tab, live_server, cast):
    from django.utils import timezone

    from caseflow.accounts import zones

    today = timezone.localdate(timezone.now(), zones.agency_zone(cast.agency))
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    page.get_by_role("link", name="Cover for someone away").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cover")
    expect(page.locator("main")).to_contain_text("Nobody in your teams is covered.")
    page.get_by_label("Who is away").select_option(label=cast.assigned.get_full_name())
    page.get_by_label("Who covers").select_option(label=cast.same_team.get_full_name())
    page.get_by_label("First day").fill(today.isoformat())
    # A last day before the first is a message on the form; nothing is set.
    page.get_by_label("Last day").fill((today - dt.timedelta(days=1)).isoformat())
    page.get_by_role("button", name="Set the cover").click()
    expect(page.locator("main")).to_contain_text("The last day cannot be before the first day.")
    fits_a_phone(tab, "cover-refused")
    page.get_by_label("Last day").fill((today + dt.timedelta(days=6)).isoformat())
    page.get_by_role("button", name="Set the cover").click()
    expect(page.get_by_role("status").first).to_contain_text("Cover set.")
    expect(page.locator("main")).to_contain_text(f"{cast.same_team.get_full_name()} covers")
    fits_a_phone(tab, "cover-set")
    page.context.clear_cookies()

    sign_in(page, live_server, "same_team", f.PASSWORD)
    tab.goto("/cases/")
    page.get_by_role("link", name="CASE-1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("CASE-1")
    fits_a_phone(tab, "covered-case")
