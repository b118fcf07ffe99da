"""The moving-in pages walked on a phone, each as the person who uses it would: the agency admin
maps a group of the identity provider to a role and removes it again; a receiving supervisor goes
from "Decisions waiting" to every transfer from other services and refuses one with a reason; an
advocate produces the transfer pack for a service not on caseflow."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.accounts.models import IdentityProvider, ProviderGroup, Role
from caseflow.transfers.models import RefusalReason, Transfer, TransferState
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in
from tests.transfers.helpers import receiving_supervisor, requested, transfer_release

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_the_agency_admin_maps_a_provider_group_to_a_role_and_removes_it(
    new_tab, live_server, cast
):
    IdentityProvider.objects.create(
        agency=cast.agency,
        issuer="https://login.example.org/agency-a",
        client_id="caseflow-agency-a",
        client_secret="not-used-here",
    )
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    tab.goto(reverse("agency:settings"))
    page.get_by_role("link", name="Sign-in through your identity provider").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Sign-in through your identity provider"
    )
    expect(page.locator("main")).to_contain_text("No group gives a role yet.")
    fits_a_phone(tab, "provider-groups-empty")

    page.get_by_label("Group at your identity provider").fill("Outreach advocates")
    page.get_by_label("Role in caseflow").select_option(value=Role.ADVOCATE)
    page.get_by_label("Team").select_option(label=cast.team1.name)
    page.get_by_role("button", name="Add").click()
    expect(page.locator("main")).to_contain_text("Saved. It applies from each person's next")
    expect(page.get_by_role("listitem").filter(has_text="Outreach advocates")).to_contain_text(
        cast.team1.name
    )
    fits_a_phone(tab, "provider-groups-one")
    group = ProviderGroup.objects.get(agency=cast.agency)
    assert (group.name, group.role, group.team_id) == (
        "Outreach advocates",
        Role.ADVOCATE,
        cast.team1.pk,
    )

    # The same group twice is refused on the form, and nothing else changes.
    page.get_by_label("Group at your identity provider").fill("Outreach advocates")
    page.get_by_label("Role in caseflow").select_option(value=Role.SUPERVISOR)
    page.get_by_role("button", name="Add").click()
    expect(page.locator(".invalid-feedback, .alert-danger").first).to_be_visible()
    assert ProviderGroup.objects.get(agency=cast.agency).role == Role.ADVOCATE

    page.get_by_role("button", name="Remove Outreach advocates").click()
    expect(page.locator("main")).to_contain_text("Removed. It applies from each person's next")
    expect(page.locator("main")).to_contain_text("No group gives a role yet.")
    assert not ProviderGroup.objects.filter(agency=cast.agency).exists()


def test_a_receiving_supervisor_finds_every_transfer_and_refuses_one_with_a_reason(
    new_tab, live_server, cast
):
    receiver = receiving_supervisor(cast)
    transfer = requested(cast)

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, receiver.username, f.PASSWORD)
    page.locator("#decisions-waiting").get_by_role(
        "link", name="Every transfer from other services, answered or not"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Transfers from other services")
    fits_a_phone(tab, "transfers-in-waiting")
    page.get_by_role("link", name=f"Answer the transfer from {cast.agency.name}").click()

    # Refusing without a reason is a message on the form, and the transfer still waits.
    page.get_by_label("Refuse the transfer").check()
    page.get_by_role("button", name="Send your answer").click()
    expect(page.get_by_text("Choose the reason for refusing.", exact=True)).to_be_visible()
    transfer.refresh_from_db()
    assert transfer.state == TransferState.REQUESTED

    page.get_by_label("Refuse the transfer").check()
    page.get_by_label("Why you refuse it").select_option(value=RefusalReason.OUT_OF_AREA)
    page.get_by_label("More about the reason").fill("Our refuge is for the north of the county.")
    page.get_by_role("button", name="Send your answer").click()
    expect(page.locator("main")).to_contain_text("Transfer refused: the other service sees")
    answered = page.get_by_role("listitem").filter(has_text=f"From {cast.agency.name}")
    expect(answered).to_contain_text("Refused")
    expect(page.locator("main")).to_contain_text("Nothing is waiting for your answer.")
    fits_a_phone(tab, "transfers-in-answered")
    transfer.refresh_from_db()
    assert (transfer.state, transfer.refusal_reason) == (
        TransferState.REFUSED,
        RefusalReason.OUT_OF_AREA,
    )


def test_an_advocate_produces_the_transfer_pack_for_a_service_not_on_caseflow(
    new_tab, live_server, cast
):
    release = transfer_release(cast, recipient="Northside Women's Aid")
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("cases:detail", args=[cast.case.public_id]))
    page.get_by_role("region", name="Transfers").get_by_role(
        "link", name="Transfer pack for a service not on caseflow"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Transfer pack for a service not on caseflow"
    )
    fits_a_phone(tab, "transfer-pack-form")

    page.get_by_label("The service that takes the case on").fill("Northside Women's Aid")
    page.locator("select[name=release]").select_option(value=release.public_id)
    for label in ("Contact details", "Risk"):
        page.get_by_label(label, exact=True).check()
    with page.expect_download() as download:
        page.get_by_role("button", name="Produce the transfer pack").click()
    assert download.value.suggested_filename
    sent = Transfer.objects.get(case=cast.case)
    assert sent.state == TransferState.SENT_EXTERNAL
    assert sent.external_name == "Northside Women's Aid"

    tab.goto(reverse("cases:detail", args=[cast.case.public_id]))
    expect(page.get_by_role("region", name="Transfers")).to_contain_text("Transfer pack sent")
