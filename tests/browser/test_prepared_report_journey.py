"""A large funder report, at 1366 and 375 px: the supervisor previews a quarter that counts more
people than a request should, asks for the CSV to be prepared, follows its progress on its page
and downloads it when the worker is done (the same bytes as a small report's CSV); another
supervisor of the agency cannot fetch it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import PartyRole
from caseflow.lib import softcache
from caseflow.outbox.models import Intent
from caseflow.reporting import reports, services
from caseflow.reporting.models import PreparedReport
from caseflow.reporting.tasks import prepare_report
from tests import factories as f
from tests.browser.conftest import PHONE, looks_right, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize("width, height", [(1366, 900), (PHONE["width"], PHONE["height"])])
def test_a_supervisor_prepares_a_large_report_and_nobody_else_can_fetch_it(
    new_tab, live_server, cast, browser_db, tmp_path, width, height
):
    browser_db.REPORT_BACKGROUND_THRESHOLD = 5
    for n in range(7):
        case = f.open_case(cast.team1, reference=f"R-{n}")
        case.opened_at = timezone.now() - dt.timedelta(days=400)
        case.save(update_fields=["opened_at"])
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {n}")
    period = reports.periods("federal_quarter", timezone.localdate())[0]

    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    tab.goto(f"/reports/funders/voca/?period={period.start.isoformat()}")
    expect(page.get_by_role("link", name="Download this CSV")).to_have_count(0)
    page.get_by_role("button", name="Prepare this CSV").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(str(reports.REPORTS["voca"].title))
    expect(page.locator("#prepared-state")).to_have_text("Waiting for its turn")
    bar = page.locator("progress#prepared-bar")
    expect(bar).to_have_attribute("value", "0")
    prepared = PreparedReport.objects.get()
    looks_right(tab, width, "prepared-waiting")

    # A worker starts on it: the page follows (htmx, every 2 s) as it goes.
    services.prepared_claim(report_id=prepared.pk)
    for _step in range(3):
        softcache.count(services.progress_key(prepared.pk), 3600)
    expect(page.locator("#prepared-state")).to_have_text("Being prepared")
    expect(bar).to_have_attribute("value", str(3 * 100 // services.STEPS["voca"]))

    # The worker's turn: the task as the outbox sends it.
    intent = Intent.objects.get(completed_at__isnull=True)
    prepare_report(**intent.kwargs, intent_id=intent.pk)
    download_link = page.get_by_role("link", name="Download this CSV")
    expect(download_link).to_be_visible()
    expect(page.locator("#prepared-state")).to_have_text("Ready to download")
    looks_right(tab, width, "prepared-ready")
    with page.expect_download() as download_info:
        download_link.click()
    download = download_info.value
    assert download.suggested_filename == "caseflow-voca.csv"
    target = tmp_path / "voca.csv"
    download.save_as(target)
    assert target.read_bytes() == services.csv_bytes(
        reports.release("voca", cast.agency.pk, period)
    )

    # Another supervisor of the same agency, who runs reports too, cannot fetch it.
    other = new_tab(viewport={"width": width, "height": height})
    sign_in(other.page, live_server, "other_supervisor", f.PASSWORD)
    other.goto(f"/reports/prepared/{prepared.public_id}/", status=404)
    other.goto(f"/reports/prepared/{prepared.public_id}/download/", status=404)
