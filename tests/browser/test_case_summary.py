"""The case summary first, as an advocate in a hurry sees it on a phone: the survivor's name and
her safe phone (a link that calls) in the first screen, the other party set apart with no link
to call, and "Record a note" always at the bottom of the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.cases.models import PartyRole
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize("width, height", [(375, 740), (1366, 900)])
def test_the_survivor_and_her_safe_phone_come_first_and_the_other_party_cannot_be_called(
    new_tab, live_server, cast, width, height
):
    cast.case.parties.all().delete()
    f.add_party(cast.case, PartyRole.OTHER_PARTY, full_name="Sam Otherparty", phone="07700 900111")
    f.add_party(
        cast.case,
        PartyRole.SURVIVOR,
        full_name="Samantha Example",
        known_as="Sam",
        pronouns="she/her",
    )
    profile = cast.case.safe_contact
    profile.case = cast.case
    profile.safe_phone = "+44 7700 900333"
    profile.save()

    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("cases:detail", args=[cast.case.public_id]))
    tab.check(f"case-summary-{width}")

    name = page.locator(".survivor-name strong")
    expect(name).to_have_text("Sam")
    expect(name).to_be_in_viewport()
    safe_phone = page.get_by_role("link", name="+44 7700 900333")
    expect(safe_phone).to_have_attribute("href", "tel:+447700900333")

    apart = page.locator(".other-party")
    expect(apart.get_by_role("heading", name="Other party: do not contact")).to_be_visible()
    expect(apart.get_by_text("07700 900111")).to_be_visible()
    expect(apart.locator("a[href^='tel:']")).to_have_count(0)
    assert page.locator("a[href^='tel:']").count() == 1

    # The contents list leads to People.
    page.get_by_role("navigation", name="On this page").get_by_role("link", name="People").click()
    expect(page.get_by_role("heading", name="People")).to_be_in_viewport()

    bar = page.locator(".case-actionbar")
    if width < 768:
        # Far down the page, "Record a note" is still on the screen, and it works.
        expect(bar).to_be_in_viewport()
        bar.get_by_role("link", name="Record a note").click()
        expect(page.get_by_role("heading", name="Record a note")).to_be_visible()
        tab.check("case-summary-note-375")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    else:
        expect(bar).to_be_hidden()
