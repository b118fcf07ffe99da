"""The SafeLives Insights return, at 1366 and 375 px: an advocate records that the survivor
agrees to share anonymised data for research; a supervisor prepares the latest quarter's return
from the funder reports, follows it on its page and downloads it when the worker is done: one row,
the survivor who did not agree counted as left out, no name in the file; another supervisor of
the agency cannot fetch it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import (
    Case,
    PartyRole,
)
from caseflow.outbox.models import Intent
from caseflow.reporting import reports, returns
from caseflow.reporting.models import PreparedReport
from caseflow.reporting.tasks import prepare_report
from tests import factories as f
from tests.browser.conftest import PHONE, looks_right, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _left_in(case: Case, quarter: reports.Period, actor) -> None:
    """An episode of support that ended in the middle of ``quarter``."""
    closed = dt.datetime.combine(quarter.start + dt.timedelta(days=20), dt.time(12), dt.UTC)
    f.close_episode(case, actor, opened=closed - dt.timedelta(days=50), closed=closed)


@pytest.mark.parametrize("width, height", [(1366, 900), (PHONE["width"], PHONE["height"])])
def test_a_supervisor_prepares_the_insights_return_and_downloads_it(
    new_tab, live_server, cast, browser_db, tmp_path, width, height
):
    quarter = reports.periods("quarter", timezone.localdate())[0]
    agreed = f.open_case(cast.team1, [cast.assigned], reference="INS-1")
    f.add_party(agreed, PartyRole.SURVIVOR, full_name="Marisol Quennell")
    declined = f.open_case(cast.team1, [cast.assigned], reference="INS-2")
    f.add_party(declined, PartyRole.SURVIVOR, full_name="Tamsin Oduya")
    for case in (agreed, declined):
        Case.objects.filter(pk=case.pk).update(opened_at=timezone.now() - dt.timedelta(days=400))

    # Her advocate records her answer on the case, before she leaves.
    advocate = new_tab(viewport={"width": width, "height": height})
    sign_in(advocate.page, live_server, "assigned", f.PASSWORD)
    advocate.goto(f"/cases/{agreed.public_id}/confidentiality/research-consent/")
    looks_right(advocate, width, "research-consent")
    advocate.page.get_by_label("Yes, she agrees").check()
    advocate.page.get_by_role("button", name="Save her answer").click()
    expect(advocate.page.locator("#research-consent")).to_contain_text("Agreed")
    for case in (agreed, declined):
        _left_in(case, quarter, cast.assigned)

    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    tab.goto("/reports/funders/")
    page.get_by_role("link", name=str(returns.KIND.title)).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(str(returns.KIND.title))
    looks_right(tab, width, "insights-return")
    page.get_by_label("Period").select_option(quarter.start.isoformat())
    page.get_by_role("button", name="Prepare the return").click()
    expect(page.locator("#prepared-state")).to_have_text("Waiting for its turn")
    prepared = PreparedReport.objects.get()

    # The worker's turn: the task as the outbox sends it.
    intent = Intent.objects.get(completed_at__isnull=True)
    prepare_report(**intent.kwargs, intent_id=intent.pk)
    download_link = page.get_by_role("link", name="Download this CSV")
    expect(download_link).to_be_visible()
    page.reload()
    expect(page.locator("#return-rows")).to_have_text("1")
    expect(page.locator("#return-left-out")).to_have_text("1")
    looks_right(tab, width, "insights-return-ready")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download this CSV").click()
    target = tmp_path / "return.csv"
    download_info.value.save_as(target)
    data = target.read_bytes()
    assert returns.pseudonym(cast.agency.pk, agreed.pk).encode() in data
    assert returns.pseudonym(cast.agency.pk, declined.pk).encode() not in data
    for shown in (b"Marisol", b"Quennell", b"Tamsin", b"INS-1", agreed.public_id.encode()):
        assert shown not in data

    # Another supervisor of the same agency, who runs reports too, cannot fetch it.
    other = new_tab(viewport={"width": width, "height": height})
    sign_in(other.page, live_server, "other_supervisor", f.PASSWORD)
    other.goto(f"/reports/prepared/{prepared.public_id}/", status=404)
    other.goto(f"/reports/prepared/{prepared.public_id}/download/", status=404)
