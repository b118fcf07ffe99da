"""The main pages on a phone, from the demo's own data: the advocate's Monday-morning queue,
a case page, its safety plan, the check-ins and the supervisor's team view. Each fits 375 px
and is axe-clean; with ``CASEFLOW_SCREENSHOTS=1`` each is also saved to ``docs/screenshots/``
for the README (the PNGs are committed, so CI need not make them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from caseflow.accounts import second_factor as sf
from caseflow.accounts.models import User
from caseflow.cases.models import OPEN_STATUSES, Case
from caseflow.demo import seed
from tests.browser.conftest import sign_in, take_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 812}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _look(tab, name: str) -> None:
    page = tab.page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} scrolls sideways at 375 px ({width} px wide)"
    tab.check(name)
    if os.environ.get("CASEFLOW_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        take_screenshot(page, DOCS / f"{name}.png", full_page=False)


def test_the_main_pages_of_the_demo_on_a_phone(new_tab, live_server):
    logins = {login.username: login.password for login in seed.seed()}
    for username in ("aisha.advocate", "nadia.supervisor"):
        # As after enrolling: a full set of recovery codes, so no reminder to make more.
        sf._recovery_codes_replace(User.objects.get(username=username))
    advocate = new_tab(viewport=PHONE)
    page = advocate.page
    sign_in(page, live_server, "aisha.advocate", logins["aisha.advocate"])
    day = page.get_by_role("region", name="Your day")
    expect(day.get_by_role("list", name="Overdue").get_by_role("listitem").first).to_be_visible()
    expect(day.get_by_role("list", name="Due today").get_by_role("listitem").first).to_be_visible()
    _look(advocate, "today-queue")

    case = (
        Case.objects.filter(
            primary_advocate__username="aisha.advocate",
            status__in=OPEN_STATUSES,
            restricted=False,
            safety_plan__isnull=False,
            safe_contact__isnull=False,
        )
        .order_by("pk")
        .first()
    )
    assert case is not None
    advocate.goto(f"/cases/{case.public_id}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(case.reference)
    _look(advocate, "case-page")
    advocate.goto(f"/cases/{case.public_id}/safety/")
    _look(advocate, "safety-plan")
    advocate.goto("/checkins/")
    stacked = page.locator("table.table-stack").first
    expect(stacked).to_be_attached()
    assert (
        stacked.locator("tbody > tr > td").first.evaluate("td => getComputedStyle(td).display")
        == "block"
    )
    _look(advocate, "check-ins")

    supervisor = new_tab(viewport=PHONE)
    sign_in(supervisor.page, live_server, "nadia.supervisor", logins["nadia.supervisor"])
    team = supervisor.page.get_by_role("region", name="Your teams today")
    # By person, then kind: one line per kind, opened to see the items.
    line = team.locator("details.queue-group summary").first
    expect(line).to_be_visible()
    line.click()
    expect(team.locator("details[open] .queue-item").first).to_be_visible()
    expect(team.get_by_role("button", name="Filter")).to_be_visible()
    _look(supervisor, "supervisor-team")
