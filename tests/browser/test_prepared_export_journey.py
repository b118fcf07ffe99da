"""A large case export, at 1366 and 375 px: the advocate asks for the export of a case with more
contacts than a request should build, under the survivor's release; its page shows it being
prepared and follows the worker; the advocate downloads it (the disclosure recorded then); the
case's supervisor, who may edit the case too, cannot fetch it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from caseflow.confidentiality.models import Category, Disclosure, PreparedExport
from caseflow.confidentiality.services import prepared_exports
from caseflow.confidentiality.tasks import prepare_export
from caseflow.lib import softcache
from caseflow.outbox.models import Intent
from tests import factories as f
from tests.agreements.helpers import london, make_agreement, record_breach
from tests.browser.conftest import PHONE, looks_right, sign_in
from tests.confidentiality.helpers import RECIPIENT, release

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize("width, height", [(1366, 900), (PHONE["width"], PHONE["height"])])
def test_an_advocate_prepares_a_large_case_export_and_nobody_else_can_fetch_it(
    new_tab, live_server, cast, browser_db, tmp_path, width, height
):
    browser_db.EXPORT_BACKGROUND_ROWS = 1
    agreement = make_agreement(cast.case, cast.assigned)
    record_breach(agreement, cast.assigned, london(2025, 2, 4, 22, 0))  # a contact and a breach
    rel = release(cast, categories=[Category.CONTACT, Category.EVIDENCE])

    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/confidentiality/case-export/")
    page.get_by_label("Under the consent").select_option(rel.public_id)
    page.get_by_label("Recipient organisation").fill(RECIPIENT)
    page.get_by_role("button", name="Produce case export").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Case export for another organisation"
    )
    expect(page.get_by_text("This file is large, so it is being prepared.")).to_be_visible()
    expect(page.locator("#prepared-state")).to_have_text("Waiting for its turn")
    bar = page.locator("progress#prepared-bar")
    expect(bar).to_have_attribute("value", "0")
    prepared = PreparedExport.objects.get()
    assert prepared.public_id in page.url and cast.case.public_id in page.url
    looks_right(tab, width, "prepared-export-waiting")

    # A worker starts on it: the page follows (htmx, every 2 s) as it goes.
    prepared_exports.prepared_export_claim(export_id=prepared.pk)
    softcache.count(prepared_exports.progress_key(prepared.pk), 3600)
    expect(page.locator("#prepared-state")).to_have_text("Being prepared")
    expect(bar).to_have_attribute("value", str(100 // prepared.total))

    # The worker's turn: the task as the outbox sends it.
    intent = Intent.objects.get(task=prepared_exports.TASK, completed_at__isnull=True)
    prepare_export(**intent.kwargs, intent_id=intent.pk)
    download_link = page.get_by_role("link", name="Download the file")
    expect(download_link).to_be_visible()
    expect(page.locator("#prepared-state")).to_have_text("Ready to download")
    assert not Disclosure.objects.exists()  # nothing has left the agency yet
    looks_right(tab, width, "prepared-export-ready")
    with page.expect_download() as download_info:
        download_link.click()
    download = download_info.value
    disclosure = Disclosure.objects.get()
    assert download.suggested_filename == (
        f"case-export-{cast.case.public_id[:8]}-{disclosure.pk}.json"
    )
    target = tmp_path / "export.json"
    download.save_as(target)
    document = json.loads(target.read_text())
    assert document["disclosure"] == disclosure.pk
    assert [s["category"] for s in document["sections"]] == ["contact", "evidence"]

    # The case's supervisor may edit the case, and still cannot fetch it.
    other = new_tab(viewport={"width": width, "height": height})
    sign_in(other.page, live_server, "supervisor", f.PASSWORD)
    base = f"/cases/{cast.case.public_id}/confidentiality/exports/{prepared.public_id}/"
    other.goto(base, status=404)
    other.goto(f"{base}download/", status=404)
    assert Disclosure.objects.count() == 1
