"""A purge cannot happen by one slip: a supervisor puts a case on legal hold, lifts it, and a
purge shows what it will destroy and asks again before anything goes. On a phone, axe-clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from caseflow.cases.models import CaseKey
from caseflow.confidentiality import services
from caseflow.confidentiality.models import PurgeProposal
from tests import factories as f
from tests.browser.conftest import sign_in
from tests.confidentiality.helpers import close

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways at 375 px ({width} px wide)"


def test_legal_hold_then_a_purge_that_asks_first(new_tab, live_server, cast):
    case = close(cast.case, 8)
    services.purge_propose_due()
    proposal = PurgeProposal.objects.get(case=case, scope="whole")
    services.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    tab.goto("/confidentiality/purges/")
    page.get_by_text("Legal hold", exact=False).first.click()
    page.get_by_label("Why the record must be kept").fill("Family proceedings are ongoing.")
    page.get_by_role("button", name="Put on legal hold").click()
    expect(page.get_by_role("status").first).to_contain_text("is on legal hold")
    expect(page.locator("main")).to_contain_text("On legal hold")
    tab.check("purges-hold")
    _fits(page)
    page.get_by_role("button", name="Lift the hold").click()
    expect(page.get_by_role("status").first).to_contain_text("lifted")

    services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    tab.goto("/confidentiality/purges/")
    page.get_by_role("button", name="Purge…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Purge case CASE-1?")
    expect(page.get_by_role("alert")).to_contain_text("This cannot be undone.")
    tab.check("purge-confirm")
    _fits(page)
    page.get_by_role("link", name="No, go back").click()
    assert CaseKey.objects.filter(case=case).exists()
    page.get_by_role("button", name="Purge…").click()
    page.get_by_role("button", name="Yes, purge CASE-1 now").click()
    expect(page.get_by_role("status").first).to_contain_text("Purge carried out")
    expect(page.locator("main")).to_contain_text("Deletion certificate for case CASE-1")
    assert not CaseKey.objects.filter(case=case).exists()
    _fits(page)
