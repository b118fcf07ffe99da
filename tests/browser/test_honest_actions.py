"""Honest checks and plain words, on a phone: "not safe to talk" proposes another slot and a
plan review; "Mark done" can be undone; notifications are marked read at once; the audit log
says what people did in words, filtered by a choice."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.checkins import scheduler
from caseflow.checkins.models import CheckIn, CheckInOutcome
from caseflow.inbox.models import FollowUp, FollowUpStatus, Notification
from caseflow.inbox.services import notify
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 375, "height": 740}


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways at 375 px ({width} px wide)"


def test_not_safe_undo_notifications_and_audit_words(new_tab, live_server, cast):
    now = timezone.now()
    failed = CheckIn.objects.create(
        case=cast.case, assignee=cast.assigned, due_at=now - dt.timedelta(hours=1), channel="phone"
    )
    FollowUp.objects.create(
        case=cast.case, kind="task", due_at=now - dt.timedelta(days=1), assignee=cast.assigned
    )
    for n in range(3):
        for note in notify(
            recipients=[cast.assigned],
            kind="reminder",
            case=cast.case,
            key=f"browser-{n}",
            text=f"Reminder {n} for {cast.case.reference}",
        ):
            scheduler.notification_deliver(notification_id=note.pk)
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)

    # "Mark done" is undone from the same queue.
    day = page.get_by_role("region", name="Your day")
    day.get_by_role("list", name="Overdue").get_by_role("button", name="Mark done").click()
    undo = page.get_by_role("region", name="Your day").get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    undo.click()
    expect(
        page.get_by_role("region", name="Your day").get_by_role("list", name="Overdue")
    ).to_contain_text("Follow-up: Task")
    assert FollowUp.objects.get(case=cast.case).status == FollowUpStatus.OPEN

    # An outcome has no default; "not safe" proposes a later slot and a plan review.
    tab.goto(f"/checkins/case/{cast.case.public_id}/{failed.pk}/outcome/")
    radios = page.get_by_role("radio")
    for i in range(radios.count()):
        expect(radios.nth(i)).not_to_be_checked()
    page.get_by_label("Not safe to talk").check()
    tab.check("outcome-not-safe-form")
    page.get_by_role("button", name="Record outcome").click()
    expect(page.get_by_role("status")).to_contain_text("Not safe to talk")
    expect(page.get_by_role("link", name="reviewing the safety plan")).to_be_visible()
    expect(page.get_by_text("The next safe slot is")).to_be_visible()
    failed.refresh_from_db()
    assert failed.outcome == CheckInOutcome.NOT_SAFE
    tab.check("outcome-not-safe-proposal")
    _fits(page)

    # Notifications: one tap marks them all read.
    tab.goto("/checkins/notifications/")
    page.get_by_role("button", name="Mark all as read").click()
    expect(page.get_by_text("marked read")).to_be_visible()
    assert not Notification.objects.filter(recipient=cast.assigned, read_at__isnull=True).exists()
    tab.check("notifications-read")
    _fits(page)

    # The audit log in words, filtered by a choice.
    boss = new_tab(viewport=PHONE)
    sign_in(boss.page, live_server, "auditor", f.PASSWORD)
    boss.goto("/audit/")
    boss.page.get_by_label("What they did").select_option(label="Viewed the case")
    boss.page.get_by_role("button", name="Filter").click()
    expect(boss.page.locator("main")).to_contain_text("Viewed the case")
    expect(boss.page.locator("main")).not_to_contain_text("case.view")
    boss.check("audit-words")
    _fits(boss.page)


def test_the_conflict_check_says_when_it_compared_names_only(new_tab, live_server, cast):
    # An admin hides the survivor's date of birth: the page warns what that does to the check.
    admin = new_tab(viewport=PHONE)
    page = admin.page
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    admin.goto("/confidentiality/fields/")
    page.get_by_label("Do not collect: Survivor's date of birth").check()
    page.get_by_role("button", name="Save field settings").click()
    expect(page.get_by_role("status").filter(has_text="Field settings saved.")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="A date of birth is not")).to_contain_text(
        "the conflict check at intake compares names only"
    )
    _fits(page)
    admin.check("field-settings-weaker-check")

    # The advocate's intake then says the check compared names only, and why.
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto("/cases/new/")
    expect(page.get_by_label("Survivor's date of birth")).to_have_count(0)
    page.locator("main").get_by_label("Reference", exact=True).fill("REF-NAMES-1")
    page.get_by_label("Referral summary").fill("Self-referral by phone.")
    page.get_by_label("Survivor's full name").fill("Robin Sample")
    page.get_by_role("button", name="Open case").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("REF-NAMES-1")
    expect(page.locator("main")).to_contain_text(
        "because your agency does not collect dates of birth"
    )
    _fits(page)
    tab.check("intake-names-only")
