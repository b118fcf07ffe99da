"""Print that is safe on paper: the safety plan printed to PDF with the browser's own header and
footer switched on (page title and web address) shows neither the address nor a title that
says what the paper is, and leaves out empty sections; the page keeps the privacy key."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.safety import services
from tests import factories as f
from tests.browser.conftest import RECORD_PRINT, print_paper, print_paper_pages, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_the_printed_plan_names_nothing_and_leaves_out_what_is_empty(tab, live_server, cast):
    services.plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={"home": "Front room is safest.", "leaving": "Taxi to the refuge."},
    )
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("safety:plan_print", args=[cast.case.public_id]))
    expect(page).to_have_title("Notes")
    tab.check("safe-print")
    # The browser's print dialog is recorded, not opened (headless Chromium would block on it).
    page.context.add_init_script(RECORD_PRINT)
    text = print_paper(page, "Notes")
    assert "Front room is safest." in text and "Taxi to the refuge." in text
    assert "Notes" in text
    for revealing in ("Safety plan", "/cases/", "localhost", "http", "Nothing recorded"):
        assert revealing.lower() not in text.lower(), f"the paper shows {revealing!r}"
    assert cast.case.reference not in text and cast.case.public_id not in text

    # The privacy key works on the print page too.
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    expect(page.locator("#privacy-screen")).to_be_visible()


def _printed(tab, path: str):
    """The paper ``path`` prints through its "Print" button, as PDF pages' text."""
    page = tab.page
    tab.goto(path)
    expect(page).to_have_title("Notes")
    page.context.add_init_script(RECORD_PRINT)
    tab.goto(path)
    return print_paper_pages(page, "Notes")


def test_the_printed_chronologies_name_nothing_and_fingerprint_the_last_page(
    tab, live_server, cast
):
    import datetime as dt

    from tests.agreements.helpers import make_agreement, record_breach

    agreement = make_agreement(cast.case, cast.assigned)
    for day in range(1, 40):
        record_breach(
            agreement,
            cast.assigned,
            dt.datetime(2025, 1, 6, 9, 0, tzinfo=dt.UTC) + dt.timedelta(days=day),
        )
    sign_in(tab.page, live_server, "assigned", f.PASSWORD)
    papers = {
        "case": reverse("cases:timeline_print", args=[cast.case.public_id]),
        "agreement": reverse(
            "agreements:chronology", args=[cast.case.public_id, agreement.public_id]
        ),
    }
    for name, path in papers.items():
        pages = _printed(tab, path)
        text = "\n".join(pages)
        assert len(pages) >= 2, f"the {name} chronology should run to several pages"
        assert cast.case.short_number in text
        for revealing in ("chronology", "caseflow", "/cases/", "localhost", "http"):
            assert revealing not in text.lower(), f"the {name} paper shows {revealing!r}"
        assert cast.case.reference not in text and cast.case.public_id not in text
        assert "SHA-256" in pages[-1] and all("SHA-256" not in p for p in pages[:-1]), name
