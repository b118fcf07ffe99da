"""More journeys through a real Chromium: the safety plan and its versions, check-ins inside the
survivor's safe windows, a contact agreement and its breach register, and the supervisor's audit
workspace. Each step asserts what the user sees; every new page goes through ``Tab.check``."""

from __future__ import annotations

import csv
import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.checkins.models import CheckIn
from tests import factories as f
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

LONDON = ZoneInfo("Europe/London")
EXPORT_HEADER = (
    "seq,time_utc,actor_id,actor,actor_role,case_id,action,object_type,object_id,request_id,"
    "ip,detail,hash"
)


def _next_weekday(after: dt.date) -> dt.date:
    """The first Monday-to-Friday day after ``after`` (the cast's safe windows are weekdays)."""
    day = after + dt.timedelta(days=1)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def test_advocate_writes_a_safety_plan_and_compares_its_versions(tab, live_server, cast):
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    safety = page.get_by_role("region", name="Safety plan and risk")
    expect(safety).to_contain_text("No safety plan yet")

    safety.get_by_role("link", name="Safety plan", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Safety plan")
    expect(page.get_by_text("This case has no safety plan yet.")).to_be_visible()
    tab.check("safety-plan-empty")

    page.get_by_role("link", name="Write the plan").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Write the safety plan")
    tab.check("safety-plan-form")
    page.get_by_label("Safe contacts and code words").fill("Sister Sam; code word 'blue mug'.")
    page.get_by_label("Leaving plan").fill("Go to the refuge by taxi.")
    page.get_by_label("Spare keys (house, car, work)").check()
    page.get_by_role("button", name="Save as a new version").click()

    expect(page.get_by_role("status")).to_have_text("Safety plan saved as a new version.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Safety plan version 1")
    expect(page.locator("main")).to_contain_text("Go to the refuge by taxi.")
    expect(page.get_by_role("link", name="Version 1", exact=True)).to_be_visible()
    tab.check("safety-plan-v1")

    page.get_by_role("link", name="Edit plan").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Edit safety plan")
    leaving = page.get_by_label("Leaving plan")
    expect(leaving).to_have_value("Go to the refuge by taxi.")
    tab.check("safety-plan-edit")
    leaving.fill("Go to the refuge with a friend's car.")
    page.get_by_role("button", name="Save as a new version").click()

    expect(page.get_by_role("status")).to_have_text("Safety plan saved as a new version.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Safety plan version 2")
    expect(page.get_by_role("link", name="Version 2", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Version 1", exact=True)).to_be_visible()

    page.get_by_role("link", name="Changes from version 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Compare versions")
    expect(page.get_by_text("From version 1")).to_be_visible()
    changed = page.get_by_role("region", name=re.compile(r"^Leaving plan"))
    expect(changed).to_contain_text("changed")
    expect(changed.locator("del")).to_contain_text("Go to the refuge by taxi.")
    expect(changed.locator("ins")).to_contain_text("Go to the refuge with a friend's car.")
    same = page.get_by_role("region", name=re.compile(r"^Safe contacts and code words"))
    expect(same).to_contain_text("unchanged")
    tab.check("safety-plan-diff")


def test_advocate_schedules_a_check_in_only_inside_a_safe_window(tab, live_server, cast):
    day = _next_weekday(dt.datetime.now(LONDON).date())
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    panel = page.get_by_role("region", name="Check-ins and follow-ups")
    expect(panel).to_contain_text("No check-ins scheduled.")

    panel.get_by_role("link", name="Schedule a check-in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Schedule a check-in")
    expect(page.locator("main")).to_contain_text("Safe channels: Phone call")
    tab.check("checkin-form")
    # 14:00 is outside the survivor's window (Mon-Fri 10:00-12:00 Europe/London).
    page.get_by_label("Date").fill(day.isoformat())
    page.get_by_role("textbox", name="Time").fill("14:00")
    page.get_by_label("Channel").select_option(label="Phone call")
    page.get_by_role("button", name="Schedule check-in").click()

    main = page.locator("main")
    expect(main).to_contain_text("The next safe slot is")
    # The refusal offers the next safe slot after the time asked for (the safe-times box
    # above the date gives the next one from now).
    offer = page.locator("div.alert-info", has_text="Next safe slot:")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("10:00 (Europe/London)")
    tab.check("checkin-refused")

    page.get_by_role("link", name="Use this slot").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Schedule a check-in")
    expect(page.get_by_role("textbox", name="Time")).to_have_value("10:00")
    page.get_by_role("button", name="Schedule check-in").click()
    expect(page.get_by_role("status")).to_have_text("Check-in scheduled.")
    # Only the check-in in the safe slot exists: the refused attempt saved nothing.
    expect(panel.get_by_role("row").filter(has_text="Scheduled")).to_have_count(1)
    row = panel.get_by_role("row").filter(has_text="phone")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("10:00")
    expect(row).to_contain_text("Europe/London")
    expect(row).to_contain_text("Scheduled")

    # The site's own menu (the case page's "On this page" contents has a "Check-ins" link too).
    site_nav = page.get_by_role("navigation", name="Main", exact=True)
    site_nav.get_by_role("link", name="Check-ins").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your check-ins")
    week = page.get_by_role("region", name="Next 7 days")
    entry = week.get_by_role("row").filter(has_text="CASE-1")
    expect(entry).to_have_count(1)
    tab.check("checkins-home")
    # Not due yet: nothing to record. Time passes, and it is due.
    expect(entry).to_contain_text("Not due yet.")
    expect(entry.get_by_label("Outcome")).to_have_count(0)
    CheckIn.objects.filter(case=cast.case).update(due_at=timezone.now() - dt.timedelta(hours=1))
    tab.goto("/checkins/")
    # Due an hour ago: listed today (or overdue, just after midnight), with its outcome.
    entry = page.locator("main").get_by_role("row").filter(has_text="CASE-1")
    expect(entry).to_have_count(1)
    entry.get_by_label("Outcome").select_option(label="Reached")
    entry.get_by_label("Short note").fill("All well; next call as planned.")
    entry.get_by_role("button", name="Record").click()
    expect(entry.get_by_role("status")).to_have_text("Recorded: Reached")
    tab.check("checkins-outcome-recorded")

    tab.goto(f"/cases/{cast.case.public_id}/")
    expect(panel).to_contain_text("No check-ins scheduled.")
    expect(panel).to_contain_text("Reached")


@pytest.fixture
def escalation_inline(monkeypatch):
    """The live server runs in this process without a broker: a confirmed breach's escalation task
    runs inline, as a worker would run it, instead of being sent to a queue."""
    from caseflow.agreements import tasks
    from caseflow.celery import app as celery_app

    ran = []

    def run(name, kwargs, **options):
        assert name == tasks.escalate_breach.name
        ran.append(kwargs["breach_id"])
        tasks.escalate_breach(**kwargs)

    monkeypatch.setattr(celery_app, "send_task", run)
    return ran


def test_advocate_logs_a_contact_that_breaks_the_agreement(
    tab, live_server, cast, escalation_inline
):
    start = dt.datetime.now(LONDON).date() - dt.timedelta(days=7)
    when = (dt.datetime.now(LONDON) - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    page = tab.page
    sign_in(page, live_server, "assigned", f.PASSWORD)
    tab.goto(f"/cases/{cast.case.public_id}/")
    panel = page.get_by_role("region", name="Contact agreements")
    expect(panel).to_contain_text("No contact agreement recorded.")

    panel.get_by_role("link", name="New agreement").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New contact agreement")
    tab.check("agreement-form")
    page.get_by_label("Agreement starts on").fill(start.isoformat())
    page.get_by_label("Court", exact=True).fill("Family Court at Leeds")
    page.get_by_role("group", name="Channels the other parent must not use").get_by_label(
        "Text message"
    ).check()
    page.get_by_role("button", name="Save a new version").click()

    expect(page.get_by_role("status")).to_have_text("Agreement saved as a draft.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Contact agreement from")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Draft")
    expect(page.get_by_text("No contact logged yet.")).to_be_visible()
    tab.check("agreement-detail")
    page.get_by_label("Change status").select_option(label="Active")
    page.get_by_role("button", name="Change", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Agreement is now active.")

    page.get_by_role("link", name="Log a contact").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log a contact the survivor reported")
    tab.check("agreement-event-form")
    page.get_by_label("When it happened").fill(when)
    page.get_by_label("Channel").select_option(label="Text message")
    page.get_by_label("Direction").select_option(label="Other parent → survivor")
    page.get_by_label("What sort of contact").select_option(label="Message")
    page.get_by_label("Short description").fill("Three texts about the weekend.")
    page.get_by_role("button", name="Check against the agreement").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Review a logged contact")
    found = page.get_by_role("region", name="What the checker found")
    expect(found).to_contain_text("by a channel the agreement forbids: Text message")
    expect(page.get_by_label("Used a forbidden channel")).to_be_checked()
    expect(page.get_by_label("Severity")).to_have_value("medium")
    tab.check("agreement-event-review")
    page.get_by_role("button", name="Confirm").click()

    expect(page.get_by_role("status")).to_have_text("Breach recorded.")
    log = page.get_by_role("region", name="Contact log and breaches")
    entry = log.get_by_role("listitem").filter(has_text="Three texts about the weekend.")
    expect(entry).to_contain_text("Breach · Medium")
    expect(entry).to_contain_text("by a channel the agreement forbids: Text message")
    expect(entry.get_by_role("link", name="Awaiting review")).to_have_count(0)
    assert len(escalation_inline) == 1
    tab.check("agreement-breach-recorded")


def test_supervisor_reviews_emergency_access_and_exports_the_audit(
    tab, new_tab, live_server, cast, tmp_path
):
    # Another advocate of the team opens the case through emergency access.
    other = new_tab()
    sign_in(other.page, live_server, "same_team", f.PASSWORD)
    other.page.get_by_role("link", name="Emergency access").click()
    other.page.get_by_label("Case reference").fill("CASE-1")
    other.page.get_by_label("Reason").fill("Client called in crisis; her advocate is in court.")
    other.page.get_by_role("button", name="Open the case").click()
    expect(other.page.get_by_role("status")).to_contain_text("Emergency access granted")
    same_team = cast.same_team.get_full_name()

    page = tab.page
    sign_in(page, live_server, "supervisor", f.PASSWORD)
    page.get_by_role("link", name="Audit", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Audit")
    tab.check("audit-events")

    tab.goto(f"/cases/{cast.case.public_id}/")
    page.get_by_role("link", name="Audit history").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Audit timeline: CASE-1")
    events = page.get_by_role("region", name="All events")
    expect(events.get_by_role("row").filter(has_text=same_team).first).to_be_visible()
    tab.check("audit-case-timeline")

    page.get_by_role("link", name="Who accessed this case").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Who accessed CASE-1")
    people = page.get_by_role("table").first
    expect(people.get_by_role("row").filter(has_text=same_team)).to_have_count(1)
    expect(
        people.get_by_role("row").filter(has_text=cast.supervisor.get_full_name())
    ).to_have_count(1)
    tab.check("audit-case-access")

    page.get_by_role("link", name="Audit", exact=True).click()
    page.get_by_role("link", name="Emergency access review").click()
    pending = page.get_by_role("region", name="Awaiting review")
    grant = pending.get_by_role("row").filter(has_text="CASE-1")
    expect(grant).to_contain_text(same_team)
    expect(grant).to_contain_text("active")
    tab.check("audit-break-glass-queue")

    grant.get_by_role("link", name="Review").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Review emergency access to CASE-1")
    expect(page.locator("main")).to_contain_text(
        "Client called in crisis; her advocate is in court."
    )
    tab.check("audit-break-glass-review")
    page.get_by_role("radio", name="Justified", exact=True).check()
    page.get_by_label("Review comment").fill("The assigned advocate was in court.")
    page.get_by_role("button", name="Record the review").click()

    expect(page.get_by_role("status")).to_have_text(
        "Your review of the emergency access is recorded."
    )
    expect(pending).to_contain_text("Nothing awaits review.")
    reviewed = page.get_by_role("region", name="Recently reviewed").get_by_role("row")
    done = reviewed.filter(has_text="CASE-1")
    expect(done).to_contain_text(same_team)
    expect(done).to_contain_text(cast.supervisor.get_full_name())
    expect(done).to_contain_text("Justified")
    tab.check("audit-break-glass-reviewed")

    page.get_by_role("link", name="Events").click()
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export CSV").click()
    download = download_info.value
    assert download.suggested_filename == "audit-events.csv"
    target = tmp_path / "audit-events.csv"
    download.save_as(target)
    rows = list(csv.reader(target.read_text(encoding="utf-8").splitlines()))
    assert ",".join(rows[0]) == EXPORT_HEADER
    by_action = {(row[3], row[6]) for row in rows[1:]}
    assert ("same_team", "break_glass.open") in by_action
    assert ("supervisor", "break_glass.review") in by_action
