"""A transfer between agencies at 375 px: the primary advocate asks Agency B to take the case on
under the survivor's release; Agency B's supervisor finds it in "Decisions waiting", reads what
came with it and takes it on; the new case is theirs, and says where it came from."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.transfers.models import Transfer, TransferState
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in
from tests.conftest import canary
from tests.transfers.helpers import receiving_supervisor, transfer_release

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_transfer_is_asked_for_accepted_and_seen_in_the_receiving_agency(
    new_tab, live_server, cast
):
    receiver = receiving_supervisor(cast)
    release = transfer_release(cast)
    receiving = cast.other_agency_team.agency

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("cases:detail", args=[cast.case.public_id]))
    panel = page.get_by_role("region", name="Transfers")
    panel.get_by_role("link", name="Transfer to another service").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Transfer the case to another service"
    )
    fits_a_phone(tab, "transfer-request")
    page.get_by_label("The service that takes the case on").select_option(label=receiving.name)
    page.locator("select[name=release]").select_option(value=release.public_id)
    for label in ("Contact details", "Address", "Risk", "Narratives"):
        page.get_by_label(label, exact=True).check()
    page.get_by_role("button", name="Ask them to take the case on").click()
    expect(page.locator("main")).to_contain_text("Transfer asked for")
    expect(page.get_by_role("region", name="Transfers")).to_contain_text(
        "Waiting for the other service's answer"
    )

    other = new_tab(viewport=PHONE)
    sign_in(other.page, live_server, receiver.username, f.PASSWORD)
    waiting = other.page.locator("#decisions-waiting")
    expect(waiting).to_contain_text("Cases other services ask you to take on")
    waiting.get_by_role("link", name=f"Answer {cast.agency.name}").click()
    main = other.page.locator("main")
    expect(main).to_contain_text(f"Survivor {canary(cast.case)}")
    fits_a_phone(other, "transfer-decide")
    other.page.get_by_label("Take the case on").check()
    other.page.get_by_label("In your team").select_option(label=cast.other_agency_team.name)
    other.page.get_by_role("button", name="Send your answer").click()
    expect(main).to_contain_text("Case taken on")
    expect(other.page.get_by_role("region", name="Transfers")).to_contain_text(
        f"Transferred from {cast.agency.name}"
    )
    expect(main).to_contain_text(f"Survivor {canary(cast.case)}")
    fits_a_phone(other, "transfer-taken-on")

    transfer = Transfer.objects.get()
    assert transfer.state == TransferState.ACCEPTED
    assert transfer.new_case.agency_id == receiving.pk
