"""A coalition's roll-up, at 1366 and 375 px: the coalition's person goes from home to the
coalition's reports, chooses a quarter, has it prepared, follows its progress and downloads the
CSV, whose totals are the member agencies' published figures added up; an agency's supervisor,
who runs that agency's own reports, cannot fetch it."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import PartyRole
from caseflow.outbox.models import Intent
from caseflow.reporting import reports
from caseflow.reporting.models import PreparedReport
from caseflow.reporting.tasks import prepare_report
from tests import factories as f
from tests.browser.conftest import PHONE, looks_right, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _serve(team, count: int, tag: str) -> None:
    for n in range(count):
        case = f.open_case(team, reference=f"{tag}-{n}")
        case.opened_at = timezone.now() - dt.timedelta(days=400)
        case.save(update_fields=["opened_at"])
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {tag} {n}")


@pytest.mark.parametrize("width, height", [(1366, 900), (PHONE["width"], PHONE["height"])])
def test_the_coalitions_person_rolls_up_a_quarter_and_nobody_else_can_fetch_it(
    new_tab, live_server, cast, browser_db, tmp_path, width, height
):
    _serve(cast.team1, 8, "A")
    _serve(cast.other_agency_team, 6, "B")
    period = reports.periods("federal_quarter", timezone.localdate())[0]

    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    sign_in(page, live_server, "coalition", f.PASSWORD)
    looks_right(tab, width, "coalition-home")
    page.get_by_role("link", name="Coalition reports").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Reports for State coalition")
    expect(page.get_by_text("Agency A", exact=True)).to_be_visible()
    looks_right(tab, width, "coalition-list")
    title = str(reports.REPORTS["voca"].title)
    page.get_by_role("link", name=title).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    page.get_by_label("Period").select_option(period.start.isoformat())
    looks_right(tab, width, "coalition-report")
    page.get_by_role("button", name="Prepare this roll-up").click()
    expect(page.locator("#prepared-state")).to_have_text("Waiting for its turn")
    prepared = PreparedReport.objects.get()
    assert prepared.coalition is not None and prepared.agency is None

    # The worker's turn: the task as the outbox sends it; the page follows by itself.
    intent = Intent.objects.get(completed_at__isnull=True)
    prepare_report(**intent.kwargs, intent_id=intent.pk)
    download_link = page.get_by_role("link", name="Download this CSV")
    expect(download_link).to_be_visible()
    looks_right(tab, width, "coalition-ready")
    with page.expect_download() as download_info:
        download_link.click()
    target = tmp_path / "rollup.csv"
    download_info.value.save_as(target)
    rows = list(csv.reader(io.StringIO(target.read_text())))
    assert ["Member agencies added up", "2"] in rows
    assert ["People served", "14"] in rows and ["Continuing from before", "14"] in rows

    # An agency's supervisor, who runs its own reports, cannot fetch the roll-up.
    other = new_tab(viewport={"width": width, "height": height})
    sign_in(other.page, live_server, "supervisor", f.PASSWORD)
    other.goto(f"/reports/prepared/{prepared.public_id}/", status=404)
    other.goto(f"/reports/prepared/{prepared.public_id}/download/", status=404)
