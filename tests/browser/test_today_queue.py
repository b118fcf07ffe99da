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
    expect(team.get_by_role("heading", name=cast.assigned.get_full_name())).to_be_visible()
    boss.check("today-supervisor")
    _fits(boss.page)


def test_the_supervisors_queue_shows_22_like_items_as_one_line(new_tab, live_server, cast):
    now = timezone.now()
    for n in range(22):
        case = f.open_case(cast.team1, [cast.assigned], reference=f"T-{n:02d}")
        FollowUp.objects.create(
            case=case, kind="task", due_at=now - dt.timedelta(hours=n + 1), assignee=cast.assigned
        )
    FollowUp.objects.create(
        case=cast.case,
        kind="court_date",
        due_at=now - dt.timedelta(hours=1),
        assignee=cast.same_team,
    )
    boss = new_tab(viewport=PHONE)
    page = boss.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    team = page.get_by_role("region", name="Your teams today")
    name = cast.assigned.get_full_name()
    theirs = team.get_by_role("list", name=name, exact=True)
    # One line for the 22 tasks, closed.
    expect(theirs.locator(":scope > li")).to_have_count(1)
    line = theirs.locator("summary")
    expect(line).to_contain_text("Follow-up: Task")
    expect(line).to_contain_text("22")
    items = team.get_by_role("list", name=f"Follow-up: Task, {name}")
    expect(items).to_be_hidden()
    line.click()
    expect(items.get_by_role("listitem")).to_have_count(22)
    boss.check("team-queue-grouped")
    _fits(page)

    # Filter: one person's work only.
    team.get_by_label("Staff").select_option(label=cast.same_team.get_full_name())
    team.get_by_label("Overdue only").check()
    team.get_by_role("button", name="Filter").click()
    team = page.get_by_role("region", name="Your teams today")
    expect(team.get_by_role("list", name=name, exact=True)).to_have_count(0)
    expect(
        team.get_by_role("list", name=cast.same_team.get_full_name(), exact=True)
    ).to_contain_text("Follow-up: Court date")
    expect(team.get_by_label("Overdue only")).to_be_checked()
    boss.check("team-queue-filtered")
    _fits(page)
