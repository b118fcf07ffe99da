"""Financial assistance at 375 px: an advocate pays two hotel nights with a photo of the receipt;
above the agency's limit it waits, the team's supervisor finds it on their today queue and
approves it, and the advocate sees it approved. Also: finding a survivor's language by typing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from caseflow.assistance.models import AssistanceSettings, FundingSource
from caseflow.casework.demo import demo_png
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_hotel_night_is_paid_with_a_receipt_and_approved(new_tab, live_server, cast, tmp_path):
    AssistanceSettings.objects.create(
        agency=cast.agency, currency="GBP", approval_limit=Decimal("150.00")
    )
    FundingSource.objects.create(agency=cast.agency, name="VOCA")
    receipt = tmp_path / "hotel-receipt.png"
    receipt.write_bytes(demo_png())
    case = cast.case

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/")
    page.get_by_role("region", name="Financial assistance").get_by_role(
        "link", name="Record a payment"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a payment")
    fits_a_phone(tab, "payment-form")
    page.get_by_label("Amount").fill("190.00")
    page.get_by_label("What it paid for").select_option("hotel")
    page.get_by_label("Paid to").select_option("hotel")
    page.get_by_label("Name of the hotel, company or person paid").fill("Station Hotel")
    page.get_by_label("Details").fill("Two nights while the locks are changed")
    page.get_by_label("Receipt").set_input_files(str(receipt))
    page.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_role("status")).to_contain_text("waits for a supervisor's approval")
    expect(page.locator("#payment-state")).to_contain_text("Waiting for a supervisor's approval")
    expect(page.locator("#receipts")).to_contain_text("hotel-receipt.png")
    fits_a_phone(tab, "payment-pending")

    boss = new_tab(viewport=PHONE)
    sign_in(boss.page, live_server, "supervisor", f.PASSWORD)
    queue = boss.page.locator("main")
    expect(queue).to_contain_text("Payment to approve")
    expect(queue).to_contain_text("Emergency hotel nights, £190.00")
    fits_a_phone(boss, "queue-with-approval")
    # The team queue is one line per person and kind: open the line to reach the item.
    queue.locator("details.queue-group", has_text="Emergency hotel nights").locator(
        "summary"
    ).click()
    boss.page.get_by_role("link", name="Approve or not").first.click()
    expect(boss.page.get_by_label("Approve the payment")).to_be_visible()
    fits_a_phone(boss, "payment-decide")
    boss.page.get_by_label("Approve the payment").check()
    boss.page.get_by_role("button", name="Save the decision").click()
    expect(boss.page.get_by_role("status")).to_have_text("Decision saved.")
    expect(boss.page.locator("#payment-state")).to_contain_text("Approved and paid")

    page.reload()
    expect(page.locator("#payment-state")).to_contain_text("Approved and paid")
    fits_a_phone(tab, "payment-approved")


def test_a_language_is_found_by_typing_part_of_its_name(new_tab, live_server, cast):
    party = f.add_party(cast.case, full_name="Ana Example")
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/people/{party.public_id}/")
    search = page.get_by_role("searchbox", name="Find a language: Languages they speak or sign")
    search.fill("soomaal")
    languages = page.get_by_label("Languages they speak or sign", exact=True)
    expect(languages.locator("option:not([hidden])")).to_have_count(2)  # Somali, and "Other"
    expect(languages.locator("option[value=so]")).to_be_visible()
    languages.select_option(["so"])
    search.fill("sign")
    expect(languages.locator("option[value=bfi]")).not_to_have_attribute("hidden", "")
    expect(languages.locator("option[value=pl]")).to_have_attribute("hidden", "")
    fits_a_phone(tab, "language-filter")
