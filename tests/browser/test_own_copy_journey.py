"""Her own copy at 375 px: the advocate opens "Give her a copy of her record" on the case, ticks
with her the incident and the contact she wants, confirms she asked for it, and prints the paper
to PDF with the browser's own header and footer switched on. The PDF holds her words and dates
in her language, and no web address, agency name, case reference or anyone else's details."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.confidentiality.models import Disclosure, DisclosureKind
from tests import factories as f
from tests.agreements.helpers import log_event, make_agreement
from tests.browser.conftest import PHONE, RECORD_PRINT, fits_a_phone, print_paper, sign_in
from tests.casework.helpers import make_incident
from tests.confidentiality.helpers import party
from tests.conftest import canary

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

HER_WORDS = "He took my phone and read my messages out loud."
CONTACT_WORDS = "Said he would keep the children an extra night."


def test_the_advocate_prints_her_own_copy_and_it_names_nothing(new_tab, live_server, cast):
    case = cast.case
    survivor = party(case)
    survivor.languages = "es"
    survivor.save()
    make_incident(
        case,
        cast.assigned,
        when=dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.UTC),
        what_happened=HER_WORDS,
        witnesses="Neighbour Witness-Name",
        police="yes",
        police_reference="POLICE-REF-778",
    )
    make_incident(
        case,
        cast.assigned,
        when=dt.datetime(2026, 2, 1, 9, 0, tzinfo=dt.UTC),
        what_happened="He waited outside the school gate.",
    )
    agreement = make_agreement(case, cast.assigned)
    log_event(
        agreement,
        cast.assigned,
        dt.datetime(2026, 3, 3, 18, 30, tzinfo=dt.UTC),
        description=CONTACT_WORDS,
    )

    tab = new_tab(viewport=PHONE)
    page = tab.page
    # The browser's print dialog is recorded, not opened (headless Chromium would block on it).
    page.context.add_init_script(RECORD_PRINT)
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("cases:detail", args=[case.public_id]))
    sharing = page.get_by_role("region", name="Consent and disclosures")
    sharing.get_by_role("link", name="Give her a copy of her record").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Give her a copy of her record")
    expect(page.locator("main")).to_contain_text("Her languages: Spanish.")
    # Nothing is ticked until she chooses.
    boxes = page.locator("input[type=checkbox]")
    assert boxes.count() == 4  # two incidents, one contact, her consent
    for index in range(boxes.count()):
        expect(boxes.nth(index)).not_to_be_checked()
    fits_a_phone(tab, "own-copy-form")

    # Nothing chosen is a message on the form; nothing is recorded.
    page.get_by_label("She asked for this copy and agrees to take it").check()
    page.get_by_role("button", name="Show her copy").click()
    expect(page.locator("main")).to_contain_text(
        "Choose at least one incident or contact she wants on her copy."
    )
    assert not Disclosure.objects.exists()
    fits_a_phone(tab, "own-copy-form-error")

    page.get_by_label(re.compile("took my phone")).check()
    page.get_by_label(re.compile("extra night")).check()
    page.get_by_label("She asked for this copy and agrees to take it").check()
    page.get_by_role("button", name="Show her copy").click()
    expect(page).to_have_title("Notas para mí")
    paper_area = page.locator("#print-area")
    expect(paper_area).to_contain_text(HER_WORDS)
    expect(paper_area).to_contain_text("1 marzo 2026")
    fits_a_phone(tab, "own-copy-paper")
    assert Disclosure.objects.get().kind == DisclosureKind.OWN_COPY

    text = print_paper(page, "Notas para mí")
    flat = " ".join(text.split())
    assert "Notas para mí" in flat
    assert HER_WORDS in flat and CONTACT_WORDS in flat
    assert "1 marzo 2026" in flat and "3 marzo 2026, 18:30" in flat
    for revealing in (
        "http",
        "localhost",
        "/cases/",
        "caseflow",
        cast.agency.name,
        case.reference,
        case.public_id,
        canary(case),  # her name and phone, the case summary, the other party's name
        cast.assigned.get_full_name(),
        "Witness-Name",
        "POLICE-REF-778",
        "school gate",
    ):
        assert revealing.lower() not in flat.lower(), f"the PDF shows {revealing!r}"
