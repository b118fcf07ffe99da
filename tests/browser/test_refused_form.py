"""A form saved after signing in again in another tab: caseflow's own page, in the layout and the
reader's words, says the text is kept and leads back to the form, where it is put back."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

TEXT = "Called from a friend's phone about the weekend handover."


@pytest.mark.parametrize("width", [1366, 375])
def test_a_form_sent_after_signing_in_again_elsewhere_loses_nothing(tab, live_server, cast, width):
    page = tab.page
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, live_server, "assigned", f.PASSWORD)
    form = reverse("casework:note_new", args=[cast.case.public_id])
    tab.goto(form)
    page.get_by_label("What kind of contact").select_option(label="Phone call")
    page.get_by_label("The survivor").check()
    page.get_by_label("Direction").select_option(label="They contacted us")
    page.get_by_label("How long (minutes)").fill("20")
    with page.expect_response(lambda r: "draft" in r.url and r.request.method == "POST"):
        page.locator("#id_text").fill(TEXT)

    # In another tab of the same browser the advocate signs out and in again: the first tab's
    # form is now stale.
    other = page.context.new_page()
    other.goto(live_server.url + "/")
    other.get_by_role("button", name="Sign out assigned").click()
    expect(other.get_by_label("Username")).to_be_visible()
    sign_in(other, live_server, "assigned", f.PASSWORD)
    other.close()

    page.get_by_role("button", name="Save note").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("This form was not sent")
    expect(page.locator("main")).to_contain_text("Put it back")
    assert TEXT not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    tab.check(f"refused-form-{width}")

    page.get_by_role("link", name="Back to the form").click()
    offer = page.get_by_role("status").filter(has_text="You have unsaved text in this form")
    offer.get_by_role("button", name="Put it back").click()
    expect(page.locator("#id_text")).to_have_value(TEXT)
