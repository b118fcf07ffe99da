"""Monday morning on a phone: the advocate's home page is today's queue — overdue first,
marked in words — and one tap marks a follow-up done; the supervisor sees the team's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.inbox.models import FollowUp, FollowUpStatus
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways at 375 px ({width} px wide)"


def test_the_advocates_day_and_the_supervisors_team_queue(new_tab, live_server, cast):
    now = timezone.now()
    late = FollowUp.objects.create(
        case=cast.case, kind="task", due_at=now - dt.timedelta(days=2), assignee=cast.assigned
    )
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    day = page.get_by_role("region", name="Your day")
    overdue = day.get_by_role("list", name="Overdue")
    expect(overdue.get_by_role("listitem")).to_have_count(1)
    expect(overdue).to_contain_text("Overdue")
    expect(overdue).to_contain_text("Follow-up: Task")
    tab.check("today-advocate")
    _fits(page)

    overdue.get_by_role("button", name="Mark done").click()
    expect(page.get_by_role("region", name="Your day")).to_contain_text(
        "Nothing overdue or due today."
    )
    late.refresh_from_db()
    assert late.status == FollowUpStatus.DONE

    FollowUp.objects.create(
        case=cast.case, kind="task", due_at=now - dt.timedelta(hours=3), assignee=cast.assigned
    )
    boss = new_tab(viewport=PHONE)
    sign_in(boss.page, live_server, "supervisor", f.PASSWORD)
    team = boss.page.get_by_role("region", name="Your teams today")
    expect(team.get_by_role("list", name="Overdue")).to_contain_text(cast.assigned.get_full_name())
    boss.check("today-supervisor")
    _fits(boss.page)
