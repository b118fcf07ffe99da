"""Court support at 375 px: an advocate records a hearing tomorrow, confirms the safety steps it
proposes (all ticked), and finds them on today's queue with the hearing itself."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.accounts import zones
from caseflow.cases.models import RiskLevel
from caseflow.court.models import Hearing
from tests import factories as f
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_a_hearing_is_recorded_and_its_safety_steps_reach_the_today_queue(
    new_tab, live_server, cast
):
    case = cast.case
    case.risk_level = RiskLevel.HIGH
    case.save(update_fields=["risk_level"])
    # Safe to reach her at any time of any day, so the check-in before falls today.
    profile = case.safe_contact
    profile.rules = {
        "channels": ["phone"],
        "windows": [{"days": list(range(7)), "start": "00:00", "end": "23:59"}],
        "voicemail_safe": False,
    }
    profile.save()
    tomorrow = timezone.localtime(timezone.now(), zones.default_zone()).date() + dt.timedelta(
        days=1
    )

    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{case.public_id}/")
    court = page.get_by_role("region", name="Court")
    expect(court).to_contain_text("No hearing coming up.")
    court.get_by_role("link", name="Record a hearing").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a hearing")
    page.get_by_label("Kind of hearing").select_option("protection_order")
    page.get_by_label("Court", exact=True).fill("Exampletown Family Court")
    # A slip of the year is a message on the form, not an error page; nothing is saved.
    page.get_by_label("Date and time").fill("1926-01-01T10:00")
    page.get_by_label("Accompaniment").check()
    page.get_by_role("button", name="Record the hearing").click()
    expect(page.locator("main")).to_contain_text("more than ten years ago")
    assert not Hearing.objects.exists()
    fits_a_phone(tab, "court-hearing-form")
    page.get_by_label("Date and time").fill(f"{tomorrow.isoformat()}T15:00")
    page.get_by_role("button", name="Record the hearing").click()
    expect(page.get_by_role("status")).to_have_text("Hearing recorded.")

    expect(page.get_by_role("heading", level=1)).to_have_text("Safety steps for the hearing")
    for label in (
        "Review the safety plan before the hearing",
        "A check-in the day before",
        "A check-in the day after",
        "Arrange the accompaniment to court",
    ):
        expect(page.get_by_label(label)).to_be_checked()
    fits_a_phone(tab, "court-safety-steps")
    page.get_by_role("button", name="Add the ticked steps").click()
    expect(page.get_by_role("status")).to_have_text("4 safety steps added.")
    expect(page.locator("main")).to_contain_text("Exampletown Family Court")
    fits_a_phone(tab, "court-hearing")

    tab.goto("/")
    day = page.get_by_role("region", name="Your day")
    expect(day).to_contain_text("Safety plan review")
    expect(day).to_contain_text("Check-in")
    expect(day).to_contain_text("Protection order hearing")
    # The court's name stays on the case's own pages.
    expect(day).not_to_contain_text("Exampletown")
    fits_a_phone(tab, "court-today-queue")

    tab.goto(f"/cases/{case.public_id}/")
    expect(page.get_by_role("region", name="Court")).to_contain_text("Protection order")
