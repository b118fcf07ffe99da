"""Services in the funders' categories at 375 px: an advocate counts a court note as "Support at
court" (the form suggests it, with the note's minutes; a slip of the date is a message on the
form), her supervisor sees it counted in the VOCA quarter's "Services given, by the funder's
categories", and the agency admin adds a category of the agency's own."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import Case
from caseflow.reporting import reports
from caseflow.servicelog import services
from caseflow.servicelog.models import ServiceRecord
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in
from tests.casework.helpers import make_note

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_note_counted_in_a_funders_category_is_seen_in_the_voca_quarter(
    new_tab, live_server, cast
):
    case = cast.case
    Case.objects.filter(pk=case.pk).update(opened_at=timezone.now() - dt.timedelta(days=400))
    # The last federal quarter that has ended: five court notes in it are counted already (so
    # the sixth makes a count the report shows, not a small one it hides).
    quarter = reports.periods("federal_quarter", timezone.localdate())[0]
    day = quarter.start + dt.timedelta(days=10)
    when = dt.datetime.combine(day, dt.time(11), tzinfo=dt.UTC)
    for _n in range(5):
        earlier = make_note(case, cast.assigned, when=when, kind="court")
        services.service_record(
            actor=cast.assigned,
            source_kind="note",
            source=earlier,
            category="insights_court",
            minutes=60,
            given_on=day,
        )
    note = make_note(case, cast.assigned, when=when, kind="court", duration_minutes=45)

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("casework:note", args=[case.public_id, note.public_id]))
    page.get_by_role("link", name="Count this as a service").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Count this as a service")
    category = page.get_by_label("Category")
    expect(category).to_have_value("insights_court")
    expect(page.get_by_label("Minutes")).to_have_value("45")
    # A slip of the date is a message on the form, and nothing is counted.
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    page.get_by_label("Given on").fill(tomorrow.isoformat())
    page.get_by_role("button", name="Count the service").click()
    expect(page.locator("main")).to_contain_text("that date is in the future")
    assert ServiceRecord.objects.count() == 5
    fits_a_phone(tab, "service-count-form")
    page.get_by_label("Given on").fill(day.isoformat())
    page.get_by_role("button", name="Count the service").click()
    expect(page.get_by_role("status")).to_have_text("Service counted.")
    counted = ServiceRecord.objects.get(note=note)
    assert (counted.category, counted.minutes, counted.given_on) == ("insights_court", 45, day)

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    tab.goto(reverse("reporting:preview", args=["voca"]) + f"?period={quarter.start.isoformat()}")
    title = "Services given, by the funder's categories"
    section = page.locator("section").filter(has=page.get_by_role("heading", name=title))
    row = section.get_by_role("row").filter(has_text="Support at court")
    expect(row).to_have_count(1)
    expect(row.get_by_role("cell")).to_have_text("6")
    fits_a_phone(tab, "voca-with-service-categories")

    # The agency admin keeps the catalogue, from the settings list.
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    tab.goto(reverse("agency:settings"))
    page.get_by_role("link", name="Service categories").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Service categories")
    page.get_by_label("A category of your own").fill("Peer mentoring")
    page.get_by_role("button", name="Add the category").click()
    expect(page.get_by_role("status")).to_have_text("Category added.")
    expect(page.locator("main")).to_contain_text("Peer mentoring")
    fits_a_phone(tab, "service-categories")
