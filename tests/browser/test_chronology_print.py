"""Every paper prints safe: the case chronology and a referral pack, at 375 px, printed through
the page's "Print" button and through Ctrl+P, to PDF with the browser's own header and footer
switched on (page title and web address). The PDF holds the entries, the short number and no web
address, no title that says what the paper is, and no case reference. Printed from the page itself
(the browser's menu), the paper is left out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.confidentiality.models import Category
from tests import factories as f
from tests.browser.conftest import PHONE, RECORD_PRINT, fits_a_phone, pdf_text, print_paper, sign_in
from tests.casework.helpers import make_incident
from tests.confidentiality.helpers import RECIPIENT, release

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

HER_WORDS = "He followed her car from the school to the supermarket."
REVEALING = ("http", "localhost", "/cases/", "caseflow", "chronology", "referral pack")


def _print(page, how: str) -> str:
    """The paper the page prints (through its button, or Ctrl+P), as the PDF's text."""
    text = print_paper(page, "Notes", press=None if how == "button" else how)
    return " ".join(text.split())


def _names_nothing(text: str, case, what: str) -> None:
    assert "Notes" in text, what  # the title the header prints says nothing of the paper
    for revealing in REVEALING:
        assert revealing not in text.lower(), f"the {what} shows {revealing!r}"
    assert case.reference not in text and case.public_id not in text, what
    assert case.short_number in text, what


def test_the_chronology_and_a_referral_pack_print_naming_nothing(new_tab, live_server, cast):
    case = cast.case
    make_incident(
        case,
        cast.assigned,
        when=dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.UTC),
        what_happened=HER_WORDS,
    )
    release(cast, categories=[Category.CONTACT])
    tab = new_tab(viewport=PHONE)
    page = tab.page
    # The browser's print dialog is recorded, not opened (headless Chromium would block on it).
    page.context.add_init_script(RECORD_PRINT)
    sign_in(page, live_server, "assigned", f.PASSWORD)

    tab.goto(reverse("cases:timeline_print", args=[case.public_id]))
    expect(page).to_have_title("Notes")
    expect(page.locator("#print-area")).to_contain_text(HER_WORDS)
    fits_a_phone(tab, "chronology-print")
    for how in ("button", "Control+P"):
        text = _print(page, how)
        assert HER_WORDS in text and "Case opened" in text, how
        assert "SHA-256" in text, how
        _names_nothing(text, case, f"chronology printed by {how}")
    # Printed from the page itself (the browser's menu), whose address the footer carries: the
    # paper is left out, and a line says how to print it.
    page.emulate_media(media="print")
    text = " ".join(pdf_text(page).split())
    page.emulate_media(media="screen")
    assert "opens the paper on its own, without this page's web address" in text
    assert HER_WORDS not in text and "SHA-256" not in text and "Record of events" not in text

    tab.goto(reverse("confidentiality:referral_pack", args=[case.public_id]))
    page.get_by_label("Recipient organisation").fill(RECIPIENT)
    page.get_by_role("checkbox", name="Contact details").check()
    page.get_by_role("button", name="Produce referral pack").click()
    expect(page).to_have_title("Notes")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Referral pack for {RECIPIENT}")
    fits_a_phone(tab, "referral-pack")
    text = _print(page, "button")
    assert RECIPIENT in text and "Contact" in text
    _names_nothing(text, case, "referral pack")
