"""Optional sub-forms are revealed when asked for: the note form's follow-up fields stay out of
the way (and out of the Tab order) until "Also create a follow-up" is ticked."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from caseflow.inbox.models import FollowUp
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize("width", [1366, 375])
def test_the_follow_up_fields_appear_only_when_asked_for(tab, live_server, cast, width):
    page = tab.page
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(reverse("casework:note_new", args=[cast.case.public_id]))
    ask = page.get_by_label("Also create a follow-up")
    due, what = page.get_by_label("Follow-up due"), page.get_by_label("What to follow up")
    expect(due).to_be_hidden()
    expect(what).to_be_hidden()
    expect(ask).to_have_attribute("aria-expanded", "false")
    tab.check(f"note-form-folded-{width}")

    ask.check()
    expect(ask).to_have_attribute("aria-expanded", "true")
    expect(due).to_be_visible()
    expect(what).to_be_visible()
    tab.check(f"note-form-revealed-{width}")

    now = dt.datetime.now(dt.UTC)
    page.get_by_label("What kind of contact").select_option(label="Phone call")
    page.get_by_label("Direction").select_option(label="They contacted us")
    # "When" is now unless changed (tests/browser/test_dates.py changes it).
    page.locator("#id_text").fill("Talked through the handover on Friday.")
    due.fill((now + dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    what.fill("Ring back after the handover")
    page.get_by_role("button", name="Save note").click()
    expect(page.get_by_role("status").first).to_have_text("Note recorded.")
    assert FollowUp.objects.filter(case=cast.case).count() == 1
