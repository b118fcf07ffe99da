"""Nothing lost to a timeout: typing keeps the session alive; the warning counts down with "Stay
signed in"; a forced timeout signs the advocate out, and after signing in again the text they
typed is offered back from the server. The idle limit is shortened to seconds for the test."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.cases.models import Draft
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

IDLE = 8
TEXT = "Leave by the back door; Sam keeps the spare key and the children's bags."
WAIT = {"timeout": 4 * IDLE * 1000}


def test_typing_past_the_idle_limit_then_a_forced_timeout_loses_nothing(
    tab, live_server, cast, browser_db
):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    browser_db.SESSION_IDLE_SECONDS = IDLE
    plan_form = reverse("safety:plan_edit", args=[cast.case.public_id])
    tab.goto(plan_form)
    leaving = page.get_by_label("Leaving plan")
    # Typing for longer than the idle limit: the keystrokes keep the session alive.
    leaving.press_sequentially(TEXT, delay=(IDLE + 3) * 1000 // len(TEXT), timeout=60_000)
    still_in = page.evaluate("fetch('/', {redirect: 'manual'}).then(r => r.type)")
    assert still_in == "basic", "the session ended while the advocate was typing"

    # Nothing happens for a while: the warning counts down and "Stay signed in" keeps it.
    warning = page.get_by_role("alert").filter(has_text="You will be signed out in")
    expect(warning).to_be_visible(**WAIT)
    expect(warning).to_contain_text(re.compile(r"signed out in \d+ seconds?"))
    tab.check("idle-warning")
    warning.get_by_role("button", name="Stay signed in").click()
    expect(warning).to_be_hidden()
    page.wait_for_load_state("networkidle")  # the draft's save has been answered
    kept = Draft.objects.get(user=cast.assigned, form="safety-plan")
    kept.case = cast.case
    assert kept.data["leaving"] == [TEXT]

    # Still nothing: the session ends and the page goes to the sign-in form.
    expect(page).to_have_url(re.compile(r"/accounts/login/"), **WAIT)
    browser_db.SESSION_IDLE_SECONDS = 15 * 60

    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(plan_form)
    offer = page.get_by_role("status").filter(has_text="You have unsaved text in this form")
    expect(offer).to_be_visible()
    tab.check("draft-offered")
    offer.get_by_role("button", name="Put it back").click()
    expect(page.get_by_label("Leaving plan")).to_have_value(TEXT)
    page.get_by_role("button", name="Save as a new version").click()
    expect(page.get_by_role("status").first).to_have_text("Safety plan saved as a new version.")
    expect(page.locator("main")).to_contain_text("Sam keeps the spare key")
    assert not Draft.objects.filter(user=cast.assigned).exists()
