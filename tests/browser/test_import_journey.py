"""Moving in, at 375 px: the agency admin uploads a 200-case file with errors, reads the dry
run's row-by-row report (nothing written), uploads the corrected file, checks it, imports it in
the background with a progress bar, and the advocate finds the cases with their histories."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import Case
from caseflow.imports import sample
from caseflow.imports.models import ImportBatch, ImportRecord
from caseflow.imports.tasks import import_commit
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

LABEL = "Caseload file (.csv or .xlsx)"
#: Checking and importing 200 rows on a shared, loaded machine takes a while.
SLOW = 600_000


def test_admin_imports_a_200_case_file_after_correcting_it(new_tab, live_server, cast, tmp_path):
    today = timezone.localdate()
    faulty = tmp_path / "caseload.csv"
    faulty.write_bytes(
        sample.sample_csv(200, team="Team 1", advocate="assigned", today=today, errors=2)
    )
    fixed = tmp_path / "caseload-corrected.csv"
    fixed.write_bytes(sample.sample_csv(200, team="Team 1", advocate="assigned", today=today))
    cases_before = Case.objects.count()

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    tab.goto("/accounts/staff/")
    page.get_by_role("link", name="Import a caseload").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import a caseload")
    fits_a_phone(tab, "import-upload")

    page.get_by_label(LABEL).set_input_files(str(faulty))
    page.get_by_role("button", name="Upload and choose the columns").click(timeout=SLOW)
    expect(page.get_by_role("heading", name="Which column holds what")).to_be_visible()
    fits_a_phone(tab, "import-mapping")
    page.get_by_role("button", name="Check every row (nothing is written)").click(timeout=SLOW)
    expect(page.get_by_role("heading", name="Rows to correct")).to_be_visible(timeout=SLOW)
    problems = page.locator("#import-problems tbody tr")
    expect(problems).to_have_count(8)  # two rows of every 50
    expect(problems.first).to_contain_text("A date of birth cannot be in the future.")
    expect(page.get_by_role("button", name="Import these cases")).to_have_count(0)
    fits_a_phone(tab, "import-report")
    assert Case.objects.count() == cases_before

    page.get_by_role("link", name="Import a caseload").click()
    page.get_by_label(LABEL).set_input_files(str(fixed))
    page.get_by_role("button", name="Upload and choose the columns").click(timeout=SLOW)
    # The mapping chosen for the first file is offered again.
    expect(page.get_by_label("Survivor's full name")).to_have_value("survivor_full_name")
    page.get_by_role("button", name="Check every row (nothing is written)").click(timeout=SLOW)
    expect(page.get_by_text("Every row passed.")).to_be_visible(timeout=SLOW)
    page.get_by_role("button", name="Import these cases").click(timeout=SLOW)
    expect(page.get_by_role("status")).to_contain_text("The import has started.")
    expect(page.locator("progress#import-bar")).to_be_visible()
    fits_a_phone(tab, "import-progress")

    # The worker's turn: the task the outbox sends, run here as a worker would run it.
    batch = ImportBatch.objects.get(state="queued")
    import_commit.run(batch_id=batch.pk)
    expect(page.get_by_role("link", name="See the result")).to_be_visible(timeout=SLOW)
    page.get_by_role("link", name="See the result").click()
    expect(page.get_by_text("Imported", exact=True)).to_be_visible()
    fits_a_phone(tab, "import-done")
    assert Case.objects.count() == cases_before + 200

    advocate = new_tab(viewport=PHONE)
    sign_in(advocate.page, live_server, "assigned", f.PASSWORD)
    record = ImportRecord.objects.select_related("case").get(source_id="OLD-00001")
    advocate.goto(f"/cases/{record.case.public_id}/timeline/")
    expect(
        advocate.page.get_by_text("First contact with case 1: referral discussed.")
    ).to_be_visible()
    fits_a_phone(advocate, "import-case-history")
