"""The reminder journey with a real Celery worker: an advocate schedules a check-in inside the
survivor's safe window, a worker process sweeps the schedule through the broker and delivers the
reminder, and the advocate sees it arrive in the browser.

Like the worker tests (whose harness, tests/celery_harness.py, this reuses), it
needs PostgreSQL and Redis: without them it is skipped, saying why, except when
``CASEFLOW_REQUIRE_SERVICES=1``, when an unreachable Redis fails. Waiting is bounded polling of
the worker's observable state, never a fixed sleep.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.db import connections
from playwright.sync_api import expect

from caseflow.celery import app as celery_app
from caseflow.checkins.models import CheckIn
from caseflow.checkins.tasks import sweep_due
from caseflow.inbox.models import Notification, NotificationChannel
from tests import factories as f
from tests.browser.conftest import sign_in
from tests.celery_harness import (
    REDIS_URL,
    Worker,
    _require_services,
    _reset_producer,
    wait_for,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.celery_worker,
    # With the other real-worker tests, not the browser group: they share the test Redis
    # database and Celery's default queue, and one of them empties that database.
    pytest.mark.xdist_group("celery_worker"),
]

# Everything the worker has to do (start, sweep, deliver) finishes well within this.
WAIT_SECONDS = 60
# The worker consumes the default queue: the deliveries its sweep enqueues go there too.
QUEUE = "celery"


@pytest.fixture
def reminder_worker(browser_db, tmp_path):
    """A real worker against the live server's database, consuming the default queue of the
    tests' own Redis database (emptied first, so nothing left by earlier tests runs)."""
    _require_services()
    saved = {key: celery_app.conf[key] for key in ("broker_url", "broker_transport_options")}
    celery_app.conf.update(
        broker_url=REDIS_URL, broker_transport_options={"visibility_timeout": 3600}
    )
    _reset_producer()
    with celery_app.connection_for_write() as conn:
        conn.default_channel.queue_purge(QUEUE)
    worker = Worker(tmp_path / "worker", QUEUE).launch()
    try:
        worker.ready()
        yield worker
    finally:
        worker.stop()
        celery_app.conf.update(**saved)
        _reset_producer()
        connections.close_all()


def _window_around(now: dt.datetime) -> str:
    """A daily window from an hour before ``now`` to two hours after it (wrapping midnight
    when it must), in the profile's own wall time."""
    start = (now - dt.timedelta(hours=1)).strftime("%H:%M")
    end = (now + dt.timedelta(hours=2)).strftime("%H:%M")
    return f"daily {start}-{end}"


def test_advocate_sees_the_reminder_a_real_worker_delivers(tab, live_server, cast, reminder_worker):
    page = tab.page
    case = cast.case
    sign_in(page, live_server, "assigned", f.PASSWORD)
    nav = page.get_by_role("navigation")
    expect(nav.get_by_title("Unread notifications")).to_have_count(0)

    # The survivor's safe-contact profile allows now: a window around the current moment.
    tab.goto(f"/cases/{case.public_id}/safe-contact/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Safe-contact profile")
    zone = page.get_by_label("Timezone").input_value()
    local_now = dt.datetime.now(dt.UTC).astimezone(ZoneInfo(zone))
    page.get_by_label("Safe phone").fill("07700 900123")
    page.get_by_label("Safe times").fill(_window_around(local_now))
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Safe-contact profile saved.")

    # A check-in ten minutes ahead: inside the window and inside the reminder lead.
    due = (local_now + dt.timedelta(minutes=10)).replace(second=0, microsecond=0)
    panel = page.get_by_role("region", name="Check-ins and follow-ups")
    panel.get_by_role("link", name="Schedule a check-in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Schedule a check-in")
    page.get_by_label("Date").fill(due.date().isoformat())
    page.get_by_role("textbox", name="Time").fill(due.strftime("%H:%M"))
    page.get_by_label("Channel").select_option(label="Phone call")
    page.get_by_role("button", name="Schedule check-in").click()
    expect(page.get_by_role("status")).to_have_text("Check-in scheduled.")
    row = panel.get_by_role("row").filter(has_text="Scheduled")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(due.strftime("%H:%M"))
    checkin = CheckIn.objects.get(case=case)
    assert checkin.assignee == cast.assigned
    assert checkin.due_at == due.astimezone(dt.UTC)

    # The worker runs the sweep (sent through the broker) and delivers the in-app reminder.
    sweep_due.delay()

    def delivered():
        return Notification.objects.filter(
            checkin=checkin, channel=NotificationChannel.IN_APP, sent_at__isnull=False
        ).exists()

    try:
        wait_for(delivered, WAIT_SECONDS, "the worker to deliver the reminder", step=0.25)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{reminder_worker.log_text()[-3000:]}") from None
    reminders = Notification.objects.filter(
        checkin=checkin, channel=NotificationChannel.IN_APP, kind="checkin_reminder"
    )
    assert reminders.count() == 1
    reminder = reminders.get()
    assert reminder.recipient == cast.assigned and reminder.read_at is None
    assert case.reference in reminder.text

    # The advocate reloads the dashboard: the unread count shows in the navigation.
    tab.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Hello, "))
    badge = nav.get_by_title("Unread notifications")
    expect(badge).to_have_text("1 unread notifications")
    tab.check("reminder-dashboard")

    nav.get_by_role("link", name=re.compile(r"^Check-ins")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your check-ins")
    page.get_by_role("link", name=re.compile(r"^Notifications")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Notifications")
    item = page.get_by_role("listitem").filter(has_text=case.reference)
    expect(item).to_have_count(1)
    expect(item).to_contain_text(
        f"Check-in due in {settings.REMINDER_LEAD_MINUTES} minutes on case {case.reference}."
    )
    expect(item).to_contain_text("new")
    tab.check("reminder-notifications")

    # Listing them reads nothing; opening the reminder reads it and goes to the case.
    expect(nav.get_by_title("Unread notifications")).to_have_text("1 unread notifications")
    item.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(case.reference)
    expect(nav.get_by_title("Unread notifications")).to_have_count(0)
    reminder.refresh_from_db()
    assert reminder.read_at is not None
    tab.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Hello, "))
    expect(nav.get_by_title("Unread notifications")).to_have_count(0)
    assert reminders.count() == 1
