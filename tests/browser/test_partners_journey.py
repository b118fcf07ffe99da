"""Working with other agencies and reporting, at 375 px: a high-risk case is referred to the risk
meeting, its actions are recorded and the overdue one is on the owner's queue; a referral to a
housing service is tracked to "accepted"; a funder report preview shows its charts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import PartyRole, RiskLevel
from caseflow.confidentiality.models import Release
from caseflow.confidentiality.services.releases import recipient_index
from caseflow.partners import services
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_risk_meeting_housing_referral_and_a_funder_report(new_tab, live_server, cast):
    case = cast.case
    case.risk_level = RiskLevel.HIGH
    # Opened half a year ago, so a quarter has ended since and the reports have a period.
    case.opened_at = timezone.now() - dt.timedelta(days=200)
    case.save(update_fields=["risk_level", "opened_at"])
    services.settings_save(
        actor=cast.agency_admin,
        meeting_name="MARAC",
        lawful_basis="Vital interests when the risk of serious harm is high.",
    )
    today = timezone.localdate()
    release = Release(
        case=case,
        consenting_party=case.parties.get(role=PartyRole.SURVIVOR),
        recipient="Safe Homes",
        recipient_index=recipient_index("Safe Homes"),
        purpose="A safe move",
        categories=["contact", "address"],
        signed_on=today - dt.timedelta(days=2),
        expires_on=today + dt.timedelta(days=90),
    )
    release.save()

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/")
    section = page.get_by_role("region", name="Other agencies")
    section.get_by_role("link", name="Refer to the risk meeting").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Refer to MARAC")
    fits_a_phone(tab, "meeting-refer")
    expect(page.get_by_label("A high risk assessment")).to_be_checked()
    page.get_by_label("Risk", exact=True).check()
    page.get_by_label("The agency's lawful basis for high-risk sharing").check()
    page.get_by_role("button", name="Refer to the meeting").click()
    expect(page.get_by_role("status")).to_have_text("Referred to the risk meeting.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Referral to MARAC")

    page.get_by_role("link", name="Add an action").click()
    expect(page.get_by_label("Action agreed")).to_be_visible()
    fits_a_phone(tab, "meeting-action")
    page.get_by_label("Action agreed").fill("Call about the housing options")
    page.get_by_label("Done by someone here").select_option(value=str(cast.assigned.pk))
    page.get_by_label("Due on").fill((today - dt.timedelta(days=2)).isoformat())
    page.get_by_role("button", name="Add the action").click()
    expect(page.get_by_role("status")).to_have_text("Action recorded.")
    page.get_by_role("link", name="Add an action").click()
    page.get_by_label("Action agreed").fill("Flag the address")
    page.get_by_label("…or by another agency (its name)").fill("Riverside Police")
    page.get_by_label("Due on").fill((today + dt.timedelta(days=7)).isoformat())
    page.get_by_role("button", name="Add the action").click()
    expect(page.locator("main")).to_contain_text("Riverside Police")
    expect(page.locator("main").get_by_text("Overdue", exact=True)).to_have_count(1)
    fits_a_phone(tab, "meeting")

    tab.goto("/")
    queue = page.locator("main")
    expect(queue).to_contain_text("Risk meeting action")
    expect(queue).to_contain_text("An action agreed at MARAC")
    fits_a_phone(tab, "queue")

    tab.goto(f"/cases/{case.public_id}/")
    page.get_by_role("region", name="Other agencies").get_by_role(
        "link", name="Record a referral"
    ).click()
    page.get_by_label("Service").select_option("housing")
    page.get_by_label("Organisation").fill("Safe Homes")
    page.get_by_label("Consent to share that allows it (for a referral out)").select_option(
        value=release.public_id
    )
    page.get_by_label("Reply expected by").fill((today + dt.timedelta(days=5)).isoformat())
    fits_a_phone(tab, "referral-form")
    page.get_by_role("button", name="Record the referral").click()
    expect(page.get_by_role("status")).to_have_text("Referral recorded.")
    expect(page.locator("#referral-state")).to_contain_text("Sent")
    page.get_by_label("Where it has got to").select_option("accepted")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Referral updated.")
    expect(page.locator("#referral-state")).to_contain_text("Accepted")
    fits_a_phone(tab, "referral")

    reports = new_tab(viewport=PHONE)
    sign_in(reports.page, live_server, "auditor", f.PASSWORD)
    reports.goto("/reports/funders/")
    reports.page.get_by_role("link", name="Quarterly performance measures (VOCA style)").click()
    # A quarter from a list, in plain words; no free dates.
    expect(reports.page.get_by_label("Period")).to_contain_text("of the federal year")
    reports.page.get_by_role("button", name="Preview").click()
    expect(reports.page.locator("svg[role=img]").first).to_be_visible()
    expect(reports.page.get_by_role("table").first).to_be_visible()
    fits_a_phone(reports, "funder-report")
